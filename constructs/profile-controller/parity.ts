import { KubeflowRole } from '../../lib/aggregation';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, networkPolicyDeviation, rbacItems } from '../../lib/parity-items';

const C = DeviationCategory;
const DEPLOYMENT = 'Deployment/profiles-deployment';
const MANAGE = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export interface ProfileControllerParityOptions {
  /** The manager's arguments before the controller-runtime flags (flag names and their values). */
  readonly managerFlags: readonly string[];
  readonly accessManagement: boolean;
}

/** The profile controller's differences from upstream's kubeflow-pss overlay at v2.0.0, and why. */
export function profileControllerParityDeviations(o: ProfileControllerParityOptions): ParityDeviation[] {
  const fromConfigMap = 'upstream passes these settings as $(VAR) references to its profiles-config ConfigMap (envFrom); here the same flags and variables carry the values directly, so no ConfigMap is needed and a change rolls the pods.';
  const out: ParityDeviation[] = [
    networkPolicyDeviation('profiles-kfam', 'extra', C.PLATFORM_INTEGRATION,
      'kubeflow/dashboard v2.0.0\'s own policy for the access management service (kfam: the gateway\'s and the platform\'s namespace, on its port), which kubeflow/manifests v1.11.0\'s vendored profiles and its common/networkpolicies lack.'),
    networkPolicyDeviation('tenant-isolation', 'extra', C.HARDENING,
      'each tenant namespace gets a NetworkPolicy admitting its own pods, the gateway\'s namespace and the platform\'s (the tenant settings\' networkPolicy); upstream\'s controller creates none.'),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'profiles-config', status: 'missing' },
      category: C.PLATFORM_INTEGRATION,
      reason: fromConfigMap,
    },
    {
      fact: { kind: FactKind.COMMAND, object: `${DEPLOYMENT} container manager`, status: 'differs', upstream: '["/manager","-userid-header","$(USERID_HEADER)","-userid-prefix","$(USERID_PREFIX)","-workload-identity","$(WORKLOAD_IDENTITY)"]' },
      category: C.PLATFORM_INTEGRATION,
      reason: `the command is /manager alone and the flags follow as arguments; ${fromConfigMap}`,
    },
    ...itemDeviations({ kind: FactKind.ARG, object: `${DEPLOYMENT} container manager`, status: 'extra' }, [...new Set(o.managerFlags)], C.PLATFORM_INTEGRATION,
      `the manager's flags (main.go: -userid-header, -userid-prefix, -workload-identity, -namespace-labels-path) as arguments; ${fromConfigMap}`),
    ...itemDeviations({ kind: FactKind.ENV, object: `${DEPLOYMENT} container manager`, status: 'extra' },
      ['ISTIO_INGRESS_GATEWAY_PRINCIPAL', 'KFP_UI_PRINCIPAL', 'NOTEBOOK_CONTROLLER_PRINCIPAL'], C.PLATFORM_INTEGRATION,
      `the principals the manager reads with os.Getenv for tenants' AuthorizationPolicies; ${fromConfigMap}`),
    {
      fact: { kind: FactKind.SERVICE_SELECTOR, object: 'profiles-kfam', item: 'app', status: 'extra' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'the Service selects with the Deployment\'s own selector, which adds app: profile-controller to upstream\'s labels; the pods carry every one of them.',
    },
    // Upstream binds the manager to cluster-admin (profiles-cluster-rolebinding), which the
    // facts cannot itemize: every rule here is an extra, scoped to what the manager does.
    ...itemDeviations({ kind: FactKind.RBAC, object: DEPLOYMENT, status: 'extra' }, [
      ...rbacItems('kubeflow.org', ['profiles'], MANAGE),
      ...rbacItems('kubeflow.org', ['profiles/status'], ['get', 'patch', 'update']),
      ...rbacItems('kubeflow.org', ['profiles/finalizers'], ['update']),
      ...rbacItems('', ['namespaces', 'serviceaccounts', 'resourcequotas'], MANAGE),
      ...rbacItems('rbac.authorization.k8s.io', ['rolebindings'], MANAGE),
      ...rbacItems('security.istio.io', ['authorizationpolicies'], MANAGE),
      ...rbacItems('rbac.authorization.k8s.io', ['clusterroles'], ['bind']),
    ], C.SCOPED_RBAC, `upstream binds the manager to cluster-admin; it manages Profiles, namespaces, ServiceAccounts, ResourceQuotas, RoleBindings and AuthorizationPolicies (profile_controller.go) and binds only ${[KubeflowRole.ADMIN, KubeflowRole.EDIT, KubeflowRole.VIEW].join(', ')}, which these rules grant.`),
    ...itemDeviations({ kind: FactKind.RBAC, object: DEPLOYMENT, status: 'missing' }, rbacItems('', ['configmaps'], MANAGE), C.SCOPED_RBAC,
      'the manager\'s controller-runtime (v0.12.1) elects its leader with a Lease only; it reads no ConfigMap through the API (namespace labels come from a mounted file).'),
  ];
  if (o.accessManagement) {
    out.push(
      {
        fact: { kind: FactKind.CONTAINER, object: DEPLOYMENT, item: 'access-management', status: 'differs' },
        category: C.PLATFORM_INTEGRATION,
        reason: 'the access management sidecar is named kfam, as its Service and port (http-kfam); nothing looks the container up by name.',
      },
      {
        fact: { kind: FactKind.COMMAND, object: `${DEPLOYMENT} container access-management`, status: 'differs', upstream: '["/access-management","-cluster-admin","$(ADMIN)","-userid-header","$(USERID_HEADER)","-userid-prefix","$(USERID_PREFIX)"]' },
        category: C.PLATFORM_INTEGRATION,
        reason: `the same flags (-cluster-admin, -userid-header, -userid-prefix) with their values written in; ${fromConfigMap}`,
      },
    );
  }
  for (const container of o.accessManagement ? ['manager', 'access-management'] : ['manager']) {
    out.push({ fact: { kind: FactKind.ENV_FROM, object: `${DEPLOYMENT} container ${container}`, item: 'configMap:profiles-config', status: 'missing' }, category: C.PLATFORM_INTEGRATION, reason: fromConfigMap });
  }
  return out;
}
