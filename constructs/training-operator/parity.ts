import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations } from '../../lib/parity-items';

const CONTAINER = 'Deployment/training-operator container training-operator';

/** The Training Operator's differences from upstream's standalone overlay (release-1.9), on purpose. */
export const TRAINING_OPERATOR_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...itemDeviations({ kind: FactKind.ARG, object: CONTAINER, status: 'extra' }, ['--health-probe-bind-address=:8081', '--metrics-bind-address=:8080', '--webhook-server-port=9443', '--webhook-service-name=training-operator', '--webhook-secret-name=training-operator-webhook-cert'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flag states the value release-1.9\'s main.go defaults to, so that the probes, Services and webhook Secret the construct emits visibly match what the operator serves.'),
  {
    fact: { kind: FactKind.ARG, object: CONTAINER, item: '--leader-elect', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'leader election (release-1.9\'s --leader-elect, default off) lets more than one replica run safely; the Controller grants the Leases it uses in the operator\'s namespace.',
  },
  {
    fact: { kind: FactKind.SERVICE_PORT, object: 'training-operator', item: '8080/TCP', status: 'missing' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the plain-HTTP metrics port (8080) has its own Service, training-operator-metrics, carrying the same prometheus.io scrape annotations, since the training-operator Service is the WebhookServer\'s.',
  },
];
