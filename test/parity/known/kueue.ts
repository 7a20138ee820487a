import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's kueue install (see ../known-defects.ts). */
export const KNOWN_KUEUE: readonly KnownDefect[] = [
  { install: 'kueue', defect: 'KUEUE-VIS', fact: { kind: F.MOUNT, object: 'Deployment/kueue-controller-manager container manager', status: 'missing' }, items: ['/visibility'], note: 'the visibility server writes to /visibility: upstream mounts an emptyDir there' },
];
