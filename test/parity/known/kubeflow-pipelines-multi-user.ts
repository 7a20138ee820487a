import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kubeflow-pipelines-multi-user install (see ../known-defects.ts). */
export const KNOWN_KUBEFLOW_PIPELINES_MULTI_USER: readonly KnownDefect[] = [
  {
    install: 'kubeflow-pipelines-multi-user',
    defect: 'KFP-ENVOY-CONFIG',
    fact: { kind: F.CONFIGMAP_KEY, object: 'metadata-envoy-configmap', item: 'envoy-config.yaml', status: 'differs' },
    note: 'the metadata Envoy configuration differs from upstream\'s (admin address 127.0.0.1, cluster names, upstream host with namespace, no admin access log)',
  },
  {
    install: 'kubeflow-pipelines-multi-user',
    defect: 'KFP-DESTINATIONRULES',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'DestinationRule/*', status: 'missing' },
    note: 'upstream\'s Istio DestinationRules (ISTIO_MUTUAL to each Pipelines Service) are not emitted',
  },
  {
    install: 'kubeflow-pipelines-multi-user',
    defect: 'KFP-SEAWEED-PROBE',
    fact: { kind: F.PROBE, object: 'Deployment/seaweedfs container seaweedfs', item: 'startup', status: 'differs' },
    note: 'the SeaweedFS startup probe runs weed from PATH with stderr dropped, where upstream runs /usr/bin/weed',
  },
];
