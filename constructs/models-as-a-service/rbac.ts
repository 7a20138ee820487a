import { PolicyRule, Rbac, ResourceRef, RuntimeRole } from '../../lib/rbac';

// What maas-controller reads and manages besides the CRDs it owns (which the Controller
// derives from `owns`). Facts from upstream's maas-controller-role, cluster-config-role and
// ocp-role at v0.2.1, folded into one ClusterRole (later releases' grants, such as
// HorizontalPodAutoscalers, Loki logs and the nonroot-v2 SCC, are not modelled).

const MAAS = 'maas.opendatahub.io';
const CREATE_READ_PATCH_DELETE = ['create', 'delete', 'get', 'list', 'patch', 'watch'];

export const MAAS_CONTROLLER_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'services'),
  Rbac.read('', 'endpoints', 'pods', 'secrets'),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.verbs('', ['namespaces'], ['create', 'get', 'list', 'patch', 'watch']),
  Rbac.verbs('', ['serviceaccounts'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('', ['serviceaccounts/token'], ['create']),
  Rbac.read('apiextensions.k8s.io', 'customresourcedefinitions'),
  Rbac.manage('apps', 'deployments'),
  Rbac.verbs('apps', ['deployments/finalizers'], ['update']),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.verbs('batch', ['cronjobs'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('batch', ['jobs'], ['create', 'delete', 'get']),
  Rbac.verbs('cert-manager.io', ['certificates'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('discovery.k8s.io', ['endpointslices'], ['list', 'watch']),
  Rbac.read('dscinitialization.opendatahub.io', 'dscinitializations'),
  Rbac.verbs('extensions.kuadrant.io', ['telemetrypolicies'], CREATE_READ_PATCH_DELETE),
  Rbac.read('gateway.networking.k8s.io', 'gateways'),
  Rbac.manage('gateway.networking.k8s.io', 'httproutes'),
  Rbac.verbs('gateway.networking.k8s.io', ['httproutes/finalizers'], ['update']),
  Rbac.verbs('inference.opendatahub.io', ['externalmodels', 'externalproviders'], ['create', 'get', 'list', 'update', 'watch']),
  Rbac.verbs('inference.opendatahub.io', ['externalmodels/finalizers', 'externalproviders/finalizers'], ['update']),
  Rbac.verbs('inference.opendatahub.io', ['externalmodels/status', 'externalproviders/status'], ['get', 'patch', 'update']),
  Rbac.manage('kuadrant.io', 'authpolicies', 'tokenratelimitpolicies'),
  Rbac.verbs('kuadrant.io', ['ratelimitpolicies'], CREATE_READ_PATCH_DELETE),
  Rbac.read(MAAS, 'externalmodels'),
  Rbac.verbs(MAAS, ['externalmodels/finalizers'], ['update']),
  Rbac.verbs(MAAS, ['tenants'], ['get', 'list', 'patch', 'update', 'watch']),
  // The cluster-wide Config is a singleton named default.
  Rbac.verbs(MAAS, ['configs'], ['create', 'list', 'watch']),
  { apiGroups: [MAAS], resources: ['configs'], resourceNames: ['default'], verbs: ['delete', 'get', 'patch', 'update'] },
  { apiGroups: [MAAS], resources: ['configs/status'], resourceNames: ['default'], verbs: ['get', 'patch', 'update'] },
  { apiGroups: [MAAS], resources: ['configs/finalizers'], resourceNames: ['default'], verbs: ['update'] },
  Rbac.verbs('monitoring.coreos.com', ['podmonitors', 'servicemonitors'], CREATE_READ_PATCH_DELETE),
  Rbac.manage('networking.istio.io', 'destinationrules'),
  Rbac.verbs('networking.istio.io', ['envoyfilters'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('networking.istio.io', ['serviceentries'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.verbs('networking.k8s.io', ['networkpolicies'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('opentelemetry.io', ['opentelemetrycollectors'], CREATE_READ_PATCH_DELETE),
  Rbac.read('operator.authorino.kuadrant.io', 'authorinos'),
  Rbac.verbs('perses.dev', ['persesdashboards', 'persesdatasources'], CREATE_READ_PATCH_DELETE),
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterrolebindings', 'clusterroles'], CREATE_READ_PATCH_DELETE),
  // The AITenant controller only reads and deletes the RoleBindings it left behind.
  Rbac.verbs('rbac.authorization.k8s.io', ['rolebindings'], ['delete', 'get']),
  Rbac.manage('rbac.authorization.k8s.io', 'roles'),
  Rbac.read('serving.kserve.io', 'llminferenceservices'),
  Rbac.verbs('telemetry.istio.io', ['telemetries'], CREATE_READ_PATCH_DELETE),
  // OpenShift cluster configuration (upstream's ocp-role).
  Rbac.read('config.openshift.io', 'apiservers', 'authentications'),
];

/** Kinds it watches but does not own. */
export const MAAS_CONTROLLER_WATCHES: ResourceRef[] = [
  { group: 'serving.kserve.io', resource: 'llminferenceservices' },
  { group: 'inference.opendatahub.io', resource: 'externalmodels' },
  { group: 'inference.opendatahub.io', resource: 'externalproviders' },
  { group: MAAS, resource: 'externalmodels' },
  { group: 'gateway.networking.k8s.io', resource: 'gateways' },
  { group: 'gateway.networking.k8s.io', resource: 'httproutes' },
];

/** Users' roles: full control and read access on models, aggregated into admin, edit and view. */
export const MAAS_OWNER_RULES: PolicyRule[] = [
  Rbac.manage(MAAS, 'externalmodels', 'maasmodelrefs'),
  Rbac.manage('inference.opendatahub.io', 'externalmodels', 'externalproviders'),
];
export const MAAS_VIEWER_RULES: PolicyRule[] = [
  Rbac.read(MAAS, 'externalmodels', 'maasmodelrefs'),
  Rbac.read('inference.opendatahub.io', 'externalmodels', 'externalproviders'),
];

/**
 * The Roles the AITenant controller creates at v0.2.1 (maas-controller
 * pkg/controller/maas/aitenant_controller.go ensureTenantNamespaceRole,
 * ensureAITenantObjectRole): `aitenant-<aitenant>-tenant-admin` in the tenant's namespace and
 * `aitenant-<aitenant>-object-admin` beside the AITenant. It binds neither at v0.2.1 (it
 * only deletes RoleBindings of those names). Not declared: the ClusterRoles and
 * ClusterRoleBindings of the per-tenant manifests it renders with kustomize
 * (pkg/platform/tenantreconcile), which this component does not model.
 */
export const MAAS_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: 'aitenant-<aitenant>-tenant-admin',
    createdFor: 'per AITenant, in its tenant namespace, for the tenant\'s admins (aitenant_controller.go ensureTenantNamespaceRole)',
    rules: [
      Rbac.manage(MAAS, 'maasauthpolicies', 'maassubscriptions'),
      { apiGroups: [MAAS], resources: ['maastenantconfigs'], resourceNames: ['default-tenant'], verbs: ['get', 'patch', 'update'] },
      Rbac.read(MAAS, 'maasmodelrefs'),
    ],
  },
  {
    kind: 'Role',
    name: 'aitenant-<aitenant>-object-admin',
    createdFor: 'per AITenant, beside it, for reading that AITenant (aitenant_controller.go ensureAITenantObjectRole)',
    rules: [{ apiGroups: [MAAS], resources: ['aitenants'], resourceNames: ['<aitenant>'], verbs: ['get'] }],
  },
];
