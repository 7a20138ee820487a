import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

const C = DeviationCategory;
const DEPLOYMENT = 'Deployment/notebook-controller-deployment';
/** The configmaps verbs upstream's leader-election Role grants. */
const CONFIGMAP_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
/** Those the manager's leader election uses (controller-runtime v0.11's configmapsleases lock). */
export const NOTEBOOK_LEADER_ELECTION_CONFIGMAP_VERBS = ['create', 'get', 'update'];

/** The notebook controller's differences from upstream's kubeflow overlay at v1.11.0, and why. */
export function notebookControllerParityDeviations(o: { readonly leaderElection: boolean; readonly istio: boolean }): ParityDeviation[] {
  const missing = (items: string[], category: DeviationCategory, reason: string) =>
    itemDeviations({ kind: FactKind.RBAC, object: DEPLOYMENT, status: 'missing' }, items, category, reason);
  return [
    {
      fact: { kind: FactKind.CONTAINER, object: DEPLOYMENT, item: 'kube-rbac-proxy', status: 'extra' },
      category: C.HARDENING,
      reason: 'the manager serves metrics over plain HTTP only; kube-rbac-proxy (upstream\'s auth-proxy variant) serves them over TLS to authorized callers.',
    },
    {
      fact: { kind: FactKind.ARG, object: `${DEPLOYMENT} container manager`, item: '--metrics-addr=127.0.0.1:8080', status: 'extra' },
      category: C.HARDENING,
      reason: 'the manager binds its plain-HTTP metrics to localhost, reachable only through kube-rbac-proxy in the same pod.',
    },
    {
      fact: { kind: FactKind.ARG, object: `${DEPLOYMENT} container manager`, item: '--probe-addr=:8081', status: 'extra' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'states the manager\'s default health address (main.go: :8081) that the probes and the health port name.',
    },
    {
      fact: { kind: FactKind.SERVICE, object: 'notebook-controller-service', status: 'missing' },
      category: C.NOT_INSTALLED,
      reason: 'upstream\'s Service sends port 443 to the pod, where the manager at v1.11.0 serves nothing (no webhook; metrics on 8080, health on 8081); metrics have their own Service here.',
    },
    ...missing([
      ...rbacItems('kubeflow.org', ['notebooks/finalizers'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'watch']),
      ...rbacItems('kubeflow.org', ['notebooks/status'], ['create', 'delete', 'deletecollection', 'list', 'watch']),
      ...rbacItems('kubeflow.org', ['notebooks'], ['deletecollection']),
      ...rbacItems('apps', ['statefulsets'], ['deletecollection']),
      ...rbacItems('', ['services'], ['deletecollection']),
      ...(o.istio ? rbacItems('networking.istio.io', ['virtualservices'], ['deletecollection']) : []),
      // ConfigMaps have no status subresource.
      ...rbacItems('', ['configmaps/status'], ['get', 'patch', 'update']),
    ], C.SCOPED_RBAC, 'the manager writes Notebook status with get, patch and update, needs only update on finalizers (owner references that block deletion), and deletes objects one by one, never by collection.'),
    ...(o.istio ? [] : missing(rbacItems('networking.istio.io', ['virtualservices'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']), C.NOT_INSTALLED,
      'istio is off: the manager (USE_ISTIO=false) creates no VirtualServices.')),
    ...missing(
      rbacItems('', ['configmaps'], o.leaderElection ? CONFIGMAP_VERBS.filter((v) => !NOTEBOOK_LEADER_ELECTION_CONFIGMAP_VERBS.includes(v)) : CONFIGMAP_VERBS),
      C.SCOPED_RBAC,
      o.leaderElection
        ? 'leader election (controller-runtime v0.11.0, configmapsleases lock) gets, creates and updates its ConfigMap; the manager never lists, watches, patches or deletes ConfigMaps.'
        : 'the manager reads no ConfigMap (its settings arrive as environment variables); upstream\'s ConfigMap rules serve leader election, off with one replica.',
    ),
  ];
}
