import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's data-science-pipelines-operator install (see ../known-defects.ts). */
export const KNOWN_DATA_SCIENCE_PIPELINES_OPERATOR: readonly KnownDefect[] = [
  {
    install: 'data-science-pipelines-operator',
    defect: 'DSPO-SVCMON',
    fact: { kind: F.MONITOR, object: 'ServiceMonitor/data-science-pipelines-operator-service-monitor', status: 'missing' },
    note: 'upstream\'s ServiceMonitor for the operator\'s metrics is not emitted',
  },
];
