import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's model-registry install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY: readonly KnownDefect[] = [
  {
    install: 'model-registry',
    defect: 'KATIB-MYSQL-PROBE',
    fact: { kind: F.PROBE, object: 'Deployment/model-registry-db container db-container' },
    items: ['liveness', 'readiness'],
    note: 'the model registry database has a TCP liveness probe upstream does not have, and a readiness check as root rather than upstream\'s user on 127.0.0.1',
  },
  {
    install: 'model-registry',
    defect: 'MR-ISTIO',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'AuthorizationPolicy/model-registry-ui', status: 'missing' },
    note: 'upstream\'s Istio AuthorizationPolicy model-registry-ui is not emitted',
  },
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
