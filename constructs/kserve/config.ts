/**
 * Typed model of KServe's `inferenceservice-config` ConfigMap (release in ./versions.ts).
 *
 * Every data key of the ConfigMap holds one JSON document that the controller
 * unmarshals into a Go struct (pkg/apis/serving/v1beta1/configmap.go and the
 * per-sidecar config types). The interfaces below mirror those structs' JSON
 * field names; defaults mirror the values upstream ships in the ConfigMap's data
 * block (not the commented `_example` block).
 *
 * Images are never spelled out here: each image field carries a key of
 * KSERVE_IMAGES and is resolved through the `images` callback at render time.
 */
import { KServeImageKey } from './versions';

// ---------------------------------------------------------------------------
// Shared value types
// ---------------------------------------------------------------------------

/** Deployment modes accepted by the v0.20 controller. Serverless / RawDeployment are the
 * legacy spellings the controller still accepts (normalised to Knative / Standard). */
export const DEPLOYMENT_MODES = ['Knative', 'Standard', 'ModelMesh', 'Serverless', 'RawDeployment'] as const;
export type DeploymentMode = typeof DEPLOYMENT_MODES[number];

export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export type ImagePullPolicy = typeof IMAGE_PULL_POLICIES[number];

export const URL_SCHEMES = ['http', 'https'] as const;
export type UrlScheme = typeof URL_SCHEMES[number];

/** The ConfigMap carries several booleans as the strings "true"/"false". */
export type BoolString = 'true' | 'false';

/** S3 switches are strings: empty (unset) or "0"/"1". */
export type S3Switch = '' | '0' | '1';

/** A Kubernetes resource quantity, e.g. "100m", "1", "2Gi". */
export type Quantity = string;

/** cpu/memory requests and limits of a sidecar or init container. */
export interface ContainerResourceFields {
  readonly cpuRequest: Quantity;
  readonly cpuLimit: Quantity;
  readonly memoryRequest: Quantity;
  readonly memoryLimit: Quantity;
}

// ---------------------------------------------------------------------------
// One interface per ConfigMap key
// ---------------------------------------------------------------------------

/** `explainers`: image (repository) and default version per explainer. */
export interface ExplainersConfig {
  readonly art: {
    /** Repository and default version both come from this image key. */
    readonly imageKey: KServeImageKey;
  };
}

/** `storageInitializer`: the init container that downloads models. */
export interface StorageInitializerConfig extends ContainerResourceFields {
  readonly imageKey: KServeImageKey;
  /** ConfigMap copied into user namespaces and mounted into the init container ('' = none). */
  readonly caBundleConfigMapName: string;
  readonly caBundleVolumeMountPath: string;
  /** Mount pvc:// storage straight into the model container instead of copying. @default - unset (KServe's default) */
  readonly enableDirectPvcVolumeMount?: boolean;
  /** Allow oci:// storage URIs served from a passive "modelcar" container. */
  readonly enableModelcar: boolean;
  readonly cpuModelcar: Quantity;
  readonly memoryModelcar: Quantity;
  /** UID for the modelcar and main container; unset leaves the UID untouched. */
  readonly uidModelcar?: number;
}

export interface GcsCredentialsConfig {
  readonly gcsCredentialFileName: string;
}

export interface S3CredentialsConfig {
  readonly s3AccessKeyIDName: string;
  readonly s3SecretAccessKeyName: string;
  readonly s3Endpoint: string;
  readonly s3UseHttps: S3Switch;
  readonly s3Region: string;
  readonly s3VerifySSL: S3Switch;
  readonly s3UseVirtualBucket: S3Switch;
  readonly s3UseAccelerate: S3Switch;
  readonly s3UseAnonymousCredential: S3Switch;
  readonly s3CABundle: string;
  /** ConfigMap holding the CA bundle for S3 endpoints ('' = none). */
  readonly s3CABundleConfigMap?: string;
}

/** `credentials`: how storage credentials are injected. */
export interface CredentialsConfig {
  readonly storageSpecSecretName: string;
  readonly storageSecretNameAnnotation: string;
  readonly gcs: GcsCredentialsConfig;
  readonly s3: S3CredentialsConfig;
}

/** `ingress`: external/internal routing. */
export interface IngressConfig {
  readonly enableGatewayApi: boolean;
  /** `<namespace>/<name>` of the Gateway API gateway (Standard mode). */
  readonly kserveIngressGateway: string;
  /** `<namespace>/<name>` of the Knative ingress gateway; the controller requires it non-empty. */
  readonly ingressGateway: string;
  /** Knative's local gateway service host; '' means "same as localGatewayService". */
  readonly knativeLocalGatewayService?: string;
  readonly localGateway: string;
  readonly localGatewayService: string;
  readonly ingressDomain: string;
  readonly additionalIngressDomains?: readonly string[];
  readonly ingressClassName?: string;
  readonly domainTemplate: string;
  readonly urlScheme: UrlScheme;
  readonly disableIstioVirtualHost: boolean;
  readonly disableIngressCreation: boolean;
  readonly pathTemplate?: string;
  readonly enableLLMInferenceServiceTLS?: boolean;
  readonly disableHTTPRouteTimeout?: boolean;
  readonly modelBasedRoutingHeaderName?: string;
  readonly modelBasedRoutingMode?: string;
}

/** `logger`: the request/response logger sidecar (agent image). */
export interface LoggerConfig extends ContainerResourceFields {
  readonly imageKey: KServeImageKey;
  readonly defaultUrl: string;
}

/** `batcher`: the batching sidecar (agent image). Sizes are strings in the ConfigMap. */
export interface BatcherConfig extends ContainerResourceFields {
  readonly imageKey: KServeImageKey;
  /** Integer as a string, e.g. "32". */
  readonly maxBatchSize: string;
  /** Milliseconds as a string, e.g. "5000". */
  readonly maxLatency: string;
}

/** `agent`: the model-pulling agent sidecar. */
export interface AgentConfig extends ContainerResourceFields {
  readonly imageKey: KServeImageKey;
}

/** `router`: the InferenceGraph router. */
export interface RouterConfig extends ContainerResourceFields {
  readonly imageKey: KServeImageKey;
  readonly imagePullPolicy: ImagePullPolicy;
  readonly imagePullSecrets?: readonly string[];
  /** Header names or Go regexes propagated to every graph step. */
  readonly headers?: { readonly propagate: readonly string[] };
}

export interface RolloutSpec {
  /** Absolute number or percentage, e.g. "1" or "25%". */
  readonly maxSurge: string;
  readonly maxUnavailable: string;
}

/** `deploy`: cluster-wide default deployment mode. */
export interface DeployConfig {
  readonly defaultDeploymentMode: DeploymentMode;
  readonly deploymentRolloutStrategy?: { readonly defaultRollout?: RolloutSpec };
}

/** `service`: Service shape in Standard (raw) mode. */
export interface ServiceConfig {
  readonly serviceClusterIPNone: boolean;
}

/** `metricsAggregator`: queue-proxy metric aggregation; booleans as strings. */
export interface MetricsAggregatorConfig {
  readonly enableMetricAggregation: BoolString;
  readonly enablePrometheusScraping: BoolString;
}

/** `localModel`: node-local model cache. */
export interface LocalModelConfig {
  readonly enabled: boolean;
  readonly jobNamespace: string;
  readonly defaultJobImageKey: KServeImageKey;
  readonly fsGroup?: number;
  readonly jobTTLSecondsAfterFinished?: number;
  readonly reconcilationFrequencyInSecs?: number;
  readonly disableVolumeManagement?: boolean;
}

/** `security`. */
export interface SecurityConfig {
  readonly autoMountServiceAccountToken: boolean;
}

/** Default resources applied to InferenceService containers ('' unbounds a value). */
export interface InferenceServiceResourceConfig extends ContainerResourceFields {}

/** `inferenceService`. */
export interface InferenceServiceDefaultsConfig {
  readonly resource?: InferenceServiceResourceConfig;
  readonly serviceAnnotationDisallowedList?: readonly string[];
  readonly serviceLabelDisallowedList?: readonly string[];
}

/** `opentelemetryCollector`: collector used for KEDA/OTel autoscaling. */
export interface OpenTelemetryCollectorConfig {
  readonly scrapeInterval: string;
  readonly metricReceiverEndpoint: string;
  readonly metricScalerEndpoint: string;
  readonly resource?: InferenceServiceResourceConfig;
}

/** `multiNode`: extra GPU resource names recognised for multi-node runtimes. */
export interface MultiNodeConfig {
  readonly customGPUResourceTypeList: readonly string[];
}

/** `autoscaler`: HPA stabilisation windows (seconds, as strings). */
export interface AutoscalerConfig {
  readonly scaleUpStabilizationWindowSeconds?: string;
  readonly scaleDownStabilizationWindowSeconds?: string;
}

/** The whole `inferenceservice-config` ConfigMap. Optional keys are omitted when unset. */
export interface InferenceServiceConfigProps {
  readonly explainers: ExplainersConfig;
  readonly storageInitializer: StorageInitializerConfig;
  readonly credentials: CredentialsConfig;
  readonly ingress: IngressConfig;
  readonly logger: LoggerConfig;
  readonly batcher: BatcherConfig;
  readonly agent: AgentConfig;
  readonly router: RouterConfig;
  readonly deploy: DeployConfig;
  /** @default - unset: KServe's defaults */
  readonly service?: ServiceConfig;
  readonly metricsAggregator: MetricsAggregatorConfig;
  readonly localModel: LocalModelConfig;
  readonly security: SecurityConfig;
  readonly inferenceService: InferenceServiceDefaultsConfig;
  readonly opentelemetryCollector: OpenTelemetryCollectorConfig;
  readonly multiNode?: MultiNodeConfig;
  readonly autoscaler?: AutoscalerConfig;
}

/** ConfigMap data keys in the order they are rendered. */
export const INFERENCESERVICE_CONFIG_KEYS = [
  'explainers',
  'storageInitializer',
  'credentials',
  'ingress',
  'logger',
  'batcher',
  'agent',
  'router',
  'deploy',
  'service',
  'metricsAggregator',
  'localModel',
  'security',
  'inferenceService',
  'opentelemetryCollector',
  'multiNode',
  'autoscaler',
] as const satisfies readonly (keyof InferenceServiceConfigProps)[];

// ---------------------------------------------------------------------------
// Defaults (upstream data block)
// ---------------------------------------------------------------------------

export const DEFAULT_INFERENCESERVICE_CONFIG: InferenceServiceConfigProps = {
  explainers: { art: { imageKey: 'artExplainer' } },
  storageInitializer: {
    imageKey: 'storageInitializer',
    memoryRequest: '100Mi',
    memoryLimit: '1Gi',
    cpuRequest: '100m',
    cpuLimit: '1',
    caBundleConfigMapName: '',
    caBundleVolumeMountPath: '/etc/ssl/custom-certs',
    enableModelcar: true,
    cpuModelcar: '10m',
    memoryModelcar: '15Mi',
    uidModelcar: 1010,
  },
  credentials: {
    storageSpecSecretName: 'storage-config',
    storageSecretNameAnnotation: 'serving.kserve.io/storageSecretName',
    gcs: { gcsCredentialFileName: 'gcloud-application-credentials.json' },
    s3: {
      s3AccessKeyIDName: 'AWS_ACCESS_KEY_ID',
      s3SecretAccessKeyName: 'AWS_SECRET_ACCESS_KEY',
      s3Endpoint: '',
      s3UseHttps: '',
      s3Region: '',
      s3VerifySSL: '',
      s3UseVirtualBucket: '',
      s3UseAccelerate: '',
      s3UseAnonymousCredential: '',
      s3CABundle: '',
      s3CABundleConfigMap: '',
    },
  },
  ingress: {
    enableGatewayApi: false,
    kserveIngressGateway: 'kserve/kserve-ingress-gateway',
    ingressGateway: 'knative-serving/knative-ingress-gateway',
    localGateway: 'knative-serving/knative-local-gateway',
    localGatewayService: 'knative-local-gateway.istio-system.svc.cluster.local',
    ingressDomain: 'example.com',
    ingressClassName: 'istio',
    domainTemplate: '{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}',
    urlScheme: 'http',
    disableIstioVirtualHost: false,
    disableIngressCreation: false,
    disableHTTPRouteTimeout: false,
  },
  logger: {
    imageKey: 'agent',
    memoryRequest: '100Mi',
    memoryLimit: '1Gi',
    cpuRequest: '100m',
    cpuLimit: '1',
    defaultUrl: 'http://default-broker',
  },
  batcher: {
    imageKey: 'agent',
    memoryRequest: '1Gi',
    memoryLimit: '1Gi',
    cpuRequest: '1',
    cpuLimit: '1',
    maxBatchSize: '32',
    maxLatency: '5000',
  },
  agent: {
    imageKey: 'agent',
    memoryRequest: '100Mi',
    memoryLimit: '1Gi',
    cpuRequest: '100m',
    cpuLimit: '1',
  },
  router: {
    imageKey: 'router',
    memoryRequest: '100Mi',
    memoryLimit: '1Gi',
    cpuRequest: '100m',
    cpuLimit: '1',
    imagePullPolicy: 'IfNotPresent',
  },
  // Upstream's kustomize default; the Helm chart exposes the same value as kserve.controller.deploymentMode.
  deploy: { defaultDeploymentMode: 'Serverless' },
  metricsAggregator: { enableMetricAggregation: 'false', enablePrometheusScraping: 'false' },
  localModel: {
    enabled: false,
    jobNamespace: 'kserve-localmodel-jobs',
    defaultJobImageKey: 'storageInitializer',
    fsGroup: 1000,
    jobTTLSecondsAfterFinished: 3600,
    reconcilationFrequencyInSecs: 60,
    disableVolumeManagement: false,
  },
  security: { autoMountServiceAccountToken: true },
  inferenceService: {
    resource: { cpuLimit: '1', memoryLimit: '2Gi', cpuRequest: '1', memoryRequest: '2Gi' },
  },
  opentelemetryCollector: {
    scrapeInterval: '5s',
    metricReceiverEndpoint: 'keda-otel-scaler.keda.svc:4317',
    metricScalerEndpoint: 'keda-otel-scaler.keda.svc:4318',
    resource: { cpuLimit: '1', memoryLimit: '2Gi', cpuRequest: '200m', memoryRequest: '512Mi' },
  },
  autoscaler: { scaleUpStabilizationWindowSeconds: '0', scaleDownStabilizationWindowSeconds: '300' },
};

// ---------------------------------------------------------------------------
// Merge
// ---------------------------------------------------------------------------

/** Recursive partial; arrays are replaced wholesale, never merged element-wise. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { -readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) {
    return Array.isArray(over) ? [...over] : over;
  }
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) continue;
    out[k] = deepMerge(base[k], v);
  }
  return out;
}

/**
 * Deep-merge user overrides onto defaults: nested objects merge field by field,
 * arrays and scalars replace. Keys absent from the override keep their default.
 */
export function mergeInferenceServiceConfig(
  defaults: InferenceServiceConfigProps,
  overrides: DeepPartial<InferenceServiceConfigProps> = {},
): InferenceServiceConfigProps {
  return deepMerge(defaults, overrides) as InferenceServiceConfigProps;
}

// ---------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------

const PREFIX = 'inferenceservice-config';

function fail(path: string, value: unknown, fix: string): never {
  throw new Error(`${PREFIX}: ${path} is ${JSON.stringify(value)}; ${fix}`);
}

/** Kubernetes resource.Quantity syntax (decimal/binary SI suffix or exponent). */
const QUANTITY_RE = /^[+]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;
/** RFC 1123 DNS subdomain. */
const DNS_NAME_RE = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** RFC 1123 DNS label. */
const DNS_LABEL_RE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const UINT_STRING_RE = /^\d+$/;
const INT_OR_PERCENT_RE = /^\d+%?$/;

function checkQuantity(path: string, v: unknown, allowEmpty = false): void {
  if (allowEmpty && v === '') return;
  if (typeof v !== 'string' || !QUANTITY_RE.test(v)) {
    fail(path, v, `must be a Kubernetes quantity such as "500m", "1", "512Mi" or "2Gi"${allowEmpty ? ' (or "" to leave it unbounded)' : ''}`);
  }
}

function checkResources(path: string, r: ContainerResourceFields | undefined, allowEmpty = false): void {
  if (r === undefined) return;
  for (const f of ['cpuRequest', 'cpuLimit', 'memoryRequest', 'memoryLimit'] as const) {
    checkQuantity(`${path}.${f}`, r[f], allowEmpty);
  }
}

function checkOneOf<T extends string>(path: string, v: unknown, allowed: readonly T[]): void {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    fail(path, v, `must be one of ${allowed.join('|')}`);
  }
}

function checkDnsName(path: string, v: unknown): void {
  if (typeof v !== 'string' || !DNS_NAME_RE.test(v)) {
    fail(path, v, 'must be a lower-case DNS name such as "example.com"');
  }
}

function checkNamespacedName(path: string, v: unknown): void {
  const parts = typeof v === 'string' ? v.split('/') : [];
  if (parts.length !== 2 || !DNS_LABEL_RE.test(parts[0]) || !DNS_LABEL_RE.test(parts[1])) {
    fail(path, v, 'must be "<namespace>/<name>" with both parts DNS labels, e.g. "kserve/kserve-ingress-gateway"');
  }
}

function checkNonNegativeInt(path: string, v: unknown): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    fail(path, v, 'must be a non-negative integer');
  }
}

function checkImageKey(path: string, v: unknown, images: (key: KServeImageKey) => string): void {
  if (typeof v !== 'string' || v === '') fail(path, v, 'must be a key of KSERVE_IMAGES');
  images(v as KServeImageKey); // the resolver throws for unknown keys
}

/** Throws an Error naming prop path, value and fix for the first invalid field. */
export function validateInferenceServiceConfig(
  p: InferenceServiceConfigProps,
  images: (key: KServeImageKey) => string,
): void {
  checkImageKey('explainers.art.imageKey', p.explainers.art.imageKey, images);

  const si = p.storageInitializer;
  checkImageKey('storageInitializer.imageKey', si.imageKey, images);
  checkResources('storageInitializer', si);
  checkQuantity('storageInitializer.cpuModelcar', si.cpuModelcar);
  checkQuantity('storageInitializer.memoryModelcar', si.memoryModelcar);
  checkNonNegativeInt('storageInitializer.uidModelcar', si.uidModelcar);
  if (!si.caBundleVolumeMountPath.startsWith('/')) {
    fail('storageInitializer.caBundleVolumeMountPath', si.caBundleVolumeMountPath, 'must be an absolute path such as "/etc/ssl/custom-certs"');
  }

  for (const f of ['s3UseHttps', 's3VerifySSL', 's3UseVirtualBucket', 's3UseAccelerate', 's3UseAnonymousCredential'] as const) {
    checkOneOf(`credentials.s3.${f}`, p.credentials.s3[f], ['', '0', '1']);
  }

  const ing = p.ingress;
  checkDnsName('ingress.ingressDomain', ing.ingressDomain);
  (ing.additionalIngressDomains ?? []).forEach((d, i) => checkDnsName(`ingress.additionalIngressDomains[${i}]`, d));
  if (!ing.ingressGateway) {
    fail('ingress.ingressGateway', ing.ingressGateway, 'must be set ("<namespace>/<name>"); the controller refuses an empty ingressGateway in every mode');
  }
  checkNamespacedName('ingress.ingressGateway', ing.ingressGateway);
  if (ing.enableGatewayApi || ing.kserveIngressGateway) {
    checkNamespacedName('ingress.kserveIngressGateway', ing.kserveIngressGateway);
  }
  checkOneOf('ingress.urlScheme', ing.urlScheme, URL_SCHEMES);
  if (!ing.domainTemplate.includes('{{')) {
    fail('ingress.domainTemplate', ing.domainTemplate, 'must be a Go template such as "{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}"');
  }
  if (ing.pathTemplate && !ing.pathTemplate.startsWith('/')) {
    fail('ingress.pathTemplate', ing.pathTemplate, 'must start with "/", e.g. "/serving/{{ .Namespace }}/{{ .Name }}"');
  }

  checkImageKey('logger.imageKey', p.logger.imageKey, images);
  checkResources('logger', p.logger);
  checkImageKey('batcher.imageKey', p.batcher.imageKey, images);
  checkResources('batcher', p.batcher);
  if (!UINT_STRING_RE.test(p.batcher.maxBatchSize)) {
    fail('batcher.maxBatchSize', p.batcher.maxBatchSize, 'must be a whole number written as a string, e.g. "32"');
  }
  if (!UINT_STRING_RE.test(p.batcher.maxLatency)) {
    fail('batcher.maxLatency', p.batcher.maxLatency, 'must be milliseconds written as a string, e.g. "5000"');
  }
  checkImageKey('agent.imageKey', p.agent.imageKey, images);
  checkResources('agent', p.agent);
  checkImageKey('router.imageKey', p.router.imageKey, images);
  checkResources('router', p.router);
  checkOneOf('router.imagePullPolicy', p.router.imagePullPolicy, IMAGE_PULL_POLICIES);

  checkOneOf('deploy.defaultDeploymentMode', p.deploy.defaultDeploymentMode, DEPLOYMENT_MODES);
  const rollout = p.deploy.deploymentRolloutStrategy?.defaultRollout;
  if (rollout) {
    for (const f of ['maxSurge', 'maxUnavailable'] as const) {
      if (!INT_OR_PERCENT_RE.test(rollout[f])) {
        fail(`deploy.deploymentRolloutStrategy.defaultRollout.${f}`, rollout[f], 'must be a whole number or a percentage, e.g. "1" or "25%"');
      }
    }
  }

  checkOneOf('metricsAggregator.enableMetricAggregation', p.metricsAggregator.enableMetricAggregation, ['true', 'false']);
  checkOneOf('metricsAggregator.enablePrometheusScraping', p.metricsAggregator.enablePrometheusScraping, ['true', 'false']);

  const lm = p.localModel;
  if (!DNS_LABEL_RE.test(lm.jobNamespace)) {
    fail('localModel.jobNamespace', lm.jobNamespace, 'must be a namespace name (DNS label), e.g. "kserve-localmodel-jobs"');
  }
  checkImageKey('localModel.defaultJobImageKey', lm.defaultJobImageKey, images);
  checkNonNegativeInt('localModel.fsGroup', lm.fsGroup);
  checkNonNegativeInt('localModel.jobTTLSecondsAfterFinished', lm.jobTTLSecondsAfterFinished);
  checkNonNegativeInt('localModel.reconcilationFrequencyInSecs', lm.reconcilationFrequencyInSecs);

  checkResources('inferenceService.resource', p.inferenceService.resource, true);
  checkResources('opentelemetryCollector.resource', p.opentelemetryCollector.resource, true);

  for (const f of ['scaleUpStabilizationWindowSeconds', 'scaleDownStabilizationWindowSeconds'] as const) {
    const v = p.autoscaler?.[f];
    if (v !== undefined && !UINT_STRING_RE.test(v)) {
      fail(`autoscaler.${f}`, v, 'must be whole seconds written as a string, e.g. "300"');
    }
  }
}

// ---------------------------------------------------------------------------
// Render
// ---------------------------------------------------------------------------

/** Drop undefined fields so the JSON only carries what is set. */
function compact<T extends Record<string, unknown>>(o: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** Split "repo[:port]/path:tag" at the tag separator. */
function splitImage(ref: string): { repository: string; tag: string } {
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > slash) return { repository: ref.slice(0, colon), tag: ref.slice(colon + 1) };
  throw new Error(`${PREFIX}: image "${ref}" has no tag; pin an explicit tag in KSERVE_IMAGES`);
}

function resources(r: ContainerResourceFields): Record<string, unknown> {
  return { memoryRequest: r.memoryRequest, memoryLimit: r.memoryLimit, cpuRequest: r.cpuRequest, cpuLimit: r.cpuLimit };
}

/**
 * Render the ConfigMap `data`: one JSON document per key, 2-space indented,
 * keys and fields in a fixed order. Validates first (see validateInferenceServiceConfig).
 */
export function renderInferenceServiceConfig(
  props: InferenceServiceConfigProps,
  images: (key: KServeImageKey) => string,
): Record<string, string> {
  validateInferenceServiceConfig(props, images);
  const p = props;
  const art = splitImage(images(p.explainers.art.imageKey));
  const si = p.storageInitializer;
  const ing = p.ingress;

  const docs: Record<(typeof INFERENCESERVICE_CONFIG_KEYS)[number], Record<string, unknown> | undefined> = {
    explainers: { art: { image: art.repository, defaultImageVersion: art.tag } },
    storageInitializer: compact({
      image: images(si.imageKey),
      ...resources(si),
      caBundleConfigMapName: si.caBundleConfigMapName,
      caBundleVolumeMountPath: si.caBundleVolumeMountPath,
      enableDirectPvcVolumeMount: si.enableDirectPvcVolumeMount,
      enableModelcar: si.enableModelcar,
      cpuModelcar: si.cpuModelcar,
      memoryModelcar: si.memoryModelcar,
      uidModelcar: si.uidModelcar,
    }),
    credentials: {
      storageSpecSecretName: p.credentials.storageSpecSecretName,
      storageSecretNameAnnotation: p.credentials.storageSecretNameAnnotation,
      gcs: { gcsCredentialFileName: p.credentials.gcs.gcsCredentialFileName },
      s3: {
        s3AccessKeyIDName: p.credentials.s3.s3AccessKeyIDName,
        s3SecretAccessKeyName: p.credentials.s3.s3SecretAccessKeyName,
        s3Endpoint: p.credentials.s3.s3Endpoint,
        s3UseHttps: p.credentials.s3.s3UseHttps,
        s3Region: p.credentials.s3.s3Region,
        s3VerifySSL: p.credentials.s3.s3VerifySSL,
        s3UseVirtualBucket: p.credentials.s3.s3UseVirtualBucket,
        s3UseAccelerate: p.credentials.s3.s3UseAccelerate,
        s3UseAnonymousCredential: p.credentials.s3.s3UseAnonymousCredential,
        s3CABundle: p.credentials.s3.s3CABundle,
        s3CABundleConfigMap: p.credentials.s3.s3CABundleConfigMap,
      },
    },
    ingress: compact({
      enableGatewayApi: ing.enableGatewayApi,
      kserveIngressGateway: ing.kserveIngressGateway,
      ingressGateway: ing.ingressGateway,
      knativeLocalGatewayService: ing.knativeLocalGatewayService,
      localGateway: ing.localGateway,
      localGatewayService: ing.localGatewayService,
      ingressDomain: ing.ingressDomain,
      additionalIngressDomains: ing.additionalIngressDomains ? [...ing.additionalIngressDomains] : undefined,
      ingressClassName: ing.ingressClassName,
      domainTemplate: ing.domainTemplate,
      urlScheme: ing.urlScheme,
      disableIstioVirtualHost: ing.disableIstioVirtualHost,
      disableIngressCreation: ing.disableIngressCreation,
      pathTemplate: ing.pathTemplate,
      enableLLMInferenceServiceTLS: ing.enableLLMInferenceServiceTLS,
      disableHTTPRouteTimeout: ing.disableHTTPRouteTimeout,
      modelBasedRoutingHeaderName: ing.modelBasedRoutingHeaderName,
      modelBasedRoutingMode: ing.modelBasedRoutingMode,
    }),
    logger: { image: images(p.logger.imageKey), ...resources(p.logger), defaultUrl: p.logger.defaultUrl },
    batcher: {
      image: images(p.batcher.imageKey),
      ...resources(p.batcher),
      maxBatchSize: p.batcher.maxBatchSize,
      maxLatency: p.batcher.maxLatency,
    },
    agent: { image: images(p.agent.imageKey), ...resources(p.agent) },
    router: compact({
      image: images(p.router.imageKey),
      ...resources(p.router),
      headers: p.router.headers ? { propagate: [...p.router.headers.propagate] } : undefined,
      imagePullPolicy: p.router.imagePullPolicy,
      imagePullSecrets: p.router.imagePullSecrets ? [...p.router.imagePullSecrets] : undefined,
    }),
    deploy: compact({
      defaultDeploymentMode: p.deploy.defaultDeploymentMode,
      deploymentRolloutStrategy: p.deploy.deploymentRolloutStrategy?.defaultRollout
        ? {
          defaultRollout: {
            maxSurge: p.deploy.deploymentRolloutStrategy.defaultRollout.maxSurge,
            maxUnavailable: p.deploy.deploymentRolloutStrategy.defaultRollout.maxUnavailable,
          },
        }
        : undefined,
    }),
    service: p.service ? { serviceClusterIPNone: p.service.serviceClusterIPNone } : undefined,
    metricsAggregator: {
      enableMetricAggregation: p.metricsAggregator.enableMetricAggregation,
      enablePrometheusScraping: p.metricsAggregator.enablePrometheusScraping,
    },
    localModel: compact({
      enabled: p.localModel.enabled,
      jobNamespace: p.localModel.jobNamespace,
      defaultJobImage: images(p.localModel.defaultJobImageKey),
      fsGroup: p.localModel.fsGroup,
      jobTTLSecondsAfterFinished: p.localModel.jobTTLSecondsAfterFinished,
      reconcilationFrequencyInSecs: p.localModel.reconcilationFrequencyInSecs,
      disableVolumeManagement: p.localModel.disableVolumeManagement,
    }),
    security: { autoMountServiceAccountToken: p.security.autoMountServiceAccountToken },
    inferenceService: compact({
      resource: p.inferenceService.resource
        ? {
          cpuLimit: p.inferenceService.resource.cpuLimit,
          memoryLimit: p.inferenceService.resource.memoryLimit,
          cpuRequest: p.inferenceService.resource.cpuRequest,
          memoryRequest: p.inferenceService.resource.memoryRequest,
        }
        : undefined,
      serviceAnnotationDisallowedList: p.inferenceService.serviceAnnotationDisallowedList
        ? [...p.inferenceService.serviceAnnotationDisallowedList] : undefined,
      serviceLabelDisallowedList: p.inferenceService.serviceLabelDisallowedList
        ? [...p.inferenceService.serviceLabelDisallowedList] : undefined,
    }),
    opentelemetryCollector: compact({
      scrapeInterval: p.opentelemetryCollector.scrapeInterval,
      metricReceiverEndpoint: p.opentelemetryCollector.metricReceiverEndpoint,
      metricScalerEndpoint: p.opentelemetryCollector.metricScalerEndpoint,
      resource: p.opentelemetryCollector.resource ? resources(p.opentelemetryCollector.resource) : undefined,
    }),
    multiNode: p.multiNode ? { customGPUResourceTypeList: [...p.multiNode.customGPUResourceTypeList] } : undefined,
    autoscaler: p.autoscaler
      ? compact({
        scaleUpStabilizationWindowSeconds: p.autoscaler.scaleUpStabilizationWindowSeconds,
        scaleDownStabilizationWindowSeconds: p.autoscaler.scaleDownStabilizationWindowSeconds,
      })
      : undefined,
  };

  const data: Record<string, string> = {};
  for (const key of INFERENCESERVICE_CONFIG_KEYS) {
    const doc = docs[key];
    if (doc !== undefined) data[key] = JSON.stringify(doc, null, 2);
  }
  return data;
}
