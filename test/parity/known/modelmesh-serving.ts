import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's modelmesh-serving install (see ../known-defects.ts). */
export const KNOWN_MODELMESH_SERVING: readonly KnownDefect[] = [
  { install: 'modelmesh-serving', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/modelmesh-controller container manager', status: 'extra' }, items: ['--health-probe-bind-address=:8081', '--metrics-addr=:8080'], note: 'arg we add, upstream has not' },
  { install: 'modelmesh-serving', defect: 'UNTRIAGED', fact: { kind: F.PORT, object: 'Deployment/modelmesh-controller container manager', status: 'extra' }, items: ['8080/TCP'], note: 'port we add, upstream has not' },
  { install: 'modelmesh-serving', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/modelmesh-controller', status: 'missing' }, items: ['security.openshift.io|securitycontextconstraints|use', 'serving.kserve.io|clusterservingruntimes/finalizers|create', 'serving.kserve.io|clusterservingruntimes/finalizers|delete', 'serving.kserve.io|clusterservingruntimes/finalizers|get', 'serving.kserve.io|clusterservingruntimes/finalizers|list', 'serving.kserve.io|clusterservingruntimes/finalizers|patch', 'serving.kserve.io|clusterservingruntimes/finalizers|watch', 'serving.kserve.io|servingruntimes/finalizers|create', 'serving.kserve.io|servingruntimes/finalizers|delete', 'serving.kserve.io|servingruntimes/finalizers|get', 'serving.kserve.io|servingruntimes/finalizers|list', 'serving.kserve.io|servingruntimes/finalizers|patch', 'serving.kserve.io|servingruntimes/finalizers|watch'], note: 'rbac upstream has, we lack' },
];
