import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's trainer install (see ../known-defects.ts). */
export const KNOWN_TRAINER: readonly KnownDefect[] = [
  {
    install: 'trainer',
    defect: 'TRAINER-TORCHTUNE',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'ClusterTrainingRuntime/torchtune-*', status: 'missing' },
    note: 'the torchtune fine-tuning ClusterTrainingRuntimes of upstream\'s default install are not emitted (constructs/trainer/runtimes.ts: not modelled)',
  },
];
