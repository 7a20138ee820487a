import { TRAINER_GROUP } from './runtime-spec';
import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { embeddedObjectMeta, metav1Conditions } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { s, Schema } from '../../../lib/schema/dsl';

/** The managedBy value of Trainer's own TrainJob controller. */
export const TRAINJOB_CONTROLLER = 'trainer.kubeflow.org/trainjob-controller';
/** The managedBy value that hands a TrainJob to Kueue's MultiKueue. */
export const MULTIKUEUE_CONTROLLER = 'kueue.x-k8s.io/multikueue';

const immutable = <T extends Schema>(node: T, what: string): T => node.rule('self == oldSelf', `${what} is immutable`);

const envList = () => s.array(core('V1EnvVar'), { listType: 'map', listMapKeys: ['name'], maxItems: 128 });

/** A storage URI: a scheme (s3://, hf://, gs://, pvc://...) or an absolute path. */
const storageUri = () => s.string({ maxLength: 2048 })
  .rule("self.matches('^([A-Za-z][A-Za-z0-9+.-]*://.+|/.*)$')", 'storageUri must be a URI with a scheme (e.g. s3://bucket/path, hf://org/model) or an absolute path');

const initializer = (name: string, what: string) => s.object({
  storageUri: storageUri().describe(`Where the ${what} is downloaded from.`),
  env: envList().describe(`Environment of the ${what} initializer, merged into the runtime's.`),
  secretRef: plainCore('V1LocalObjectReference').describe(`Secret in the TrainJob's namespace with credentials for the ${what} source.`),
}).named(name);

/** A container of the runtime to patch: its environment, mounts and security context. */
const containerPatch = s.object({
  name: s.string({ minLength: 1, maxLength: 253 }).required().describe('A container the runtime template has.'),
  env: envList(),
  volumeMounts: s.array(plainCore('V1VolumeMount'), { listType: 'map', listMapKeys: ['name'], maxItems: 128 }),
  securityContext: core('V1SecurityContext'),
}).named('ContainerPatch');

const containerPatches = (what: string) => immutable(s.array(containerPatch, { listType: 'map', listMapKeys: ['name'], maxItems: 64 }), what);

/** The pod spec fields a manager (a user, Kueue, a webhook) may patch into the runtime. */
const podSpecPatch = s.object({
  serviceAccountName: immutable(s.string({ maxLength: 253 }), 'serviceAccountName'),
  volumes: immutable(s.array(core('V1Volume'), { listType: 'map', listMapKeys: ['name'], maxItems: 128 }), 'volumes'),
  initContainers: containerPatches('initContainers'),
  containers: containerPatches('containers'),
  imagePullSecrets: immutable(s.array(plainCore('V1LocalObjectReference'), { listType: 'map', listMapKeys: ['name'], maxItems: 64 }), 'imagePullSecrets'),
  securityContext: immutable(core('V1PodSecurityContext'), 'securityContext'),
  terminationGracePeriodSeconds: immutable(s.int64({ minimum: 0 }), 'terminationGracePeriodSeconds'),
  nodeSelector: s.stringMap(),
  affinity: core('V1Affinity'),
  tolerations: s.array(plainCore('V1Toleration'), { listType: 'atomic', maxItems: 128 }),
  schedulingGates: s.array(plainCore('V1PodSchedulingGate'), { listType: 'map', listMapKeys: ['name'], maxItems: 16 }),
}).named('PodSpecPatch');

const replicatedJobPatch = s.object({
  name: s.string({ minLength: 1, maxLength: 253 }).required().describe('The ReplicatedJob of the runtime to patch.'),
  template: s.object({
    metadata: embeddedObjectMeta(),
    spec: s.object({
      template: s.object({
        metadata: embeddedObjectMeta(),
        spec: podSpecPatch,
      }).named('PodTemplatePatch'),
    }).named('JobSpecPatch'),
  }).named('JobTemplatePatch'),
}).named('ReplicatedJobPatch');

/** A patch of the runtime, owned by one manager (list map keyed by manager). */
const runtimePatch = s.object({
  manager: immutable(s.string({ minLength: 1, maxLength: 253 }), 'manager').required().describe('Who owns this patch, e.g. kueue.x-k8s.io/manager.'),
  time: s.dateTime().describe('When the patch was last written.'),
  trainingRuntimeSpec: s.object({
    template: s.object({
      metadata: embeddedObjectMeta(),
      spec: s.object({
        replicatedJobs: s.array(replicatedJobPatch, { listType: 'map', listMapKeys: ['name'], maxItems: 100 }),
      }).named('JobSetSpecPatch'),
    }).named('JobSetTemplatePatch'),
  }).named('TrainingRuntimeSpecPatch'),
}).named('RuntimePatch');

const trainer = s.object({
  image: s.string({ maxLength: 500 }).describe('Image of the training container.'),
  command: s.array(s.string({ maxLength: 1048576 }), { listType: 'atomic', maxItems: 128 }),
  args: s.array(s.string({ maxLength: 1048576 }), { listType: 'atomic', maxItems: 128 }),
  env: envList().describe("Environment of the trainer, merged into the runtime's."),
  numNodes: s.int32().describe('Number of training nodes.'),
  resourcesPerNode: plainCore('V1ResourceRequirements').describe('Compute resources of each training node.'),
  numProcPerNode: s.int32().describe('Processes (or MPI slots) per node.'),
}).named('Trainer');

const spec = s.object({
  runtimeRef: immutable(s.object({
    name: s.string({ minLength: 1, maxLength: 253 }).required().describe('The runtime; a TrainingRuntime must be in the same namespace.'),
    apiGroup: s.string({ maxLength: 253 }).default(TRAINER_GROUP),
    kind: s.string({ maxLength: 253 }).default('ClusterTrainingRuntime').describe('ClusterTrainingRuntime or TrainingRuntime.'),
  }).named('RuntimeRef'), 'runtimeRef').required(),
  initializer: immutable(s.object({
    dataset: initializer('DatasetInitializer', 'dataset'),
    model: initializer('ModelInitializer', 'model'),
  }).named('Initializer'), 'initializer'),
  trainer: immutable(trainer, 'trainer'),
  runtimePatches: s.array(runtimePatch, { listType: 'map', listMapKeys: ['manager'], maxItems: 16 }),
  suspend: s.boolean().default(false),
  activeDeadlineSeconds: immutable(s.int64({ minimum: 1 }), 'activeDeadlineSeconds').describe('Seconds the TrainJob may run (reset on resume) before it fails.'),
  managedBy: immutable(
    s.string({ maxLength: 253 }).default(TRAINJOB_CONTROLLER)
      .rule(`self in ['${TRAINJOB_CONTROLLER}', '${MULTIKUEUE_CONTROLLER}']`, `managedBy must be ${TRAINJOB_CONTROLLER} or ${MULTIKUEUE_CONTROLLER}`),
    'managedBy',
  ).describe('The controller that reconciles the TrainJob.'),
}).named('TrainJobSpec');

const jobStatus = s.object({
  name: s.string({ minLength: 1, maxLength: 253 }).required(),
  ready: s.int32({ minimum: 0 }).required(),
  succeeded: s.int32({ minimum: 0 }).required(),
  failed: s.int32({ minimum: 0 }).required(),
  active: s.int32({ minimum: 0 }).required(),
  suspended: s.int32({ minimum: 0 }).required(),
}).named('JobStatus');

const trainerStatus = s.object({
  progressPercentage: s.int32({ minimum: 0, maximum: 100 }),
  estimatedRemainingSeconds: s.int32({ minimum: 0 }),
  metrics: s.array(s.object({
    name: s.string({ minLength: 1, maxLength: 64 }).required(),
    value: s.string({ minLength: 1, maxLength: 64 }).required(),
  }).named('Metric'), { listType: 'atomic', maxItems: 256 }),
  lastUpdatedTime: s.dateTime(),
}).rule('has(self.lastUpdatedTime)', 'trainerStatus needs lastUpdatedTime').named('TrainerStatus');

const RFC1035_LABEL = '^[a-z]([-a-z0-9]*[a-z0-9])?$';

const schema = s.object({
  spec,
  status: s.object({
    conditions: metav1Conditions({ maxItems: 8 }),
    jobsStatus: s.array(jobStatus, { listType: 'map', listMapKeys: ['name'], maxItems: 100 }),
    trainerStatus,
  }, { minProperties: 1 }).named('TrainJobStatus'),
})
  // The TrainJob name becomes the JobSet name and its Service names: an RFC 1035 label.
  .rule(`self.metadata.name.matches('${RFC1035_LABEL}')`, 'metadata.name must be an RFC 1035 label (lower case, starting with a letter)')
  .rule('size(self.metadata.name) <= 63', 'metadata.name must be at most 63 characters');

const printerColumns: PrinterColumn[] = [
  { name: 'State', type: 'string', jsonPath: '.status.conditions[-1:].type' },
  PrinterColumns.age(),
];

/** trainer.kubeflow.org/v1alpha1 TrainJob (Trainer v2.3.0): one training run on a runtime. */
export const trainJobCrd: CrdDefinition = {
  group: TRAINER_GROUP,
  kind: 'TrainJob',
  plural: 'trainjobs',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', storage: true, schema, subresources: { status: true }, printerColumns }],
};
