import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations } from '../../lib/parity-items';

const MANAGER = 'Deployment/mlflow-operator-controller-manager';
const CONTAINER = `${MANAGER} container manager`;
const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
/** Upstream main, which the odh-stable image is built from (.tekton/mlflow-operator-push.yaml). */
const MAIN = 'the construct models the odh-stable build of upstream main (Konflux pushes odh-stable on every push to main), newer than 1.1.0';

const rbac = (items: string[], reason: string, status: 'extra' | 'differs' = 'extra'): ParityDeviation[] =>
  itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status }, items, DeviationCategory.NEWER_UPSTREAM_FIX, reason);

/** The MLflow operator's differences from upstream's 1.1.0 install (overlay odh), on purpose. */
export const MLFLOW_OPERATOR_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...itemDeviations({ kind: FactKind.ENV, object: CONTAINER, status: 'extra' }, ['ENABLE_MLFLOW_OPERATOR_MODULE_CONTROLLER', 'ENABLE_NAMESPACE_RBAC', 'RESOURCE_NAME_PREFIX'], DeviationCategory.NEWER_UPSTREAM_FIX,
    `${MAIN}: main's internal/config/config.go reads this setting; 1.1.0 does not read it, so it is inert there.`),
  {
    fact: { kind: FactKind.ARG, object: CONTAINER, item: '--metrics-cert-path=/etc/metrics-certs', status: 'missing' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the metrics certificate is mounted where the platform\'s certificates come from OpenShift\'s service CA; otherwise the manager serves its secure metrics with a self-signed certificate (empty --metrics-cert-path, the default).',
  },
  {
    fact: { kind: FactKind.MOUNT, object: CONTAINER, item: '/etc/metrics-certs', status: 'missing' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the metrics certificate is mounted where the platform\'s certificates come from OpenShift\'s service CA; otherwise the manager serves its secure metrics with a self-signed certificate (empty --metrics-cert-path, the default).',
  },
  {
    fact: { kind: FactKind.CONFIGMAP, object: 'mlflow-operator-operator-params', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'params.env only feeds kustomize replacements (config/base/kustomization.yaml: the manager\'s env values); no code reads it from the cluster, and the construct sets those env values directly.',
  },
  ...rbac(['batch|cronjobs', 'batch|jobs'].flatMap((r) => VERBS.map((v) => `${r}|${v}`)).concat(['|pods|get', '|pods|list', '|pods|watch']),
    `${MAIN}: main's config/rbac/namespace_role.yaml grants these in the operator's namespace for the MLflow server's migration Job and garbage-collection CronJob.`),
  ...rbac([
    'components.platform.opendatahub.io|mlflowoperators|get', 'components.platform.opendatahub.io|mlflowoperators|list', 'components.platform.opendatahub.io|mlflowoperators|patch',
    'components.platform.opendatahub.io|mlflowoperators|update', 'components.platform.opendatahub.io|mlflowoperators|watch',
    'components.platform.opendatahub.io|mlflowoperators/status|get', 'components.platform.opendatahub.io|mlflowoperators/status|patch', 'components.platform.opendatahub.io|mlflowoperators/status|update',
    'components.platform.opendatahub.io|mlflowoperators/finalizers|update',
  ], `${MAIN}: main's module controller (internal/controller/mlflowoperator_controller.go, on with ENABLE_MLFLOW_OPERATOR_MODULE_CONTROLLER) reconciles MLflowOperator.`),
  ...rbac([
    'rbac.authorization.k8s.io|clusterroles|bind', ...VERBS.map((v) => `rbac.authorization.k8s.io|rolebindings|${v}`),
    'services.platform.opendatahub.io|auths|get', 'services.platform.opendatahub.io|auths|list', 'services.platform.opendatahub.io|auths|watch',
  ], `${MAIN}: main's namespace RBAC controller (internal/controller/namespace_rbac_controller.go) binds the edit and view roles to the platform's groups, read from the Auth object; its grants are limited to those names.`),
  ...rbac(['clusterrolebindings', 'clusterroles'].flatMap((r) => ['delete', 'get', 'list', 'patch', 'update', 'watch'].map((v) => `rbac.authorization.k8s.io|${r}|${v}`)),
    'the operator manages only its ClusterRoles and ClusterRoleBindings named mlflow and mlflow-gc (main\'s kubebuilder markers name them): grants limited to those names, where 1.1.0 grants every name.', 'differs'),
];
