import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

const MANAGER = 'Deployment/jobset-controller-manager';
const CONFIGMAP_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** JobSet's differences from upstream's default install (v0.12.0 config/default), on purpose. */
export const JOBSET_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'nonResourceURL|/metrics|get', status: 'missing' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'upstream binds its metrics-reader ClusterRole to the manager\'s own ServiceAccount, but the manager only serves /metrics and never scrapes it; scrapers get their own binding.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, rbacItems('', ['configmaps'], CONFIGMAP_VERBS), DeviationCategory.SCOPED_RBAC,
    'the leader-election Role of upstream\'s scaffold grants ConfigMaps, but at v0.12.0 the manager locks with Leases (api/config/v1alpha1 DefaultResourceLock "leases") and reads its Configuration from a mounted file.'),
  {
    fact: { kind: FactKind.SERVICE, object: 'jobset-controller-manager-metrics-service', status: 'missing' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the secure metrics endpoint (8443) has its Service as jobset-metrics-service: the manager never looks up a Service name for metrics, and scrapers select the Service by its labels.',
  },
];
