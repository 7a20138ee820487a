import { embeddedObjectMeta } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';
import { jobSetSpec } from '../../jobset/crds/jobset';

export const TRAINER_GROUP = 'trainer.kubeflow.org';

/** Which containers of which Job receive the torch distributed environment. */
const envInjectionTarget = s.object({
  jobName: s.string({ minLength: 1, maxLength: 253 }).required().describe('The ReplicatedJob whose containers receive the environment.'),
  containerNames: s.array(s.string({ maxLength: 63 }), { listType: 'set', minItems: 1, maxItems: 8 })
    .rule("!self.exists(c, c == 'node')", 'containerNames must not include the node container: it always receives the environment')
    .required()
    .describe('Containers of that Job that receive the environment.'),
}).named('EnvInjectionTarget');

const POLICY_SOURCES = ['torch', 'mpi', 'flux', 'jax', 'xgboost'];

/** MLPolicy: the framework of a runtime and its parameters. One framework at most. */
export const mlPolicy = s.object({
  numNodes: s.int32().describe('Number of training nodes (default 1).'),
  torch: s.object({
    envInjection: s.object({
      targets: s.array(envInjectionTarget, { listType: 'map', listMapKeys: ['jobName'], maxItems: 16 }),
    }).named('TorchEnvInjection').describe('Extra Jobs and containers that receive the torchrun environment.'),
  }).named('TorchMLPolicySource').describe('PyTorch distributed (torchrun).'),
  mpi: s.object({
    numProcPerNode: s.int32().default(1).describe('Slots per node in the hostfile.'),
    mpiImplementation: s.enum('OpenMPI', '').default('OpenMPI').describe('MPI implementation the hostfile is written for.'),
    sshAuthMountPath: s.string({ maxLength: 4096 }).default('/root/.ssh').describe('Where the SSH keys are mounted.'),
    runLauncherAsNode: s.boolean().default(false).describe('Whether the launcher also runs a training process.'),
  }).named('MPIMLPolicySource').describe('MPI (launcher and nodes).'),
  flux: s.object({
    numProcPerNode: s.int32().default(1).rule('self > 0', 'flux numProcPerNode must be a positive number of processes')
      .describe('Processes per node.'),
  }).named('FluxMLPolicySource').describe('Flux framework (HPC).'),
  jax: s.object().named('JAXMLPolicySource').describe('JAX distributed.'),
  xgboost: s.object().named('XGBoostMLPolicySource').describe('XGBoost distributed (Rabit/collective).'),
}).rule(
  `size([${POLICY_SOURCES.map((p) => `has(self.${p})`).join(', ')}].filter(x, x)) <= 1`,
  `mlPolicy takes at most one of ${POLICY_SOURCES.join(', ')}`,
).named('MLPolicy');

/** PodGroupPolicy: gang scheduling through scheduler-plugins coscheduling or Volcano. */
export const podGroupPolicy = s.object({
  coscheduling: s.object({
    scheduleTimeoutSeconds: s.int32().default(60).describe('How long the gang may wait to be scheduled.'),
  }).named('CoschedulingPodGroupPolicySource'),
  volcano: s.object({
    networkTopology: s.object({
      mode: s.enum('hard', 'soft').default('hard').describe('Whether the topology constraint is hard or best effort.'),
      highestTierAllowed: s.integer().default(1).describe('Highest network tier the gang may span.'),
    }).named('VolcanoNetworkTopology'),
  }).named('VolcanoPodGroupPolicySource'),
}).named('PodGroupPolicy');

/**
 * TrainingRuntimeSpec, shared by TrainingRuntime and ClusterTrainingRuntime: the ML
 * policy, the gang scheduling policy and the JobSet template (JobSet's own spec).
 */
export const trainingRuntimeSpec = s.object({
  mlPolicy,
  podGroupPolicy,
  template: s.object({
    metadata: embeddedObjectMeta(),
    spec: jobSetSpec,
  }, { minProperties: 1 }).named('JobSetTemplateSpec').describe('The JobSet every TrainJob of this runtime starts from.'),
}, { minProperties: 1 }).named('TrainingRuntimeSpec');

/** The object schema of both runtime kinds (no status). */
export const trainingRuntimeSchema = s.object({ spec: trainingRuntimeSpec });
