import { FactKind as F } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's katib install (see ../known-defects.ts). */
export const KNOWN_KATIB: readonly KnownDefect[] = [
  {
    install: 'katib',
    defect: 'KATIB-MYSQL-PROBE',
    fact: { kind: F.PROBE, object: 'Deployment/katib-mysql container katib-mysql' },
    items: ['readiness', 'startup'],
    note: 'katib-mysql has no startup probe (mysqladmin ping) and its readiness check is written otherwise',
  },
  {
    install: 'katib',
    defect: 'KATIB-MYSQL-PROBE',
    fact: { kind: F.PROBE_FIELD, object: 'Deployment/katib-mysql container katib-mysql', status: 'differs' },
    items: ['liveness failureThreshold', 'readiness failureThreshold'],
    note: 'katib-mysql\'s probes fail after 3 failures where upstream allows 10',
  },
];
