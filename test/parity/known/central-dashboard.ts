import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's central-dashboard install (see ../known-defects.ts). */
export const KNOWN_CENTRAL_DASHBOARD: readonly KnownDefect[] = [
  { install: 'central-dashboard', defect: 'UNTRIAGED', fact: { kind: F.CONFIGMAP_KEY, object: 'dashboard-parameters', status: 'extra' }, items: ['CD_CLUSTER_DOMAIN'], note: 'configmap-key we add, upstream has not' },
  { install: 'central-dashboard', defect: 'CD-RBAC', fact: { kind: F.RBAC, object: 'Deployment/dashboard', status: 'missing' }, items: ['app.k8s.io|pods/log|get', 'app.k8s.io|pods/log|list', 'app.k8s.io|pods/log|watch', 'app.k8s.io|pods|get', 'app.k8s.io|pods|list', 'app.k8s.io|pods|watch', '|applications|get', '|applications|list', '|applications|watch'], note: "the dashboard's RBAC differs from upstream's (app.k8s.io pods rules, pods/exec)" },
  { install: 'central-dashboard', defect: 'CD-RBAC', fact: { kind: F.RBAC, object: 'Deployment/dashboard', status: 'extra' }, items: ['|pods/exec|get', '|pods/exec|list', '|pods/exec|watch'], note: "the dashboard's RBAC differs from upstream's (app.k8s.io pods rules, pods/exec)" },
  { install: 'central-dashboard', defect: 'UNTRIAGED', fact: { kind: F.SERVICE_SELECTOR, object: 'dashboard', status: 'missing' }, items: ['app.kubernetes.io/managed-by', 'app.kubernetes.io/name', 'app.kubernetes.io/part-of'], note: 'service-selector upstream has, we lack' },
];
