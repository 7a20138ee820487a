import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/**
 * The pod-level fields of ServingRuntimePodSpec, shared by the runtime and its workers.
 * KServe's generated CRD spells some core types out field by field (Toleration,
 * LocalObjectReference, PodResourceClaim), so those are plain core types, without the core
 * marker. imagePullSecrets entries are LocalObjectReferences: atomic, name defaults to "".
 */
const podFields = {
  containers: s.array(core('V1Container')).required(),
  volumes: s.array(core('V1Volume')),
  nodeSelector: s.stringMap(),
  affinity: core('V1Affinity'),
  tolerations: s.array(plainCore('V1Toleration')),
  labels: s.stringMap(),
  annotations: s.stringMap(),
  imagePullSecrets: s.array(plainCore('V1LocalObjectReference')),
  schedulerName: s.string(),
  hostIPC: s.boolean(),
  resourceClaims: s.array(plainCore('V1PodResourceClaim'), { listType: 'map', listMapKeys: ['name'] }),
};

/** A model format a runtime can serve. */
export const supportedModelFormat = s.object({
  name: s.string().required().describe('Name of the model format, e.g. sklearn or onnx.'),
  version: s.string().describe('Version of the model format; a major version alone matches any minor.'),
  autoSelect: s.boolean().describe('Whether this runtime may be picked automatically for this format.'),
  priority: s.int32({ minimum: 1 }).describe('Preference among runtimes that auto-select the same format.'),
}).named('SupportedModelFormat');

/** Extra nodes of a multi-node runtime (tensor and pipeline parallel). */
export const workerSpec = s.object({
  ...podFields,
  pipelineParallelSize: s.integer().describe('Number of nodes across which the model is pipelined.'),
  tensorParallelSize: s.integer().describe('Number of GPUs per node across which tensors are split.'),
}).named('WorkerSpec');

/** The spec shared by ServingRuntime and ClusterServingRuntime. */
export const servingRuntimeSpec = s.object({
  ...podFields,
  supportedModelFormats: s.array(supportedModelFormat),
  multiModel: s.boolean().describe('Whether the runtime serves many models at once (ModelMesh).'),
  disabled: s.boolean().describe('Whether the runtime is disabled for new predictors.'),
  protocolVersions: s.array(s.string()).describe('Inference protocols the runtime speaks, e.g. v1, v2, grpc-v2.'),
  grpcEndpoint: s.string().describe('Model management endpoint of a multi-model runtime.'),
  grpcDataEndpoint: s.string(),
  httpDataEndpoint: s.string(),
  replicas: s.integer(),
  storageHelper: s.object({ disabled: s.boolean() }).named('StorageHelper'),
  builtInAdapter: s.object({
    serverType: s.string().describe('The ModelMesh built-in adapter to use (e.g. triton, mlserver, ovms, torchserve).'),
    runtimeManagementPort: s.integer(),
    memBufferBytes: s.integer(),
    modelLoadingTimeoutMillis: s.integer(),
    env: s.array(core('V1EnvVar')),
  }).named('BuiltInAdapter'),
  workerSpec,
}).named('ServingRuntimeSpec');

const schema = s.object({
  spec: servingRuntimeSpec,
  status: s.object().named('ServingRuntimeStatus'),
});

const printerColumns: PrinterColumn[] = [
  { name: 'Disabled', type: 'boolean', jsonPath: '.spec.disabled' },
  { name: 'ModelType', type: 'string', jsonPath: '.spec.supportedModelFormats[*].name' },
  { name: 'Containers', type: 'string', jsonPath: '.spec.containers[*].name' },
  PrinterColumns.age(),
];

/** serving.kserve.io/v1alpha1 ServingRuntime: a namespaced model server template (no status subresource). */
export const servingRuntimeCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'ServingRuntime',
  plural: 'servingruntimes',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', storage: true, schema, printerColumns }],
};

/** serving.kserve.io/v1alpha1 ClusterServingRuntime: the cluster-wide variant, same spec. */
export const clusterServingRuntimeCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'ClusterServingRuntime',
  plural: 'clusterservingruntimes',
  scope: CrdScope.CLUSTER,
  versions: [{ name: 'v1alpha1', storage: true, schema, printerColumns }],
};
