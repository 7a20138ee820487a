import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's jobset install (see ../known-defects.ts). */
export const KNOWN_JOBSET: readonly KnownDefect[] = [
  { install: 'jobset', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/jobset-controller-manager', status: 'missing' }, items: ['nonResourceURL|/metrics|get', '|configmaps|create', '|configmaps|delete', '|configmaps|get', '|configmaps|list', '|configmaps|patch', '|configmaps|update', '|configmaps|watch'], note: 'rbac upstream has, we lack' },
  { install: 'jobset', defect: 'UNTRIAGED', fact: { kind: F.SERVICE, object: 'jobset-controller-manager-metrics-service', status: 'missing' }, note: 'service upstream has, we lack' },
  { install: 'jobset', defect: 'JOBSET-SEL', fact: { kind: F.SERVICE_SELECTOR, object: 'jobset-webhook-service', status: 'missing' }, items: ['app.kubernetes.io/instance', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/name'], note: "the webhook Service selects by a label other pods carry, not by JobSet's own labels" },
];
