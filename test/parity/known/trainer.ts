import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's trainer install (see ../known-defects.ts). */
export const KNOWN_TRAINER: readonly KnownDefect[] = [
  { install: 'trainer', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/jobset-controller-manager', status: 'missing' }, items: ['nonResourceURL|/metrics|get', '|configmaps|create', '|configmaps|delete', '|configmaps|get', '|configmaps|list', '|configmaps|patch', '|configmaps|update', '|configmaps|watch'], note: 'rbac upstream has, we lack' },
  { install: 'trainer', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/kubeflow-trainer-controller-manager', status: 'missing' }, items: ['trainer.kubeflow.org|clustertrainingruntimes/finalizers|get', 'trainer.kubeflow.org|clustertrainingruntimes/finalizers|patch', 'trainer.kubeflow.org|trainingruntimes/finalizers|get', 'trainer.kubeflow.org|trainingruntimes/finalizers|patch', 'trainer.kubeflow.org|trainjobs/finalizers|get', 'trainer.kubeflow.org|trainjobs/finalizers|patch'], note: 'rbac upstream has, we lack' },
  { install: 'trainer', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/kubeflow-trainer-controller-manager', status: 'extra' }, items: ['trainer.kubeflow.org|clustertrainingruntimes/status|get', 'trainer.kubeflow.org|clustertrainingruntimes/status|patch', 'trainer.kubeflow.org|clustertrainingruntimes/status|update', 'trainer.kubeflow.org|clustertrainingruntimes|create', 'trainer.kubeflow.org|clustertrainingruntimes|delete', 'trainer.kubeflow.org|trainingruntimes/status|get', 'trainer.kubeflow.org|trainingruntimes/status|patch', 'trainer.kubeflow.org|trainingruntimes/status|update', 'trainer.kubeflow.org|trainingruntimes|create', 'trainer.kubeflow.org|trainingruntimes|delete', 'trainer.kubeflow.org|trainjobs|create', 'trainer.kubeflow.org|trainjobs|delete'], note: 'rbac we add, upstream has not' },
  { install: 'trainer', defect: 'UNTRIAGED', fact: { kind: F.SERVICE, object: 'jobset-controller-manager-metrics-service', status: 'missing' }, note: 'service upstream has, we lack' },
  { install: 'trainer', defect: 'UNTRIAGED', fact: { kind: F.SERVICE_PORT, object: 'kubeflow-trainer-controller-manager', status: 'missing' }, items: ['8443/TCP'], note: 'service-port upstream has, we lack' },
  { install: 'trainer', defect: 'JOBSET-SEL', fact: { kind: F.SERVICE_SELECTOR, object: 'jobset-webhook-service', status: 'missing' }, items: ['app.kubernetes.io/instance', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/name'], note: "the webhook Service selects by a label other pods carry, not by JobSet's own labels" },
];
