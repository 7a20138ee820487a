import { TrainerImageKey } from './versions';
import { ClusterTrainingRuntimeSpec, ReplicatedJob } from '../../imports/trainer.kubeflow.org';

/** The label that tells the Trainer which runtime Job runs the trainer step. */
export const ANCESTOR_STEP_LABEL = 'trainer.kubeflow.org/trainjob-ancestor-step';
/** The label naming a runtime's framework (read by the Kubeflow SDK). */
export const FRAMEWORK_LABEL = 'trainer.kubeflow.org/framework';
/** Object label that exempts a runtime from the validating webhook. */
export const WEBHOOK_VALIDATION_LABEL = 'trainer.kubeflow.org/webhook-validation';

/** The ClusterTrainingRuntimes Trainer v2.3.0 installs by default, by name. */
export type DefaultTrainingRuntimeName =
  | 'torch-distributed'
  | 'deepspeed-distributed'
  | 'mlx-distributed'
  | 'jax-distributed'
  | 'xgboost-distributed';

export interface DefaultTrainingRuntime {
  readonly name: DefaultTrainingRuntimeName;
  /** Value of the trainer.kubeflow.org/framework label. */
  readonly framework: string;
  /** The image of its containers, from the versions table. */
  readonly imageKey: TrainerImageKey;
  /** Extra labels upstream sets on the runtime. */
  readonly labels?: Record<string, string>;
  /** The spec, given the resolved image. */
  readonly spec: (image: string) => ClusterTrainingRuntimeSpec;
}

/** A runtime with one ReplicatedJob, `node`, that runs the trainer step. */
function singleNode(image: string, mlPolicy: ClusterTrainingRuntimeSpec['mlPolicy']): ClusterTrainingRuntimeSpec {
  return {
    mlPolicy,
    template: {
      spec: {
        replicatedJobs: [{
          name: 'node',
          template: {
            metadata: { labels: { [ANCESTOR_STEP_LABEL]: 'trainer' } },
            spec: { template: { spec: { containers: [{ name: 'node', image }] } } },
          },
        }],
      },
    },
  };
}

/**
 * An MPI runtime (DeepSpeed, MLX): `node` Jobs run sshd as user 1000 and become ready on
 * port 2222; the `launcher` Job, once the nodes are ready, runs the trainer step and also
 * counts as a node (runLauncherAsNode). The JobSet succeeds when the launcher does.
 */
function mpiRuntime(image: string, opts: { fsGroup?: number; runAsGroup?: number }): ClusterTrainingRuntimeSpec {
  const podSecurity = opts.fsGroup !== undefined ? { securityContext: { fsGroup: opts.fsGroup } } : {};
  const containerSecurity = { runAsUser: 1000, ...(opts.runAsGroup !== undefined ? { runAsGroup: opts.runAsGroup } : {}) };
  const node: ReplicatedJob = {
    name: 'node',
    template: {
      spec: {
        template: {
          spec: {
            ...podSecurity,
            containers: [{
              name: 'node',
              image,
              securityContext: containerSecurity,
              command: ['/usr/sbin/sshd'],
              args: ['-De', '-f', '/home/mpiuser/.sshd_config'],
              readinessProbe: { tcpSocket: { port: 2222 }, initialDelaySeconds: 5 },
            }],
          },
        },
      },
    },
  };
  const launcher: ReplicatedJob = {
    name: 'launcher',
    dependsOn: [{ name: 'node', status: 'Ready' }],
    template: {
      metadata: { labels: { [ANCESTOR_STEP_LABEL]: 'trainer' } },
      spec: { template: { spec: { ...podSecurity, containers: [{ name: 'node', image, securityContext: containerSecurity }] } } },
    },
  };
  return {
    mlPolicy: {
      numNodes: 1,
      mpi: { numProcPerNode: 1, mpiImplementation: 'OpenMPI', sshAuthMountPath: '/home/mpiuser/.ssh', runLauncherAsNode: true },
    },
    template: {
      spec: {
        network: { publishNotReadyAddresses: true },
        successPolicy: { operator: 'All', targetReplicatedJobs: ['launcher'] },
        replicatedJobs: [node, launcher],
      },
    },
  };
}

/**
 * The default ClusterTrainingRuntimes. Upstream's torch runtime carries a diagnostic
 * shell command that only prints the environment; it is not reproduced: a TrainJob on
 * torch-distributed sets `trainer.command`. Not modelled here: the torchtune fine-tuning
 * runtimes (their v2.3.0 contents are not confirmed).
 */
export const DEFAULT_CLUSTER_TRAINING_RUNTIMES: readonly DefaultTrainingRuntime[] = [
  {
    name: 'torch-distributed',
    framework: 'torch',
    imageKey: 'torchRuntime',
    spec: (image) => singleNode(image, { numNodes: 1, torch: {} }),
  },
  {
    name: 'deepspeed-distributed',
    framework: 'deepspeed',
    imageKey: 'deepspeedRuntime',
    spec: (image) => mpiRuntime(image, { fsGroup: 1000, runAsGroup: 1000 }),
  },
  {
    name: 'mlx-distributed',
    framework: 'mlx',
    imageKey: 'mlxRuntime',
    spec: (image) => mpiRuntime(image, {}),
  },
  {
    name: 'jax-distributed',
    framework: 'jax',
    imageKey: 'jaxRuntime',
    labels: { [WEBHOOK_VALIDATION_LABEL]: 'disabled' },
    spec: (image) => singleNode(image, { numNodes: 1, jax: {} }),
  },
  {
    name: 'xgboost-distributed',
    framework: 'xgboost',
    imageKey: 'xgboostRuntime',
    spec: (image) => singleNode(image, { numNodes: 1, xgboost: {} }),
  },
];

export const DEFAULT_TRAINING_RUNTIME_NAMES: readonly DefaultTrainingRuntimeName[] = DEFAULT_CLUSTER_TRAINING_RUNTIMES.map((r) => r.name);
