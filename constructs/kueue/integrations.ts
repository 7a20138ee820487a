/**
 * Kueue's job integrations (Configuration.integrations.frameworks) at v0.19.2, as data: the
 * kind each one manages, the webhooks Kueue serves for it, the RBAC the manager needs on it
 * and the user-facing roles upstream ships for it. Facts from the inventory (webhook
 * manifests, manager role, editor/viewer roles); the table is ours.
 */
import { PolicyRule, Rbac } from '../../lib/rbac';
import { WebhookOperation } from '../../lib/webhook-server';

/** The integration names Kueue v0.19.2 accepts in integrations.frameworks. */
export const KUEUE_INTEGRATIONS = [
  'batch/job',
  'pod',
  'deployment',
  'statefulset',
  'jobset.x-k8s.io/jobset',
  'kubeflow.org/mpijob',
  'kubeflow.org/paddlejob',
  'kubeflow.org/pytorchjob',
  'kubeflow.org/tfjob',
  'kubeflow.org/xgboostjob',
  'kubeflow.org/jaxjob',
  'trainer.kubeflow.org/trainjob',
  'ray.io/rayjob',
  'ray.io/raycluster',
  'ray.io/rayservice',
  'workload.codeflare.dev/appwrapper',
  'leaderworkerset.x-k8s.io/leaderworkerset',
  'sparkoperator.k8s.io/sparkapplication',
] as const;

/** A job integration of Kueue v0.19.2. */
export type KueueIntegration = typeof KUEUE_INTEGRATIONS[number];

/** The frameworks upstream's default controller_manager_config.yaml enables. */
export const UPSTREAM_DEFAULT_INTEGRATIONS: readonly KueueIntegration[] = [
  'batch/job',
  'kubeflow.org/mpijob',
  'ray.io/rayjob',
  'ray.io/raycluster',
  'ray.io/rayservice',
  'jobset.x-k8s.io/jobset',
  'workload.codeflare.dev/appwrapper',
  'trainer.kubeflow.org/trainjob',
  'pod',
  'deployment',
  'statefulset',
  'leaderworkerset.x-k8s.io/leaderworkerset',
];

/**
 * The integrations that manage built-in Kubernetes kinds: they need no other component,
 * and are our default.
 */
export const BUILTIN_INTEGRATIONS: readonly KueueIntegration[] = ['batch/job', 'pod', 'deployment', 'statefulset'];

export interface IntegrationInfo {
  readonly name: KueueIntegration;
  /** API group ('' for core). */
  readonly group: string;
  /** The version Kueue's webhooks and controllers use. */
  readonly version: string;
  readonly kind: string;
  /** Plural resource name. */
  readonly resource: string;
  /** Whether the kind is built into Kubernetes (no component provides it). */
  readonly builtin: boolean;
  /** Operations of the mutating webhook (the validating one takes CREATE and UPDATE). */
  readonly mutateOn: WebhookOperation[];
  /** What the manager needs on the kind (its own ClusterRole). */
  readonly managerRules: PolicyRule[];
  /** Whether upstream's viewer role for the kind also aggregates into batch-user. */
  readonly viewerForBatchUser: boolean;
  /** Other integrations it needs enabled. */
  readonly dependsOn?: KueueIntegration[];
  /** Who provides the kind, in words (for errors and the report). */
  readonly providedBy: string;
}

const CU: WebhookOperation[] = ['CREATE', 'UPDATE'];
const C: WebhookOperation[] = ['CREATE'];
const RECONCILE = ['delete', 'get', 'list', 'patch', 'update', 'watch'];

/** The rules the manager needs to suspend, resume and track one job kind. */
function jobRules(group: string, resource: string, opts: { verbs?: string[]; subresources?: boolean } = {}): PolicyRule[] {
  return [
    Rbac.verbs(group, [resource], opts.verbs ?? RECONCILE),
    ...(opts.subresources ?? true
      ? [Rbac.verbs(group, [`${resource}/finalizers`], ['get', 'update']), Rbac.verbs(group, [`${resource}/status`], ['get', 'patch', 'update'])]
      : []),
  ];
}

function info(name: KueueIntegration, group: string, version: string, kind: string, rest: Partial<IntegrationInfo> & Pick<IntegrationInfo, 'providedBy'>): IntegrationInfo {
  const resource = rest.resource ?? `${kind.toLowerCase()}s`;
  return {
    name,
    group,
    version,
    kind,
    resource,
    builtin: false,
    mutateOn: C,
    managerRules: jobRules(group, resource),
    viewerForBatchUser: true,
    ...rest,
  };
}

export const INTEGRATIONS: Readonly<Record<KueueIntegration, IntegrationInfo>> = {
  'batch/job': info('batch/job', 'batch', 'v1', 'Job', {
    builtin: true,
    providedBy: 'Kubernetes',
    managerRules: [Rbac.verbs('batch', ['jobs'], RECONCILE), Rbac.verbs('batch', ['jobs/finalizers', 'jobs/status'], ['get', 'patch', 'update'])],
  }),
  // Plain pods, Deployments and StatefulSets: Kueue's pod-level rules are always granted (see rbac.ts).
  'pod': info('pod', '', 'v1', 'Pod', { builtin: true, providedBy: 'Kubernetes', managerRules: [] }),
  'deployment': info('deployment', 'apps', 'v1', 'Deployment', { builtin: true, providedBy: 'Kubernetes', mutateOn: CU, managerRules: [], dependsOn: ['pod'] }),
  'statefulset': info('statefulset', 'apps', 'v1', 'StatefulSet', { builtin: true, providedBy: 'Kubernetes', mutateOn: CU, managerRules: [], dependsOn: ['pod'] }),
  'jobset.x-k8s.io/jobset': info('jobset.x-k8s.io/jobset', 'jobset.x-k8s.io', 'v1alpha2', 'JobSet', { providedBy: 'JobSet' }),
  'kubeflow.org/mpijob': info('kubeflow.org/mpijob', 'kubeflow.org', 'v2beta1', 'MPIJob', { providedBy: 'the MPI Operator (kubeflow.org/v2beta1; not the training-operator v1 MPIJob)' }),
  'kubeflow.org/paddlejob': info('kubeflow.org/paddlejob', 'kubeflow.org', 'v1', 'PaddleJob', { providedBy: 'the Kubeflow training-operator' }),
  'kubeflow.org/pytorchjob': info('kubeflow.org/pytorchjob', 'kubeflow.org', 'v1', 'PyTorchJob', { providedBy: 'the Kubeflow training-operator' }),
  'kubeflow.org/tfjob': info('kubeflow.org/tfjob', 'kubeflow.org', 'v1', 'TFJob', { providedBy: 'the Kubeflow training-operator' }),
  'kubeflow.org/xgboostjob': info('kubeflow.org/xgboostjob', 'kubeflow.org', 'v1', 'XGBoostJob', { providedBy: 'the Kubeflow training-operator' }),
  'kubeflow.org/jaxjob': info('kubeflow.org/jaxjob', 'kubeflow.org', 'v1', 'JAXJob', {
    providedBy: 'the Kubeflow training-operator',
    // Upstream's manager role grants no delete on jaxjobs.
    managerRules: jobRules('kubeflow.org', 'jaxjobs', { verbs: ['get', 'list', 'patch', 'update', 'watch'] }),
  }),
  'trainer.kubeflow.org/trainjob': info('trainer.kubeflow.org/trainjob', 'trainer.kubeflow.org', 'v1alpha1', 'TrainJob', {
    providedBy: 'Kubeflow Trainer',
    managerRules: [
      ...jobRules('trainer.kubeflow.org', 'trainjobs', { verbs: ['get', 'list', 'patch', 'update', 'watch'] }),
      Rbac.read('trainer.kubeflow.org', 'clustertrainingruntimes', 'trainingruntimes'),
    ],
  }),
  'ray.io/rayjob': info('ray.io/rayjob', 'ray.io', 'v1', 'RayJob', { providedBy: 'KubeRay' }),
  'ray.io/raycluster': info('ray.io/raycluster', 'ray.io', 'v1', 'RayCluster', { providedBy: 'KubeRay', viewerForBatchUser: false }),
  'ray.io/rayservice': info('ray.io/rayservice', 'ray.io', 'v1', 'RayService', { providedBy: 'KubeRay', viewerForBatchUser: false }),
  'workload.codeflare.dev/appwrapper': info('workload.codeflare.dev/appwrapper', 'workload.codeflare.dev', 'v1beta2', 'AppWrapper', { providedBy: 'AppWrapper' }),
  'leaderworkerset.x-k8s.io/leaderworkerset': info('leaderworkerset.x-k8s.io/leaderworkerset', 'leaderworkerset.x-k8s.io', 'v1', 'LeaderWorkerSet', {
    providedBy: 'LeaderWorkerSet (lws)',
    mutateOn: CU,
    managerRules: [Rbac.read('leaderworkerset.x-k8s.io', 'leaderworkersets'), Rbac.verbs('leaderworkerset.x-k8s.io', ['leaderworkersets/status'], ['get', 'patch', 'update'])],
    dependsOn: ['pod'],
  }),
  'sparkoperator.k8s.io/sparkapplication': info('sparkoperator.k8s.io/sparkapplication', 'sparkoperator.k8s.io', 'v1beta2', 'SparkApplication', {
    providedBy: 'the Spark Operator',
    managerRules: jobRules('sparkoperator.k8s.io', 'sparkapplications', { subresources: false }),
  }),
};

/** The path controller-runtime serves a webhook of a kind on: /<mutate|validate>-<group with dashes>-<version>-<kind>. */
export function webhookPath(type: 'mutate' | 'validate', i: Pick<IntegrationInfo, 'group' | 'version' | 'kind'>): string {
  return `/${type}-${i.group.replace(/\./g, '-')}-${i.version}-${i.kind.toLowerCase()}`;
}
