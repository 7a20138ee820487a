/**
 * Schema pieces shared by KServe's InferenceService, TrainedModel and InferenceGraph CRDs
 * (serving.kserve.io): the predictor/explainer/transformer component specs, autoscaling,
 * logging, storage, and the Knative-style status every KServe resource reports.
 *
 * Each Go struct is modelled once here and composed where it is embedded.
 */
import { coreInline, plainCore } from '../../../lib/schema/core';
import { ObjectSchema, Properties, s } from '../../../lib/schema/dsl';

// ---------------------------------------------------------------------------------------
// Status (knative.dev/pkg duck types)
// ---------------------------------------------------------------------------------------

/** A Knative condition (apis.Condition): type and status are required. */
export const knativeCondition = s.object({
  lastTransitionTime: s.string(),
  message: s.string(),
  reason: s.string(),
  severity: s.string(),
  status: s.string().required(),
  type: s.string().required(),
}).named('KnativeCondition');

/** The fields of Knative's duck Status, inlined into each KServe status. */
export const knativeStatusFields: Properties = {
  annotations: s.stringMap(),
  conditions: s.array(knativeCondition),
  observedGeneration: s.int64(),
};

/** A Knative Addressable (duckv1.Addressable). */
export const addressable = s.object({
  CACerts: s.string(),
  audience: s.string(),
  name: s.string(),
  url: s.string(),
}).named('Addressable');

// ---------------------------------------------------------------------------------------
// Storage, logging, batching
// ---------------------------------------------------------------------------------------

/** Where a model lives in a storage configuration (StorageSpec). */
export const storageSpec = s.object({
  key: s.string(),
  parameters: s.stringMap(),
  path: s.string(),
  schemaPath: s.string(),
}).named('StorageSpec');

/** One extra storage URI and where to mount it (StorageUri). */
export const storageUri = s.object({
  mountPath: s.string({ maxLength: 255, pattern: '^/.*' }).default('/mnt/models'),
  uri: s.string({ minLength: 1 }).required(),
}).named('StorageUri');

/** Where logged payloads are written (LoggerStorageSpec). */
export const loggerStorageSpec = s.object({
  key: s.string(),
  parameters: s.stringMap(),
  path: s.string(),
  serviceAccountName: s.string(),
}).named('LoggerStorageSpec');

/** Request/response logging of a component (LoggerSpec). */
export const loggerSpec = s.object({
  batchInterval: s.string(),
  batchSize: s.integer(),
  marshallerUrl: s.string(),
  metadataAnnotations: s.array(s.string()),
  metadataHeaders: s.array(s.string()),
  mode: s.enum('all', 'request', 'response'),
  storage: loggerStorageSpec,
  url: s.string(),
}).named('LoggerSpec');

/** Server-side request batching (Batcher). */
export const batcher = s.object({
  maxBatchSize: s.integer(),
  maxLatency: s.integer(),
  timeout: s.integer(),
}).named('Batcher');

// ---------------------------------------------------------------------------------------
// Autoscaling
// ---------------------------------------------------------------------------------------

const scaleMetric = s.enum('cpu', 'memory', 'concurrency', 'rps');
const metricTargetType = s.enum('Utilization', 'Value', 'AverageValue');

/** The target value of a metric (MetricTarget). */
export const metricTarget = s.object({
  averageUtilization: s.int32(),
  averageValue: s.quantity(),
  type: metricTargetType,
  value: s.quantity(),
}).named('MetricTarget');

/** Scale on a pod resource (ResourceMetricSource). */
export const resourceMetricSource = s.object({
  name: s.enum('cpu', 'memory').required(),
  target: metricTarget.required(),
}).named('ResourceMetricSource');

/** Scale on a query against an external metrics backend (ExternalMetricSource). */
export const externalMetricSource = s.object({
  authenticationRef: s.object({
    authModes: s.string(),
    authenticationRef: s.object({ name: s.string().required() }).required(),
  }).named('ExtMetricAuthentication'),
  metric: s.object({
    backend: s.enum('prometheus', 'graphite'),
    namespace: s.string(),
    query: s.string(),
    serverAddress: s.string(),
  }).named('ExternalMetrics').required(),
  target: metricTarget.required(),
}).named('ExternalMetricSource');

/** Scale on metrics the pods export (PodMetricSource). */
export const podMetricSource = s.object({
  metric: s.object({
    backend: s.enum('opentelemetry'),
    metricNames: s.array(s.string()),
    operationOverTime: s.string(),
    query: s.string(),
    serverAddress: s.string(),
  }).named('PodMetrics').required(),
  target: metricTarget.required(),
}).named('PodMetricSource');

/** One scaling metric (MetricsSpec): `type` selects which source is set. */
export const metricsSpec = s.object({
  external: externalMetricSource,
  podmetric: podMetricSource,
  resource: resourceMetricSource,
  type: s.enum('Resource', 'External', 'PodMetric').required(),
}).named('MetricsSpec');

/** autoscaling/v2 scaling rules, which KServe's CRD spells out (tolerance is a quantity, policies atomic). */
const hpaScalingRules = plainCore('V2HPAScalingRules').named('HPAScalingRules');

/** Autoscaling of a component (AutoScalingSpec). */
export const autoScalingSpec = s.object({
  behavior: plainCore('V2HorizontalPodAutoscalerBehavior', {
    scaleDown: hpaScalingRules,
    scaleUp: hpaScalingRules,
  }).named('HorizontalPodAutoscalerBehavior'),
  metrics: s.array(metricsSpec),
}).named('AutoScalingSpec');

// ---------------------------------------------------------------------------------------
// Component specs
// ---------------------------------------------------------------------------------------

/** The fields every component (predictor, explainer, transformer) adds to its pod spec (ComponentExtensionSpec). */
export const componentExtensionFields: Properties = {
  annotations: s.stringMap(),
  autoScaling: autoScalingSpec,
  batcher,
  canaryTrafficPercent: s.int64(),
  containerConcurrency: s.int64(),
  deploymentStrategy: plainCore('V1DeploymentStrategy'),
  labels: s.stringMap(),
  logger: loggerSpec,
  maxReplicas: s.int32(),
  minReplicas: s.int32(),
  scaleMetric,
  scaleMetricType: metricTargetType,
  scaleTarget: s.int32(),
  storageUris: s.array(storageUri, { minItems: 1, listType: 'atomic' }),
  timeout: s.int64(),
};

/** Confidential-computing settings of a model server container. */
export const confidentialSpec = s.object({
  enabled: s.boolean().required(),
  resourceId: s.string(),
}).named('ConfidentialSpec');

/** The fields a framework-specific predictor adds to its container (PredictorExtensionSpec). */
export const predictorExtensionFields: Properties = {
  confidential: confidentialSpec,
  protocolVersion: s.string(),
  runtimeVersion: s.string(),
  storage: storageSpec,
  storageUri: s.string(),
};

/** A framework-specific predictor container (sklearn, xgboost, ...). */
export const predictorExtensionSpec = coreInline('V1Container', predictorExtensionFields).named('PredictorExtensionSpec');

/** The model format a runtime must support (ModelFormat). */
export const modelFormat = s.object({
  name: s.string().required(),
  version: s.string(),
}).named('ModelFormat');

/**
 * The generic model container (ModelSpec). `modelFormat` is required on canary predictors
 * but optional on the main predictor, as in the upstream CRD.
 */
export function modelSpec(opts: { modelFormatRequired: boolean; typeName: string }): ObjectSchema {
  return coreInline('V1Container', {
    ...predictorExtensionFields,
    modelFormat: opts.modelFormatRequired ? modelFormat.required() : modelFormat,
    runtime: s.string(),
  }).named(opts.typeName);
}

/** A pod for the extra workers of a multi-node model (WorkerSpec). */
export const workerSpec = coreInline('V1PodSpec', {
  pipelineParallelSize: s.integer(),
  tensorParallelSize: s.integer(),
}).named('WorkerSpec');

const FRAMEWORKS = ['huggingface', 'lightgbm', 'onnx', 'paddle', 'pmml', 'pytorch', 'sklearn', 'tensorflow', 'triton', 'xgboost'] as const;

/** The predictor of an InferenceService (PredictorSpec): a pod spec plus model and component settings. */
export function predictorSpec(opts: { modelFormatRequired: boolean; typeName: string; modelTypeName: string }): ObjectSchema {
  return coreInline('V1PodSpec', {
    ...componentExtensionFields,
    ...Object.fromEntries(FRAMEWORKS.map((f) => [f, predictorExtensionSpec])),
    model: modelSpec({ modelFormatRequired: opts.modelFormatRequired, typeName: opts.modelTypeName }),
    name: s.string({ pattern: '^[a-z]([-a-z0-9]*[a-z0-9])?$' }),
    storageContainerName: s.string(),
    workerSpec,
  }).named(opts.typeName);
}

/** The ART (Adversarial Robustness Toolbox) explainer container (ARTExplainerSpec). */
export const artExplainerSpec = coreInline('V1Container', {
  config: s.stringMap(),
  runtimeVersion: s.string(),
  storage: storageSpec,
  storageUri: s.string(),
  type: s.string(),
}).named('ARTExplainerSpec');

/** The explainer of an InferenceService (ExplainerSpec). */
export const explainerSpec = coreInline('V1PodSpec', {
  ...componentExtensionFields,
  art: artExplainerSpec,
}).named('ExplainerSpec');

/** The transformer of an InferenceService (TransformerSpec). */
export const transformerSpec = coreInline('V1PodSpec', componentExtensionFields).named('TransformerSpec');
