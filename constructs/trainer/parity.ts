import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { valueDeviation } from '../../lib/parity-items';

const SERVICE = 'kubeflow-trainer-controller-manager';

/** Trainer's differences from upstream's manager overlay (v2.3.0), on purpose. */
export const TRAINER_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'kubeflow-trainer-config', item: 'controller_manager_config.yaml' },
    'sha256:0b6961851543f182b128be687a1a1616878091bf914d93a6e3fa44c820ca1802', DeviationCategory.PLATFORM_INTEGRATION,
    'the configuration leaves out the two settings upstream gives as empty strings (leaderElection.resourceNamespace and webhook.host), which the manager reads as the same zero values.'),
  {
    fact: { kind: FactKind.SERVICE_PORT, object: SERVICE, item: '8443/TCP', status: 'missing' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the secure metrics port (8443) has its own Service, kubeflow-trainer-controller-manager-metrics, since the webhook Service is the WebhookServer\'s; the manager serves metrics on its pod port whichever Service fronts it.',
  },
  {
    fact: { kind: FactKind.SERVICE_SELECTOR, object: SERVICE, item: 'app.kubernetes.io/part-of', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'the webhook Service selects the manager by all of its selector labels (part-of: kubeflow included), so that in a namespace shared with other Kubeflow components it reaches only the manager.',
  },
];
