import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's model-registry install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY: readonly KnownDefect[] = [
  {
    install: 'model-registry',
    defect: 'MR-ISTIO',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'DestinationRule/model-registry-service', status: 'missing' },
    note: 'upstream\'s Istio DestinationRule model-registry-service is not emitted',
  },
  {
    install: 'model-registry',
    defect: 'MR-ISTIO',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'DestinationRule/model-registry-ui', status: 'missing' },
    note: 'upstream\'s Istio DestinationRule model-registry-ui is not emitted',
  },
];
