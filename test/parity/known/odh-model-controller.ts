import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's odh-model-controller install (see ../known-defects.ts). */
export const KNOWN_ODH_MODEL_CONTROLLER: readonly KnownDefect[] = [
  {
    install: 'odh-model-controller',
    defect: 'OMC-SVCMON',
    fact: { kind: F.MONITOR, object: 'ServiceMonitor/*', status: 'missing' },
    note: 'upstream\'s ServiceMonitors (controller metrics, model serving API metrics) are not emitted',
  },
  {
    install: 'odh-model-controller',
    defect: 'OMC-TEMPLATES',
    fact: { kind: F.CUSTOM_RESOURCE, object: 'Template/*', status: 'missing' },
    note: 'upstream\'s OpenShift Templates of serving runtimes (template.openshift.io, read by the ODH dashboard) are not emitted',
  },
];
