import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's llama-stack-k8s-operator install (see ../known-defects.ts). */
export const KNOWN_LLAMA_STACK_K8S_OPERATOR: readonly KnownDefect[] = [
  { install: 'llama-stack-k8s-operator', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/llama-stack-k8s-operator-controller-manager container manager', status: 'extra' }, items: ['--health-probe-bind-address=:8081', '--metrics-bind-address=:8443'], note: 'arg we add, upstream has not' },
  { install: 'llama-stack-k8s-operator', defect: 'UNTRIAGED', fact: { kind: F.CONFIGMAP, object: 'llama-stack-k8s-operator-manager-config', status: 'missing' }, note: 'configmap upstream has, we lack' },
  { install: 'llama-stack-k8s-operator', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/llama-stack-k8s-operator-controller-manager', status: 'missing' }, items: ['security.openshift.io|securitycontextconstraints|use'], note: 'rbac upstream has, we lack' },
  { install: 'llama-stack-k8s-operator', defect: 'UNTRIAGED', fact: { kind: F.SERVICE_PORT, object: 'llama-stack-k8s-operator-controller-manager-metrics-service', status: 'differs' }, items: ['8443/TCP'], note: 'service-port differs from upstream: 8443/TCP upstream https, ours 8443' },
];
