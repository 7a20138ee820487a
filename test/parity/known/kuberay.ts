import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's kuberay install (see ../known-defects.ts). */
export const KNOWN_KUBERAY: readonly KnownDefect[] = [
  { install: 'kuberay', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/kuberay-operator container kuberay-operator', status: 'missing' }, items: ['--feature-gates=RayClusterStatusConditions=true'], note: 'arg upstream has, we lack' },
  { install: 'kuberay', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/kuberay-operator container kuberay-operator', status: 'extra' }, items: ['--feature-gates=RayClusterStatusConditions=true,RayCronJob=true', '--health-probe-bind-address=:8082', '--metrics-addr=:8080'], note: 'arg we add, upstream has not' },
  { install: 'kuberay', defect: 'UNTRIAGED', fact: { kind: F.CONTAINER, object: 'Deployment/kuberay-operator', status: 'differs' }, items: ['kuberay-operator'], note: 'container differs from upstream: kuberay-operator upstream named kuberay-operator, ours named manager' },
  { install: 'kuberay', defect: 'UNTRIAGED', fact: { kind: F.PORT, object: 'Deployment/kuberay-operator container kuberay-operator', status: 'extra' }, items: ['8082/TCP'], note: 'port we add, upstream has not' },
  { install: 'kuberay', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/kuberay-operator', status: 'missing' }, items: ['|configmaps|create', '|configmaps|delete', '|configmaps|get', '|configmaps|list', '|configmaps|patch', '|configmaps|update', '|configmaps|watch'], note: 'rbac upstream has, we lack' },
];
