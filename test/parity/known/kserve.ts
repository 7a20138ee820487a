import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kserve install (see ../known-defects.ts). */
export const KNOWN_KSERVE: readonly KnownDefect[] = [
  {
    install: 'kserve',
    defect: 'KSERVE-MULTINODE-PROBE',
    fact: { kind: F.CUSTOM_RESOURCE_TEXT, object: 'ClusterServingRuntime/kserve-huggingfaceserver-multinode', status: 'differs' },
    items: ['spec.containers[kserve-container].command', 'spec.workerSpec.containers[worker-container].command', 'spec.workerSpec.containers[worker-container].startupProbe.exec.command'],
    note: 'the multinode runtime\'s head and worker scripts and the worker startup probe are the project\'s own; the head does not wait for the workers to register and the worker probe does not check the head\'s runtime (upstream\'s health_check.py steps)',
  },
  {
    install: 'kserve',
    defect: 'KSERVE-LLM-LAUNCHER',
    fact: { kind: F.CUSTOM_RESOURCE_TEXT, object: 'LLMInferenceServiceConfig/kserve-config-llm-*', item: 'spec.*containers[main].command', status: 'differs' },
    note: 'the launch scripts of the LLMInferenceServiceConfig templates differ from upstream\'s at v0.20.0',
  },
];
