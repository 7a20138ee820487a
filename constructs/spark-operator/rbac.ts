import { PolicyRule, Rbac } from '../../lib/rbac';

/**
 * What the controller does beyond reconciling the three Spark kinds: it submits drivers,
 * creates their UI Service and Ingress and the ConfigMaps that carry Spark configuration
 * (upstream's spark-operator-controller ClusterRole at v2.5.2).
 */
export const CONTROLLER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.manage('', 'services'),
  Rbac.verbs('', ['configmaps'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch', 'update']),
  Rbac.verbs('extensions', ['ingresses'], ['create', 'delete', 'get', 'update']),
  Rbac.verbs('networking.k8s.io', ['ingresses'], ['create', 'delete', 'get', 'update']),
  // The controller reads the CRDs to find out which versions the cluster serves.
  Rbac.verbs('apiextensions.k8s.io', ['customresourcedefinitions'], ['get']),
  // Its own kinds, as v2.5.2's kubebuilder markers (and the chart): it reads them, creates
  // and deletes the SparkApplications a ScheduledSparkApplication runs, and writes status
  // and finalizers through those subresources only.
  Rbac.verbs('sparkoperator.k8s.io', ['sparkapplications'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.read('sparkoperator.k8s.io', 'scheduledsparkapplications', 'sparkconnects'),
  Rbac.verbs('sparkoperator.k8s.io', ['sparkapplications/status', 'scheduledsparkapplications/status', 'sparkconnects/status'], ['update']),
  Rbac.verbs('sparkoperator.k8s.io', ['sparkapplications/finalizers', 'scheduledsparkapplications/finalizers', 'sparkconnects/finalizers'], ['update']),
];

/**
 * What the webhook reads to default and validate: pods (executor limits), resource quotas
 * (quota enforcement), and the applications it checks.
 */
export const WEBHOOK_RULES: PolicyRule[] = [
  Rbac.verbs('', ['resourcequotas'], ['list']),
  Rbac.verbs('', ['pods'], ['list', 'watch']),
  Rbac.read('sparkoperator.k8s.io', 'sparkapplications', 'scheduledsparkapplications'),
];

/** Events in its own namespace, next to the leader election lease (both workloads). */
export const NAMESPACED_EVENT_RULES: PolicyRule[] = [Rbac.verbs('', ['events'], ['create', 'patch', 'update'])];

/** What Spark drivers need in a job namespace: they create and clean up their executors. */
export const SPARK_DRIVER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods', 'configmaps', 'persistentvolumeclaims', 'services'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']),
];
