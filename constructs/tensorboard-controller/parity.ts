import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

const C = DeviationCategory;
const DEPLOYMENT = 'Deployment/tensorboard-controller-deployment';
const ALL = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
/** Those the manager's leader election uses (controller-runtime v0.11's configmapsleases lock). */
export const TENSORBOARD_LEADER_ELECTION_CONFIGMAP_VERBS = ['create', 'get', 'update'];

/** The TensorBoard controller's differences from upstream's kubeflow overlay at v1.11.0, and why. */
export function tensorboardControllerParityDeviations(o: { readonly leaderElection: boolean }): ParityDeviation[] {
  const missing = (items: string[], reason: string) => itemDeviations({ kind: FactKind.RBAC, object: DEPLOYMENT, status: 'missing' }, items, C.SCOPED_RBAC, reason);
  return [
    {
      fact: { kind: FactKind.SERVICE_SELECTOR, object: 'tensorboard-controller-controller-manager-metrics-service', item: 'control-plane', status: 'missing' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'the metrics Service selects the controller by its own labels (app, kustomize.component) only: kubebuilder\'s control-plane: controller-manager is on other operators\' pods in the shared kubeflow namespace (e.g. the PVC viewer controller\'s).',
    },
    ...(o.leaderElection
      ? missing(rbacItems('', ['configmaps'], ALL.filter((v) => !TENSORBOARD_LEADER_ELECTION_CONFIGMAP_VERBS.includes(v))),
        'leader election (controller-runtime v0.11.0, configmapsleases lock) gets, creates and updates its ConfigMap; the manager never lists, watches, patches or deletes ConfigMaps.')
      : [
        ...missing([...rbacItems('coordination.k8s.io', ['leases'], ALL), ...rbacItems('', ['configmaps'], ALL), ...rbacItems('', ['events'], ['create', 'patch'])],
          'with one replica the manager runs without --leader-elect, as upstream\'s arguments too, so it uses none of the grants of upstream\'s leader-election Role; more replicas turn leader election and its grants on.'),
      ]),
  ];
}
