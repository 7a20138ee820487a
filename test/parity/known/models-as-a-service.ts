import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's models-as-a-service install (see ../known-defects.ts). */
export const KNOWN_MODELS_AS_A_SERVICE: readonly KnownDefect[] = [
  { install: 'models-as-a-service', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/maas-controller container manager', status: 'extra' }, items: ['--metrics-bind-address=:8443', '--metrics-secure=true'], note: 'arg we add, upstream has not' },
  { install: 'models-as-a-service', defect: 'UNTRIAGED', fact: { kind: F.PORT, object: 'Deployment/maas-controller container manager', status: 'missing' }, items: ['8080/TCP'], note: 'port upstream has, we lack' },
  { install: 'models-as-a-service', defect: 'UNTRIAGED', fact: { kind: F.PORT, object: 'Deployment/maas-controller container manager', status: 'extra' }, items: ['9443/TCP'], note: 'port we add, upstream has not' },
  { install: 'models-as-a-service', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/maas-controller', status: 'extra' }, items: ['autoscaling|horizontalpodautoscalers|create', 'autoscaling|horizontalpodautoscalers|delete', 'autoscaling|horizontalpodautoscalers|get', 'autoscaling|horizontalpodautoscalers|list', 'autoscaling|horizontalpodautoscalers|patch', 'autoscaling|horizontalpodautoscalers|update', 'autoscaling|horizontalpodautoscalers|watch', 'cert-manager.io|certificates|create', 'cert-manager.io|certificates|delete', 'cert-manager.io|certificates|get', 'cert-manager.io|certificates|list', 'cert-manager.io|certificates|patch', 'cert-manager.io|certificates|watch', 'loki.grafana.com|application|create', 'loki.grafana.com|application|get', 'maas.opendatahub.io|maastenantconfigs/finalizers|update', 'maas.opendatahub.io|tenants|delete', 'rbac.authorization.k8s.io|rolebindings|create', 'rbac.authorization.k8s.io|rolebindings|list', 'rbac.authorization.k8s.io|rolebindings|patch', 'rbac.authorization.k8s.io|rolebindings|watch', 'security.openshift.io|securitycontextconstraints|use', '|pods/log|get'], note: 'rbac we add, upstream has not' },
  { install: 'models-as-a-service', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/maas-controller', status: 'differs' }, items: ['maas.opendatahub.io|configs|get'], note: 'rbac differs from upstream: maas.opendatahub.io|configs|get upstream cluster, ours cluster names default' },
];
