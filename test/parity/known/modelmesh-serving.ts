import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's modelmesh-serving install (see ../known-defects.ts). */
export const KNOWN_MODELMESH_SERVING: readonly KnownDefect[] = [
  {
    install: 'modelmesh-serving',
    defect: 'MM-CONFIG-SA',
    fact: { kind: F.CONFIGMAP_KEY, object: 'model-serving-config-defaults', item: 'config-defaults.yaml', status: 'differs' },
    note: 'config-defaults.yaml sets serviceAccountName: modelmesh for runtime pods where upstream\'s default is empty (the namespace\'s default ServiceAccount)',
  },
];
