import { PolicyRule, Rbac } from '../../lib/rbac';

const G = 'trainer.kubeflow.org';

/**
 * What the Trainer controller manager needs besides the three trainer.kubeflow.org kinds
 * it owns (upstream's kubeflow-trainer-controller-manager ClusterRole). Leases are granted
 * by the Controller in its own namespace only; upstream's cluster-wide get/update on webhook
 * configurations serves the certificate rotator, which the WebhookServer grants scoped to
 * our two configurations. Secrets: the MPI plugin creates each TrainJob's SSH key Secret.
 */
export const TRAINER_MANAGER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps', 'secrets'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.read('', 'limitranges'),
  Rbac.verbs('', ['events'], ['create', 'patch', 'update', 'watch']),
  Rbac.verbs('events.k8s.io', ['events'], ['create', 'patch', 'update', 'watch']),
  Rbac.manage('jobset.x-k8s.io', 'jobsets'),
  Rbac.read('node.k8s.io', 'runtimeclasses'),
  // Gang scheduling: PodGroups of scheduler-plugins (coscheduling) or Volcano, when a
  // runtime sets podGroupPolicy.
  Rbac.verbs('scheduling.x-k8s.io', ['podgroups'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('scheduling.volcano.sh', ['podgroups'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
];

/**
 * What the manager does on Trainer's own kinds (v2.3.0's kubebuilder markers): it reads and
 * updates TrainJobs and runtimes, adds its finalizers to them and writes TrainJob status;
 * users create and delete them.
 */
export const TRAINER_OWN_KIND_RULES: PolicyRule[] = [
  Rbac.verbs(G, ['clustertrainingruntimes', 'trainingruntimes', 'trainjobs'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs(G, ['clustertrainingruntimes/finalizers', 'trainingruntimes/finalizers', 'trainjobs/finalizers', 'trainjobs/status'], ['get', 'patch', 'update']),
];

/** Users' roles, aggregated into Kubeflow's kubeflow-admin/edit/view (upstream's kubeflow-platform overlay). */
export const TRAINER_USER_ROLES: Array<{ name: string; labels: Record<string, string>; rules: PolicyRule[]; aggregateFrom?: string }> = [
  {
    name: 'kubeflow-trainer-admin',
    labels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-admin': 'true' },
    rules: [],
    aggregateFrom: 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-trainer-admin',
  },
  {
    name: 'kubeflow-trainer-edit',
    labels: {
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true',
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-trainer-admin': 'true',
    },
    rules: [
      Rbac.read(G, 'trainingruntimes'),
      Rbac.verbs(G, ['trainjobs'], ['create', 'delete', 'get', 'list', 'patch', 'watch']),
      Rbac.read('', 'events', 'pods', 'pods/log'),
    ],
  },
  {
    name: 'kubeflow-trainer-view',
    labels: {
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true',
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-trainer-view': 'true',
    },
    rules: [Rbac.read(G, 'trainingruntimes', 'trainjobs')],
  },
];

/** Every authenticated user may list the cluster's runtimes (bound to system:authenticated). */
export const VIEW_CLUSTER_RUNTIMES_RULES: PolicyRule[] = [Rbac.read(G, 'clustertrainingruntimes')];
