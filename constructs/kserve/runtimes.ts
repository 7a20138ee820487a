/**
 * The default ClusterServingRuntimes of KServe's install (config/runtimes), as data.
 * Image tags live in ./versions.ts; each runtime names its image by key.
 */
import { RAY_HEAD_ADDRESS_EXPORT, RAY_HEAD_SCRIPT, RAY_WORKER_SCRIPT, RAY_WORKER_STARTUP_CHECK, RAY_WORKER_STARTUP_PRELUDE } from './ray-bootstrap';
import { KServeImageKey } from './versions';
import type { V1Probe } from '../../imports/k8s/core';
import type { ServingRuntimeSpec } from '../../imports/serving.kserve.io';

export type ProtocolVersion = 'v1' | 'v2' | 'grpc-v1' | 'grpc-v2';

export interface SupportedModelFormat {
  readonly name: string;
  readonly version?: string;
  readonly autoSelect?: boolean;
  readonly priority?: number;
}

export interface EnvVarDefault {
  readonly name: string;
  readonly value?: string;
  /** Downward-API field, e.g. "metadata.namespace". */
  readonly fieldPath?: string;
}

export interface ContainerPortDefault {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol?: 'TCP' | 'UDP';
}

export interface ResourceListDefault {
  readonly cpu?: string;
  readonly memory?: string;
  readonly [resource: string]: string | undefined;
}

export interface RuntimeSecurityContext {
  readonly allowPrivilegeEscalation: boolean;
  readonly privileged: boolean;
  /** Unset where upstream's image runs as root (vLLM's). */
  readonly runAsNonRoot?: boolean;
  /** Set where the image defines no non-root user. */
  readonly runAsUser?: number;
  readonly capabilitiesDrop: readonly string[];
}

export interface RuntimeProbes {
  readonly liveness?: V1Probe;
  readonly readiness?: V1Probe;
  readonly startup?: V1Probe;
}

export interface ServingRuntimeDefault {
  /** ClusterServingRuntime name. */
  readonly name: string;
  /** The serving.kserve.io/server-type annotation of the runtime object. */
  readonly serverType: string;
  readonly imageKey: KServeImageKey;
  readonly supportedModelFormats: readonly SupportedModelFormat[];
  readonly protocolVersions: readonly ProtocolVersion[];
  readonly multiModel?: boolean;
  /** Entrypoint override (container `command`). */
  readonly containerCommand?: readonly string[];
  readonly containerArgs: readonly string[];
  readonly containerPorts?: readonly ContainerPortDefault[];
  readonly env?: readonly EnvVarDefault[];
  readonly probes?: RuntimeProbes;
  readonly resources: { readonly requests: ResourceListDefault; readonly limits: ResourceListDefault };
  /** Pod annotations the runtime sets (prometheus.kserve.io/port and /path). */
  readonly annotations: Readonly<Record<string, string>>;
  readonly securityContext?: RuntimeSecurityContext;
  /** Memory-backed emptyDir mounted at /dev/shm; sizeLimit optional. */
  readonly devShm?: { readonly volumeName: string; readonly sizeLimit?: string };
  readonly hostIPC?: boolean;
  /** Multi-node (Ray) runtimes: worker pod defaults. */
  readonly workerSpec?: {
    readonly pipelineParallelSize: number;
    readonly tensorParallelSize: number;
    readonly containerName: string;
    readonly command?: readonly string[];
    readonly env?: readonly EnvVarDefault[];
    readonly probes?: RuntimeProbes;
    readonly resources: { readonly requests: ResourceListDefault; readonly limits: ResourceListDefault };
  };
}

const RESTRICTED: RuntimeSecurityContext = {
  allowPrivilegeEscalation: false,
  privileged: false,
  runAsNonRoot: true,
  capabilitiesDrop: ['ALL'],
};
/** For images that declare no user: run as UID 1000. */
const RESTRICTED_UID_1000: RuntimeSecurityContext = { ...RESTRICTED, runAsUser: 1000 };

const ONE_CPU_2GI = { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1', memory: '2Gi' } };

const metrics = (port: number): Record<string, string> => ({
  'prometheus.kserve.io/port': String(port),
  'prometheus.kserve.io/path': '/metrics',
});

/** An exec probe running the Hugging Face server's Ray health check inside the image. */
function rayHealthProbe(check: string, failureThreshold: number, periodSeconds: number, timeoutSeconds: number, initialDelaySeconds?: number, prelude = ''): V1Probe {
  return {
    exec: { command: ['bash', '-c', `${prelude}python ./huggingfaceserver/health_check.py ${check}\n`] },
    failureThreshold,
    ...(initialDelaySeconds !== undefined ? { initialDelaySeconds } : {}),
    periodSeconds,
    successThreshold: 1,
    timeoutSeconds,
  };
}

/** Arguments common to the KServe Python model servers. */
const kserveServerArgs = ['--model_name={{.Name}}', '--model_dir=/mnt/models', '--http_port=8080'];

export const DEFAULT_CLUSTER_SERVING_RUNTIMES: readonly ServingRuntimeDefault[] = [
  {
    name: 'kserve-tensorflow-serving',
    serverType: 'tensorflow-serving',
    imageKey: 'tensorflowServing',
    supportedModelFormats: [
      { name: 'tensorflow', version: '1', autoSelect: true, priority: 2 },
      { name: 'tensorflow', version: '2', autoSelect: true, priority: 2 },
    ],
    protocolVersions: ['v1', 'grpc-v1'],
    containerCommand: ['/usr/bin/tensorflow_model_server'],
    containerArgs: [
      '--model_name={{.Name}}',
      '--port=9000',
      '--rest_api_port=8080',
      '--model_base_path=/mnt/models',
      '--rest_api_timeout_in_ms=60000',
    ],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED_UID_1000,
  },
  {
    name: 'kserve-sklearnserver',
    serverType: 'sklearnserver',
    imageKey: 'sklearnserver',
    supportedModelFormats: [{ name: 'sklearn', version: '1', autoSelect: true, priority: 1 }],
    protocolVersions: ['v1', 'v2'],
    containerArgs: kserveServerArgs,
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-mlserver',
    serverType: 'mlserver',
    imageKey: 'mlserver',
    supportedModelFormats: [
      { name: 'sklearn', version: '0', autoSelect: true, priority: 2 },
      { name: 'sklearn', version: '1', autoSelect: true, priority: 2 },
      { name: 'xgboost', version: '1', autoSelect: true, priority: 2 },
      { name: 'xgboost', version: '2', autoSelect: true, priority: 2 },
      { name: 'lightgbm', version: '3', autoSelect: true, priority: 2 },
      { name: 'lightgbm', version: '4', autoSelect: true, priority: 2 },
      { name: 'mlflow', version: '1', autoSelect: true, priority: 1 },
      { name: 'mlflow', version: '2', autoSelect: true, priority: 1 },
    ],
    protocolVersions: ['v2'],
    containerArgs: [],
    env: [
      { name: 'MLSERVER_MODEL_IMPLEMENTATION', value: '{{.Labels.modelClass}}' },
      { name: 'MLSERVER_HTTP_PORT', value: '8080' },
      { name: 'MLSERVER_GRPC_PORT', value: '9000' },
    ],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-xgbserver',
    serverType: 'xgbserver',
    imageKey: 'xgbserver',
    supportedModelFormats: [{ name: 'xgboost', version: '2', autoSelect: true, priority: 1 }],
    protocolVersions: ['v1', 'v2'],
    containerArgs: [...kserveServerArgs, '--nthread=1'],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-tritonserver',
    serverType: 'tritonserver',
    imageKey: 'tritonserver',
    supportedModelFormats: [
      { name: 'tensorrt', version: '8', autoSelect: true, priority: 1 },
      { name: 'tensorflow', version: '1', autoSelect: true, priority: 1 },
      { name: 'tensorflow', version: '2', autoSelect: true, priority: 1 },
      { name: 'onnx', version: '1', autoSelect: true, priority: 1 },
      // Triton can serve TorchScript but is never auto-selected for pytorch.
      { name: 'pytorch', version: '1' },
      { name: 'triton', version: '2', autoSelect: true, priority: 1 },
    ],
    protocolVersions: ['v2', 'grpc-v2'],
    containerArgs: [
      'tritonserver',
      '--model-store=/mnt/models',
      '--grpc-port=9000',
      '--http-port=8080',
      '--allow-grpc=true',
      '--allow-http=true',
    ],
    resources: ONE_CPU_2GI,
    annotations: metrics(8002),
    securityContext: RESTRICTED_UID_1000,
  },
  {
    name: 'kserve-pmmlserver',
    serverType: 'pmmlserver',
    imageKey: 'pmmlserver',
    supportedModelFormats: [
      { name: 'pmml', version: '3', autoSelect: true, priority: 1 },
      { name: 'pmml', version: '4', autoSelect: true, priority: 1 },
    ],
    protocolVersions: ['v1', 'v2'],
    containerArgs: kserveServerArgs,
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-paddleserver',
    serverType: 'paddleserver',
    imageKey: 'paddleserver',
    supportedModelFormats: [{ name: 'paddle', version: '2', autoSelect: true, priority: 1 }],
    protocolVersions: ['v1', 'v2'],
    containerArgs: kserveServerArgs,
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-lgbserver',
    serverType: 'lgbserver',
    imageKey: 'lgbserver',
    supportedModelFormats: [{ name: 'lightgbm', version: '4', autoSelect: true, priority: 1 }],
    protocolVersions: ['v1', 'v2'],
    containerArgs: [...kserveServerArgs, '--nthread=1'],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-torchserve',
    serverType: 'torchserve',
    imageKey: 'torchserve',
    supportedModelFormats: [{ name: 'pytorch', version: '1', autoSelect: true, priority: 2 }],
    protocolVersions: ['v1', 'v2', 'grpc-v2'],
    containerArgs: [
      'torchserve',
      '--start',
      '--model-store=/mnt/models/model-store',
      '--ts-config=/mnt/models/config/config.properties',
    ],
    env: [{ name: 'TS_SERVICE_ENVELOPE', value: '{{.Labels.serviceEnvelope}}' }],
    resources: ONE_CPU_2GI,
    annotations: metrics(8082),
    securityContext: RESTRICTED_UID_1000,
  },
  {
    name: 'kserve-huggingfaceserver',
    serverType: 'huggingfaceserver',
    imageKey: 'huggingfaceserver',
    supportedModelFormats: [{ name: 'huggingface', version: '1', autoSelect: true, priority: 1 }],
    protocolVersions: ['v2', 'v1'],
    containerArgs: ['--model_name={{.Name}}'],
    env: [{ name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' }],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
    devShm: { volumeName: 'devshm' },
    hostIPC: false,
  },
  {
    // Ray-based multi-node vLLM serving: the head container starts Ray, waits for the
    // workers, then the model server; workers join the Ray cluster (./ray-bootstrap.ts).
    name: 'kserve-huggingfaceserver-multinode',
    serverType: 'huggingfaceserver',
    imageKey: 'huggingfaceserverGpu',
    supportedModelFormats: [{ name: 'huggingface', version: '1', autoSelect: true, priority: 2 }],
    protocolVersions: ['v2', 'v1'],
    containerCommand: ['bash', '-c', RAY_HEAD_SCRIPT],
    containerArgs: ['--model_name={{.Name}}'],
    probes: {
      liveness: rayHealthProbe('registered_node_and_runtime_health --health_check_url http://localhost:8080 --probe_name head_liveness', 2, 5, 15),
      readiness: rayHealthProbe('runtime_health --health_check_url http://localhost:8080 --probe_name head_readiness', 2, 5, 15),
      startup: rayHealthProbe('registered_node_and_runtime_health --health_check_url http://localhost:8080 --probe_name head_startup', 40, 30, 30, 60),
    },
    env: [
      { name: 'RAY_PORT', value: '6379' },
      { name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' },
      { name: 'POD_IP', fieldPath: 'status.podIP' },
      { name: 'VLLM_CONFIG_ROOT', value: '/tmp' },
      { name: 'HF_HUB_CACHE', value: '/tmp' },
    ],
    resources: { requests: { cpu: '2', memory: '6Gi' }, limits: { cpu: '4', memory: '12Gi' } },
    annotations: metrics(8080),
    devShm: { volumeName: 'shm', sizeLimit: '3Gi' },
    workerSpec: {
      pipelineParallelSize: 1,
      tensorParallelSize: 1,
      containerName: 'worker-container',
      command: ['bash', '-c', RAY_WORKER_SCRIPT],
      env: [{ name: 'POD_NAME', fieldPath: 'metadata.name' }, { name: 'POD_NAMESPACE', fieldPath: 'metadata.namespace' }],
      probes: {
        liveness: rayHealthProbe('registered_nodes --probe_name worker_liveness', 2, 5, 15, undefined, RAY_HEAD_ADDRESS_EXPORT),
        startup: rayHealthProbe(RAY_WORKER_STARTUP_CHECK, 40, 30, 30, 60, RAY_WORKER_STARTUP_PRELUDE),
      },
      resources: { requests: { cpu: '2', memory: '6Gi' }, limits: { cpu: '4', memory: '12Gi' } },
    },
  },
  {
    name: 'kserve-autogluonserver',
    serverType: 'autogluonserver',
    imageKey: 'autogluonserver',
    supportedModelFormats: [{ name: 'autogluon', version: '1', autoSelect: true, priority: 1 }],
    protocolVersions: ['v1', 'v2'],
    containerArgs: kserveServerArgs,
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    // One server for several tabular frameworks; never auto-selected, named by modelFormat.
    name: 'kserve-predictiveserver',
    serverType: 'predictiveserver',
    imageKey: 'predictiveserver',
    supportedModelFormats: [
      { name: 'sklearn', version: '1', autoSelect: false, priority: 3 },
      { name: 'xgboost', version: '2', autoSelect: false, priority: 3 },
      { name: 'lightgbm', version: '4', autoSelect: false, priority: 3 },
    ],
    protocolVersions: ['v1', 'v2'],
    multiModel: false,
    containerArgs: [...kserveServerArgs, '--framework={{.Annotations.modelFormat}}', '--nthread=1'],
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    securityContext: RESTRICTED,
  },
  {
    name: 'kserve-vllmserver',
    serverType: 'vllmserver',
    imageKey: 'vllmOpenai',
    supportedModelFormats: [{ name: 'vLLM', version: '1', autoSelect: true, priority: 1 }],
    protocolVersions: [],
    containerCommand: ['python', '-m', 'vllm.entrypoints.openai.api_server'],
    containerArgs: ['--port=8080', '--served-model-name={{.Name}}', '--model=/mnt/models'],
    env: [
      { name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' },
      { name: 'HF_HOME', value: '/tmp' },
      { name: 'VLLM_CONFIG_ROOT', value: '/tmp' },
      { name: 'VLLM_WORKER_MULTIPROC_METHOD', value: 'spawn' },
    ],
    probes: {
      readiness: { failureThreshold: 3, httpGet: { path: '/v1/models', port: 8080 }, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 5 },
      startup: { failureThreshold: 60, httpGet: { path: '/v1/models', port: 8080 }, initialDelaySeconds: 30, periodSeconds: 30, successThreshold: 1, timeoutSeconds: 10 },
    },
    resources: ONE_CPU_2GI,
    annotations: metrics(8080),
    // vLLM's image runs as root: upstream does not set runAsNonRoot.
    securityContext: { allowPrivilegeEscalation: false, privileged: false, capabilitiesDrop: ['ALL'] },
    devShm: { volumeName: 'devshm' },
    hostIPC: false,
  },
];

function envList(env: readonly EnvVarDefault[]): Record<string, unknown>[] {
  return env.map((e) => e.fieldPath
    ? { name: e.name, valueFrom: { fieldRef: { fieldPath: e.fieldPath } } }
    : { name: e.name, value: e.value ?? '' });
}

function probeFields(p: RuntimeProbes | undefined): Record<string, V1Probe> {
  const out: Record<string, V1Probe> = {};
  if (p?.liveness) out.livenessProbe = p.liveness;
  if (p?.readiness) out.readinessProbe = p.readiness;
  if (p?.startup) out.startupProbe = p.startup;
  return out;
}

function resourceBlock(r: ServingRuntimeDefault['resources']): Record<string, unknown> {
  const clean = (l: ResourceListDefault) =>
    Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined));
  return { requests: clean(r.requests), limits: clean(r.limits) };
}

/** Render `spec` of a ClusterServingRuntime for the given runtime and resolved image. */
export function clusterServingRuntimeSpec(rt: ServingRuntimeDefault, image: string): ServingRuntimeSpec {
  if (!image || /:latest$/.test(image)) {
    throw new Error(`clusterServingRuntimeSpec(${rt.name}): image is ${JSON.stringify(image)}; pass a pinned image reference (not "latest") from KSERVE_IMAGES["${rt.imageKey}"]`);
  }
  const container: Record<string, unknown> = { name: 'kserve-container', image };
  if (rt.containerCommand) container.command = [...rt.containerCommand];
  if (rt.containerArgs.length > 0) container.args = [...rt.containerArgs];
  if (rt.containerPorts) container.ports = rt.containerPorts.map((p) => ({ ...p }));
  if (rt.env && rt.env.length > 0) container.env = envList(rt.env);
  Object.assign(container, probeFields(rt.probes));
  if (rt.securityContext) {
    const sc = rt.securityContext;
    container.securityContext = {
      ...(sc.runAsUser !== undefined ? { runAsUser: sc.runAsUser } : {}),
      allowPrivilegeEscalation: sc.allowPrivilegeEscalation,
      privileged: sc.privileged,
      ...(sc.runAsNonRoot !== undefined ? { runAsNonRoot: sc.runAsNonRoot } : {}),
      capabilities: { drop: [...sc.capabilitiesDrop] },
    };
  }
  container.resources = resourceBlock(rt.resources);

  const shmVolume = rt.devShm
    ? { name: rt.devShm.volumeName, emptyDir: { medium: 'Memory', ...(rt.devShm.sizeLimit ? { sizeLimit: rt.devShm.sizeLimit } : {}) } }
    : undefined;
  if (rt.devShm) container.volumeMounts = [{ name: rt.devShm.volumeName, mountPath: '/dev/shm' }];

  const spec: Record<string, unknown> = {
    annotations: { ...rt.annotations },
    supportedModelFormats: rt.supportedModelFormats.map((f) => ({ ...f })),
    ...(rt.protocolVersions.length ? { protocolVersions: [...rt.protocolVersions] } : {}),
  };
  if (rt.multiModel !== undefined) spec.multiModel = rt.multiModel;
  spec.containers = [container];
  if (shmVolume) spec.volumes = [shmVolume];
  if (rt.hostIPC !== undefined) spec.hostIPC = rt.hostIPC;
  if (rt.workerSpec) {
    const w = rt.workerSpec;
    spec.workerSpec = {
      pipelineParallelSize: w.pipelineParallelSize,
      tensorParallelSize: w.tensorParallelSize,
      containers: [{
        name: w.containerName,
        image,
        ...(w.command ? { command: [...w.command] } : {}),
        ...(w.env?.length ? { env: envList(w.env) } : {}),
        ...probeFields(w.probes),
        resources: resourceBlock(w.resources),
        ...(rt.devShm ? { volumeMounts: [{ name: rt.devShm.volumeName, mountPath: '/dev/shm' }] } : {}),
      }],
      ...(shmVolume ? { volumes: [shmVolume] } : {}),
    };
  }
  // Built field by field from typed data; synth validates it against the CRD (MLP002).
  return spec as unknown as ServingRuntimeSpec;
}
