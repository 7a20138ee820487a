import { AUTH_DELEGATOR_RULES, PolicyRule, Rbac, ResourceRef, RuntimeRole } from '../../lib/rbac';

// What odh-model-controller reads and manages besides the Account CRD it owns (which the
// Controller derives from `owns`). Facts from upstream's generated role.

const KSERVE = 'serving.kserve.io';

export const ODH_MODEL_CONTROLLER_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'secrets', 'serviceaccounts', 'services'),
  Rbac.verbs('', ['endpoints', 'namespaces', 'pods'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.read('config.openshift.io', 'authentications'),
  Rbac.read('datasciencecluster.opendatahub.io', 'datascienceclusters'),
  Rbac.read('dscinitialization.opendatahub.io', 'dscinitializations'),
  Rbac.read('extensions', 'ingresses'),
  Rbac.read('networking.k8s.io', 'ingresses'),
  Rbac.manage('networking.k8s.io', 'networkpolicies'),
  Rbac.verbs('gateway.networking.k8s.io', ['gateways'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('gateway.networking.k8s.io', ['gateways/finalizers'], ['patch', 'update']),
  Rbac.read('gateway.networking.k8s.io', 'httproutes'),
  Rbac.manage('keda.sh', 'triggerauthentications'),
  Rbac.manage('kuadrant.io', 'authpolicies'),
  Rbac.verbs('kuadrant.io', ['authpolicies/status'], ['get', 'patch', 'update']),
  Rbac.read('kuadrant.io', 'kuadrants'),
  Rbac.read('metrics.k8s.io', 'nodes', 'pods'),
  Rbac.manage('monitoring.coreos.com', 'podmonitors', 'servicemonitors'),
  Rbac.manage('networking.istio.io', 'envoyfilters'),
  Rbac.read('operator.authorino.kuadrant.io', 'authorinos'),
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings', 'roles'),
  Rbac.manage('route.openshift.io', 'routes'),
  Rbac.verbs('route.openshift.io', ['routes/custom-host'], ['create']),
  Rbac.read(KSERVE, 'inferencegraphs', 'llminferenceserviceconfigs'),
  Rbac.verbs(KSERVE, ['inferencegraphs/finalizers', 'servingruntimes/finalizers'], ['update']),
  Rbac.verbs(KSERVE, ['inferenceservices'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs(KSERVE, ['inferenceservices/finalizers'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
  // Upstream also lists a non-standard verb 'post' here, which no API request uses.
  Rbac.verbs(KSERVE, ['llminferenceservices'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs(KSERVE, ['llminferenceservices/finalizers'], ['patch', 'update']),
  Rbac.verbs(KSERVE, ['llminferenceservices/status'], ['get', 'patch', 'update']),
  Rbac.verbs(KSERVE, ['servingruntimes'], ['create', 'get', 'list', 'update', 'watch']),
  Rbac.manage('template.openshift.io', 'templates'),
  // The secure metrics and webhook authentication of the manager (upstream's proxy-role).
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];

/** The KServe kinds it reconciles, and the core objects it watches. */
export const ODH_MODEL_CONTROLLER_WATCHES: ResourceRef[] = [
  { group: KSERVE, resource: 'inferenceservices' },
  { group: KSERVE, resource: 'inferencegraphs' },
  { group: KSERVE, resource: 'llminferenceservices' },
  { group: KSERVE, resource: 'llminferenceserviceconfigs' },
  { group: KSERVE, resource: 'servingruntimes' },
  { group: '', resource: 'pods' },
  { group: '', resource: 'configmaps' },
  { group: '', resource: 'secrets' },
  { group: 'gateway.networking.k8s.io', resource: 'gateways' },
];

/** The model-serving-api server: lists gateways, reads namespaces. */
export const MODEL_SERVING_API_RULES: PolicyRule[] = [
  Rbac.verbs('gateway.networking.k8s.io', ['gateways'], ['list']),
  Rbac.verbs('', ['namespaces'], ['get']),
];

/**
 * What the controller creates at odh-v3.5-EA2 in an InferenceService's namespace: for KEDA
 * autoscaling on Prometheus metrics (serving/reconcilers/kserve_keda_reconciler.go) a Role
 * and RoleBinding inference-prometheus-auth for the metrics reader, and for an
 * InferenceService with auth on a raw deployment a ClusterRoleBinding of its ServiceAccount
 * to system:auth-delegator (kserve_raw_clusterrolebinding_reconciler.go). Not declared: the
 * prometheus-ns-access RoleBinding it makes only when a monitoring namespace is configured
 * (servingruntime_controller.go), to a ClusterRole that Open Data Hub's operator ships and
 * no component here emits.
 */
export const ODH_MODEL_CONTROLLER_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: 'inference-prometheus-auth',
    createdFor: 'per InferenceService autoscaled by KEDA on Prometheus metrics (kserve_keda_reconciler.go expectedRole)',
    rules: [Rbac.verbs('', ['pods'], ['get']), Rbac.read('metrics.k8s.io', 'nodes', 'pods')],
  },
  {
    kind: 'RoleBinding',
    name: 'inference-prometheus-auth',
    createdFor: 'per InferenceService autoscaled by KEDA, binding the metrics reader\'s ServiceAccount (kserve_keda_reconciler.go expectedRoleBinding)',
    roleRef: { kind: 'Role', name: 'inference-prometheus-auth' },
  },
  {
    kind: 'ClusterRoleBinding',
    name: '<namespace>-<serviceaccount>-auth-delegator',
    createdFor: 'per ServiceAccount of raw-deployment InferenceServices with auth, for their kube-rbac-proxy: system:auth-delegator, a built-in ClusterRole (resources/clusterrolebinding.go)',
    roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
    rules: AUTH_DELEGATOR_RULES,
  },
];
