import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, networkPolicyDeviation, rbacItems, valueDeviation } from '../../lib/parity-items';

/** The central dashboard's differences from upstream's kserve overlay at kubeflow/dashboard v2.0.0, and why. */
export function centralDashboardParityDeviations(): ParityDeviation[] {
  const links = valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'dashboard-config', item: 'links' }, 'sha256:27866bb4798b0b027058a06c3af05857757a9a3fa375e6babef019a1baf9db6f',
    DeviationCategory.PLATFORM_INTEGRATION, 'the menu and documentation links are generated from the components present in the platform (each declares its links), where upstream lists every Kubeflow component.');
  const policy = [
    networkPolicyDeviation('centraldashboard', 'missing', DeviationCategory.PLATFORM_INTEGRATION,
      'kubeflow/manifests\' policy for the dashboard (app=centraldashboard, the label of its vendored copy) is the policy kubeflow/dashboard v2.0.0 ships as `dashboard`, which the construct emits: the same sources (the gateway\'s namespace and the namespace\'s own pods) over the v2.0.0 pods\' labels.'),
    networkPolicyDeviation('dashboard', 'extra', DeviationCategory.PLATFORM_INTEGRATION,
      'kubeflow/dashboard v2.0.0\'s policy for the dashboard, in place of kubeflow/manifests\' centraldashboard (same sources).'),
  ];
  return [links, ...policy, ...itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/dashboard', status: 'missing' }, [
    ...rbacItems('app.k8s.io', ['pods', 'pods/log'], ['get', 'list', 'watch']),
    ...rbacItems('', ['applications'], ['get', 'list', 'watch']),
  ], DeviationCategory.SCOPED_RBAC,
  'upstream\'s Role crosses the groups "" and app.k8s.io with applications, pods and pods/log; the pairs that exist (core pods and pods/log, app.k8s.io applications) are granted, these name no resource any API serves.')];
}
