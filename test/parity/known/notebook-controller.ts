import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's notebook-controller install (see ../known-defects.ts). */
export const KNOWN_NOTEBOOK_CONTROLLER: readonly KnownDefect[] = [
  { install: 'notebook-controller', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/notebook-controller-deployment container manager', status: 'extra' }, items: ['--metrics-addr=127.0.0.1:8080', '--probe-addr=:8081'], note: 'arg we add, upstream has not' },
  { install: 'notebook-controller', defect: 'UNTRIAGED', fact: { kind: F.CONTAINER, object: 'Deployment/notebook-controller-deployment', status: 'extra' }, items: ['kube-rbac-proxy'], note: 'container we add, upstream has not' },
  { install: 'notebook-controller', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/notebook-controller-deployment', status: 'missing' }, items: ['apps|statefulsets|deletecollection', 'kubeflow.org|notebooks/finalizers|create', 'kubeflow.org|notebooks/finalizers|delete', 'kubeflow.org|notebooks/finalizers|deletecollection', 'kubeflow.org|notebooks/finalizers|get', 'kubeflow.org|notebooks/finalizers|list', 'kubeflow.org|notebooks/finalizers|patch', 'kubeflow.org|notebooks/finalizers|watch', 'kubeflow.org|notebooks/status|create', 'kubeflow.org|notebooks/status|delete', 'kubeflow.org|notebooks/status|deletecollection', 'kubeflow.org|notebooks/status|list', 'kubeflow.org|notebooks/status|watch', 'kubeflow.org|notebooks|deletecollection', 'networking.istio.io|virtualservices|deletecollection', '|configmaps/status|get', '|configmaps/status|patch', '|configmaps/status|update', '|configmaps|create', '|configmaps|delete', '|configmaps|get', '|configmaps|list', '|configmaps|patch', '|configmaps|update', '|configmaps|watch', '|services|deletecollection'], note: 'rbac upstream has, we lack' },
  { install: 'notebook-controller', defect: 'UNTRIAGED', fact: { kind: F.SERVICE, object: 'notebook-controller-service', status: 'missing' }, note: 'service upstream has, we lack' },
];
