import { PolicyRule, Rbac, ResourceRef } from '../../lib/rbac';

// What each manager reads and manages besides the CRDs it owns (which the Controller derives
// from `owns`). Facts from upstream's generated roles; the OpenShift TLS-profile reader role
// each manager is also bound to is folded in.

const OPERANDS: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'persistentvolumeclaims', 'secrets', 'serviceaccounts', 'services'),
  Rbac.read('', 'endpoints', 'pods', 'pods/log'),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.verbs('events.k8s.io', ['events'], ['create', 'patch']),
  Rbac.manage('apps', 'deployments'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.manage('gateway.networking.k8s.io', 'httproutes'),
  Rbac.verbs('gateway.networking.k8s.io', ['referencegrants'], ['create', 'get', 'list', 'watch']),
  Rbac.manage('networking.k8s.io', 'networkpolicies'),
  Rbac.manage('route.openshift.io', 'routes', 'routes/custom-host'),
  Rbac.read('services.platform.opendatahub.io', 'auths'),
  Rbac.read('config.openshift.io', 'apiservers', 'ingresses'),
];

export const OPERATOR_RULES: PolicyRule[] = [
  ...OPERANDS,
  Rbac.read('apiextensions.k8s.io', 'customresourcedefinitions'),
  Rbac.read('components.platform.opendatahub.io', 'modelregistries'),
  Rbac.manage('migration.k8s.io', 'storageversionmigrations'),
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings', 'roles'),
  Rbac.verbs('user.openshift.io', ['groups'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
];

export const CATALOG_RULES: PolicyRule[] = [
  ...OPERANDS,
  Rbac.read('apiextensions.k8s.io', 'customresourcedefinitions'),
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterrolebindings', 'rolebindings', 'roles'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
];

const INSTALL = ['create', 'get', 'list', 'patch', 'update', 'watch'];
export const AIHUB_RULES: PolicyRule[] = [
  ...OPERANDS,
  // The module installs the operator and the catalog itself: CRDs, webhooks, roles.
  Rbac.verbs('apiextensions.k8s.io', ['customresourcedefinitions'], INSTALL),
  Rbac.verbs('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], INSTALL),
  Rbac.verbs('monitoring.coreos.com', ['servicemonitors'], INSTALL),
  Rbac.verbs('template.openshift.io', ['templates'], INSTALL),
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterroles'], INSTALL),
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings', 'roles'),
  Rbac.verbs('', ['namespaces'], ['create', 'get', 'list', 'watch']),
  Rbac.manage('coordination.k8s.io', 'leases'),
  Rbac.read('components.platform.opendatahub.io', 'modelregistries'),
  Rbac.manage('migration.k8s.io', 'storageversionmigrations'),
  Rbac.verbs('user.openshift.io', ['groups'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  { nonResourceURLs: ['/metrics'], verbs: ['get'] },
];

export const OPERAND_WATCHES: ResourceRef[] = [
  { group: 'apps', resource: 'deployments' },
  { group: '', resource: 'services' },
  { group: '', resource: 'secrets' },
  { group: '', resource: 'configmaps' },
];
