import { PolicyRule, Rbac, ResourceRef } from '../../lib/rbac';

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
