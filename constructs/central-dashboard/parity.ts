import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

/** The central dashboard's differences from upstream's kserve overlay at kubeflow/dashboard v2.0.0, and why. */
export function centralDashboardParityDeviations(): ParityDeviation[] {
  return itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/dashboard', status: 'missing' }, [
    ...rbacItems('app.k8s.io', ['pods', 'pods/log'], ['get', 'list', 'watch']),
    ...rbacItems('', ['applications'], ['get', 'list', 'watch']),
  ], DeviationCategory.SCOPED_RBAC,
  'upstream\'s Role crosses the groups "" and app.k8s.io with applications, pods and pods/log; the pairs that exist (core pods and pods/log, app.k8s.io applications) are granted, these name no resource any API serves.');
}
