import { AUTH_DELEGATOR_RULES, PolicyRule, Rbac, ResourceRef, RuntimeRole } from '../../lib/rbac';

// What the v0.3.8 manager reads and manages besides the ModelRegistry kind it owns (which
// the Controller derives from `owns`): facts from config/rbac/role.yaml at v0.3.8, the
// kubebuilder markers of its registry and catalog reconcilers.

export const OPERATOR_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'persistentvolumeclaims', 'secrets', 'serviceaccounts', 'services'),
  Rbac.read('', 'endpoints', 'pods', 'pods/log'),
  { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  Rbac.read('apiextensions.k8s.io', 'customresourcedefinitions'),
  Rbac.manage('apps', 'deployments'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.read('components.platform.opendatahub.io', 'modelregistries'),
  Rbac.read('config.openshift.io', 'ingresses'),
  Rbac.manage('migration.k8s.io', 'storageversionmigrations'),
  Rbac.manage('networking.k8s.io', 'networkpolicies'),
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings', 'roles'),
  Rbac.manage('route.openshift.io', 'routes', 'routes/custom-host'),
  Rbac.read('services.platform.opendatahub.io', 'auths'),
  Rbac.manage('user.openshift.io', 'groups'),
];

/**
 * The Roles and bindings v0.3.8 creates at run time (internal/controller/config/templates): it must hold
 * their rules to create them. `<registry>` is a ModelRegistry's name; the catalog's name is
 * model-catalog. Its RoleBindings bind these; its ClusterRoleBindings bind
 * system:auth-delegator for each registry's and the catalog's kube-rbac-proxy.
 */
export const OPERATOR_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: 'registry-user-<registry>',
    createdFor: 'per ModelRegistry, for the users of that registry (role.yaml.tmpl)',
    rules: [{ apiGroups: [''], resources: ['endpoints', 'services'], resourceNames: ['<registry>'], verbs: ['get'] }],
  },
  {
    kind: 'Role',
    name: 'model-catalog',
    createdFor: 'with the model catalog, for its users (catalog/catalog-role.yaml.tmpl)',
    rules: [{ apiGroups: [''], resources: ['endpoints', 'services'], resourceNames: ['model-catalog'], verbs: ['get'] }],
  },
  {
    kind: 'Role',
    name: 'model-catalog-admin',
    createdFor: 'with the model catalog, for its admins, who edit its sources (catalog/catalog-admin-role.yaml.tmpl)',
    rules: [Rbac.verbs('', ['configmaps', 'secrets'], ['get', 'list', 'patch', 'update', 'watch'])],
  },
  { kind: 'RoleBinding', name: '<registry>-users', createdFor: 'per ModelRegistry, binding its users\' Role (role-binding.yaml.tmpl)', roleRef: { kind: 'Role', name: 'registry-user-<registry>' } },
  { kind: 'RoleBinding', name: 'model-catalog-authenticated', createdFor: 'with the model catalog, binding its users\' Role (catalog/catalog-rolebinding.yaml.tmpl)', roleRef: { kind: 'Role', name: 'model-catalog' } },
  { kind: 'RoleBinding', name: 'model-catalog-admin-binding', createdFor: 'with the model catalog, binding its admins\' Role (catalog/catalog-admin-rolebinding.yaml.tmpl)', roleRef: { kind: 'Role', name: 'model-catalog-admin' } },
  ...['<registry>', 'model-catalog'].map((n): RuntimeRole => ({
    kind: 'ClusterRoleBinding',
    name: `${n}-auth-delegator`,
    createdFor: `${n === 'model-catalog' ? 'with the model catalog' : 'per ModelRegistry'}, for its kube-rbac-proxy: system:auth-delegator, a built-in ClusterRole (${n === 'model-catalog' ? 'catalog/catalog-kube-rbac-proxy-role-binding.yaml.tmpl' : 'kube-rbac-proxy/kube-rbac-proxy-role-binding.yaml.tmpl'})`,
    roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
    rules: AUTH_DELEGATOR_RULES,
  })),
];

export const OPERAND_WATCHES: ResourceRef[] = [
  { group: 'apps', resource: 'deployments' },
  { group: '', resource: 'services' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'configmaps' },
];
