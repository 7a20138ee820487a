import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's training-operator install (see ../known-defects.ts). */
export const KNOWN_TRAINING_OPERATOR: readonly KnownDefect[] = [
  { install: 'training-operator', defect: 'UNTRIAGED', fact: { kind: F.ARG, object: 'Deployment/training-operator container training-operator', status: 'extra' }, items: ['--health-probe-bind-address=:8081', '--leader-elect', '--metrics-bind-address=:8080', '--webhook-secret-name=training-operator-webhook-cert', '--webhook-server-port=9443', '--webhook-service-name=training-operator'], note: 'arg we add, upstream has not' },
  { install: 'training-operator', defect: 'UNTRIAGED', fact: { kind: F.CONTAINER, object: 'Deployment/training-operator', status: 'differs' }, items: ['training-operator'], note: 'container differs from upstream: training-operator upstream named training-operator, ours named manager' },
  { install: 'training-operator', defect: 'UNTRIAGED', fact: { kind: F.SERVICE_PORT, object: 'training-operator', status: 'missing' }, items: ['8080/TCP'], note: 'service-port upstream has, we lack' },
];
