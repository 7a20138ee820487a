import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's admission-webhook install (see ../known-defects.ts). */
export const KNOWN_ADMISSION_WEBHOOK: readonly KnownDefect[] = [
  { install: 'admission-webhook', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/poddefaults-webhook-deployment', status: 'missing' }, items: ['kubeflow.org|poddefaults|create', 'kubeflow.org|poddefaults|delete', 'kubeflow.org|poddefaults|patch', 'kubeflow.org|poddefaults|update'], note: 'rbac upstream has, we lack' },
  { install: 'admission-webhook', defect: 'UNTRIAGED', fact: { kind: F.SERVICE_SELECTOR, object: 'poddefaults-webhook-service', status: 'missing' }, items: ['app.kubernetes.io/managed-by', 'app.kubernetes.io/name', 'app.kubernetes.io/part-of'], note: 'service-selector upstream has, we lack' },
];
