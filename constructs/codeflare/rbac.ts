import { AUTH_DELEGATOR_RULES, MANAGE_VERBS, PolicyRule, Rbac, RbacNeed, RuntimeRole } from '../../lib/rbac';

// The CodeFlare operator's manager role (ODH fork, v1.16.0 line), split by feature so that
// a platform grants only what the enabled controllers use. The cert rotator's rights come
// from the WebhookServer, scoped to its own Secret and configurations.

/** The RayCluster controller: OAuth dashboard objects, mTLS secrets, NetworkPolicies, Ingresses. */
export const CODEFLARE_RAYCLUSTER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['events'], ['create', 'patch', 'update', 'watch']),
  Rbac.manage('', 'secrets', 'serviceaccounts', 'services'),
  Rbac.manage('networking.k8s.io', 'ingresses', 'networkpolicies'),
  Rbac.manage('ray.io', 'rayclusters'),
  Rbac.verbs('ray.io', ['rayclusters/status'], ['get', 'patch', 'update']),
  Rbac.verbs('ray.io', ['rayclusters/finalizers'], ['update']),
  // Waits for the RayCluster CRD to be established before starting the controller.
  Rbac.read('apiextensions.k8s.io', 'customresourcedefinitions'),
  // Reads default-dsci for the applications namespace (NetworkPolicy peers).
  Rbac.read('dscinitialization.opendatahub.io', 'dscinitializations'),
];

/**
 * Direct client calls of the RayCluster controller (a clientset, not its cache) that no
 * watch shows, at v1.16.0 (pkg/controllers/raycluster_controller.go). Its other direct
 * calls (Apply and Get on secrets, service accounts, services, ingresses, NetworkPolicies,
 * ClusterRoleBindings) are on kinds its rules already manage.
 */
export const CODEFLARE_RAYCLUSTER_CLIENT_CALLS: RbacNeed[] = [
  { rule: Rbac.verbs('', ['pods'], ['list']), reason: 'lists pods in every namespace to find the KubeRay operator\'s namespace (NetworkPolicy peers), and a RayCluster\'s head pod' },
  { rule: Rbac.verbs('', ['pods'], ['delete']), reason: 'deletes a RayCluster\'s head pod that lacks an image pull secret of its ServiceAccount, so that it is recreated with it' },
];

/** On OpenShift: the dashboard Route behind the OAuth proxy, and the cluster's ingress domain. */
export const CODEFLARE_OPENSHIFT_RULES: PolicyRule[] = [
  Rbac.manage('route.openshift.io', 'routes', 'routes/custom-host'),
  Rbac.verbs('config.openshift.io', ['ingresses'], ['get']),
];

/** The OAuth proxy: a ClusterRoleBinding to system:auth-delegator per RayCluster, and the reviews that role grants. */
export const CODEFLARE_OAUTH_RULES: PolicyRule[] = [
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];

/**
 * With the OAuth proxy, v1.16.0 binds each RayCluster's proxy ServiceAccount to
 * system:auth-delegator, a built-in ClusterRole (pkg/controllers/raycluster_controller.go
 * desiredOAuthClusterRoleBinding, named by crbNameFromCluster).
 */
export const CODEFLARE_OAUTH_RUNTIME_ROLES: RuntimeRole[] = [{
  kind: 'ClusterRoleBinding',
  name: '<raycluster>-<namespace>-auth',
  createdFor: 'per RayCluster with the dashboard OAuth proxy, for the proxy\'s token and access reviews (raycluster_controller.go desiredOAuthClusterRoleBinding)',
  roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
  rules: AUTH_DELEGATOR_RULES,
}];

/** The embedded AppWrapper controller (besides owning AppWrappers): the kinds it wraps. */
export const CODEFLARE_APPWRAPPER_RULES: PolicyRule[] = [
  Rbac.read('', 'nodes'),
  Rbac.manage('', 'pods', 'services'),
  Rbac.manage('apps', 'deployments', 'statefulsets'),
  Rbac.manage('batch', 'jobs'),
  Rbac.manage('jobset.x-k8s.io', 'jobsets'),
  Rbac.manage('kubeflow.org', 'pytorchjobs'),
  Rbac.manage('ray.io', 'rayjobs'),
  { apiGroups: ['scheduling.sigs.k8s.io', 'scheduling.x-k8s.io'], resources: ['podgroups'], verbs: MANAGE_VERBS },
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];
