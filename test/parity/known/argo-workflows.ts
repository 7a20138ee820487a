import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's argo-workflows install (see ../known-defects.ts). */
export const KNOWN_ARGO_WORKFLOWS: readonly KnownDefect[] = [
  { install: 'argo-workflows', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/workflow-controller container workflow-controller', status: 'extra' }, items: ['--configmap', '--executor-image', 'quay.io/argoproj/argoexec:v4.0.5', 'workflow-controller-configmap'], note: 'arg we add, upstream has not' },
  { install: 'argo-workflows', defect: 'UNTRIAGED', fact: { kind: F.SERVICE, object: 'argo-server', status: 'missing' }, note: 'service upstream has, we lack' },
  { install: 'argo-workflows', defect: 'UNTRIAGED', fact: { kind: F.WORKLOAD, object: 'Deployment/argo-server', status: 'missing' }, note: 'workload upstream has, we lack' },
];
