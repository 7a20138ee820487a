import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

/** The PodDefaults webhook's differences from upstream's install at kubeflow/dashboard v2.0.0, and why. */
export function podDefaultsParityDeviations(group: string): ParityDeviation[] {
  return [
    ...itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/poddefaults-webhook-deployment', status: 'missing' },
      rbacItems(group, ['poddefaults'], ['create', 'delete', 'patch', 'update']), DeviationCategory.SCOPED_RBAC,
      'the server only lists the PodDefaults of the pod\'s namespace (main.go, crdclient.List) and never writes one; reading is granted.'),
    valueDeviation({ kind: FactKind.NETWORK_POLICY, object: 'NetworkPolicy/poddefaults' }, 'app=poddefaults (Ingress)', DeviationCategory.PLATFORM_INTEGRATION,
      'kubeflow/manifests\' poddefaults policy and kubeflow/dashboard v2.0.0\'s (which the construct emits, always) admit the same webhook port from every source; v2.0.0\'s selects the same pods by all five of their labels.'),
  ];
}
