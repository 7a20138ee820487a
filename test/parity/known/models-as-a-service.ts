import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's models-as-a-service install (see ../known-defects.ts). */
export const KNOWN_MODELS_AS_A_SERVICE: readonly KnownDefect[] = [
  {
    install: 'models-as-a-service',
    defect: 'MAAS-PODMON',
    fact: { kind: F.MONITOR, object: 'PodMonitor/maas-controller-metrics', status: 'missing' },
    note: 'upstream\'s PodMonitor for the controller\'s metrics is not emitted',
  },
];
