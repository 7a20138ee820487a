import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's mlflow-operator install (see ../known-defects.ts). */
export const KNOWN_MLFLOW_OPERATOR: readonly KnownDefect[] = [
  {
    install: 'mlflow-operator',
    defect: 'MLFLOW-SVCMON',
    fact: { kind: F.MONITOR, object: 'ServiceMonitor/controller-manager-metrics-monitor', status: 'missing' },
    note: 'upstream\'s ServiceMonitor for the operator\'s metrics is not emitted',
  },
];
