/**
 * The LLMInferenceServiceConfig presets KServe v0.20.0 installs in its own namespace. The
 * LLMInferenceService controller looks them up by name (`kserve-config-llm-*`) and merges
 * them under each LLMInferenceService, so they must exist for LLMInferenceServices to work.
 *
 * Facts (names, images, ports, probes, volumes, template expressions) from KServe
 * v0.20.0's install; the structure is built here from small pieces, and the launch
 * scripts are our own (./llm-launcher.ts).
 */
import { LaunchRole, vllmLaunchScript } from './llm-launcher';
import { KServeImageKey } from './versions';
import type { V1Container, V1PodSpec, V1Probe, V1Volume } from '../../imports/k8s/core';
import type { HTTPRouteFilter, HTTPRouteRule, LLMInferenceServiceConfigSpec } from '../../imports/serving.kserve.io';

type Image = (key: KServeImageKey) => string;

/** Controller template expressions, filled per LLMInferenceService at run time. */
const T = {
  scheme: '{{ if .GlobalConfig.EnableTLS }}HTTPS{{else}}HTTP{{- end }}',
  childTls: '{{ ChildName .ObjectMeta.Name `-kserve-self-signed-certs` }}',
  pool: '{{ ChildName .ObjectMeta.Name `-inference-pool` }}',
  eppService: '{{ ChildName .ObjectMeta.Name `-epp-service` }}',
  workloadService: '{{ ChildName .ObjectMeta.Name `-kserve-workload-svc` }}',
  name: '{{ .ObjectMeta.Name }}',
  namespace: '{{ .ObjectMeta.Namespace }}',
  model: '{{ .Spec.Model.Name }}',
  ifTls: (flag: string) => `{{ if .GlobalConfig.EnableTLS }}${flag}{{- end }}`,
};

const TLS_DIR = '/var/run/kserve/tls';
const SSL_CERT_DIR = { name: 'SSL_CERT_DIR', value: `${TLS_DIR}:/var/run/secrets/kubernetes.io/serviceaccount:/etc/pki/tls/certs` };
/** Seconds the pods sleep before stopping (vLLM's shutdown timeout leaves them out). */
const PRE_STOP_SECONDS = 15;
const PRE_STOP = { preStop: { exec: { command: ['/bin/sleep', String(PRE_STOP_SECONDS)] } } };
const RESTRICTED = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
const MODEL_ROUTING = { 'serving.kserve.io/model-based-routing-enabled': 'true' };

const healthProbe = (port: number, p: Omit<V1Probe, 'httpGet'>): V1Probe => ({ httpGet: { path: '/health', port, scheme: T.scheme }, ...p });

interface VllmOptions {
  readonly role: LaunchRole;
  /** vLLM's port: 8001 behind the prefill/decode routing sidecar, 8000 otherwise. */
  readonly port: number;
  /** Data-parallel pods need RDMA capabilities. */
  readonly rdma: boolean;
  readonly probes: boolean;
  /** A prefill pod (settings from spec.prefill). */
  readonly prefill: boolean;
  readonly extraEnv?: Array<{ name: string; value: string }>;
  readonly terminationMessagePolicy?: string;
}

function vllmContainer(image: Image, o: VllmOptions): V1Container {
  return {
    name: 'main',
    image: image('llmdCuda'),
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/bash', '-c', vllmLaunchScript({ role: o.role, port: o.port, prefill: o.prefill, preStopSeconds: PRE_STOP_SECONDS }), '--'],
    env: [{ name: 'HOME', value: '/home' }, { name: 'VLLM_LOGGING_LEVEL', value: 'INFO' }, { name: 'HF_HUB_CACHE', value: '/models' }, ...(o.extraEnv ?? [])],
    lifecycle: PRE_STOP,
    ...(o.probes ? {
      livenessProbe: healthProbe(o.port, { failureThreshold: 10, periodSeconds: 10, timeoutSeconds: 1 }),
      readinessProbe: healthProbe(o.port, { failureThreshold: 2, periodSeconds: 1, timeoutSeconds: 1 }),
      startupProbe: healthProbe(o.port, { failureThreshold: 60, periodSeconds: 10 }),
    } : {}),
    ports: [{ containerPort: o.port, protocol: 'TCP' }],
    // vLLM writes caches under its home and compiles kernels: no read-only root file system.
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { ...(o.rdma ? { add: ['IPC_LOCK', 'SYS_RAWIO', 'NET_RAW'] } : {}), drop: ['ALL'] },
      readOnlyRootFilesystem: false,
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: o.terminationMessagePolicy ?? 'FallbackToLogsOnError',
    volumeMounts: [
      { mountPath: '/home', name: 'home' },
      { mountPath: '/tmp', name: 'tmp-dir' },
      { mountPath: '/dev/shm', name: 'dshm' },
      { mountPath: '/models', name: 'model-cache' },
      { mountPath: TLS_DIR, name: 'tls-certs', readOnly: true },
    ],
  };
}

/** The pod volumes; `dshmFirst` keeps the order of the single-node template. */
function vllmVolumes(shm: string, dshmFirst: boolean): V1Volume[] {
  const dshm: V1Volume = { name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: shm } };
  const tmp: V1Volume = { name: 'tmp-dir', emptyDir: {} };
  const cache: V1Volume = { name: 'model-cache', emptyDir: {} };
  return [
    { name: 'home', emptyDir: {} },
    ...(dshmFirst ? [dshm, cache, tmp] : [tmp, dshm, cache]),
    { name: 'tls-certs', secret: { secretName: T.childTls } },
  ];
}

/** The prefill/decode routing sidecar in front of a decode vLLM (a native sidecar: an always-restarting init container). */
function routingSidecar(image: Image, dataParallel: boolean): V1Container {
  const probe = (p: Omit<V1Probe, 'httpGet'>): V1Probe => healthProbe(8000, { initialDelaySeconds: 10, periodSeconds: 10, ...p });
  return {
    name: 'llm-d-routing-sidecar',
    image: image('llmdRoutingSidecar'),
    imagePullPolicy: 'IfNotPresent',
    command: [
      '/app/pd-sidecar', '--port=8000', '--vllm-port=8001', '--kv-connector=nixlv2', '--enable-ssrf-protection=true',
      '--pool-group=inference.networking.x-k8s.io', '--inference-pool={{ .GlobalConfig.InferencePoolNamespacedName }}',
      '{{ if .GlobalConfig.EnableTLS }}--secure-proxy=true{{else}}--secure-proxy=false{{- end }}',
      T.ifTls(`--cert-path=${TLS_DIR}`), T.ifTls('--enable-tls=decoder'), T.ifTls('--enable-tls=prefiller'),
    ],
    env: [{ name: 'INFERENCE_POOL_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, SSL_CERT_DIR],
    livenessProbe: probe({ failureThreshold: 3, timeoutSeconds: 10 }),
    ports: [{ containerPort: 8000, protocol: 'TCP' }],
    readinessProbe: probe({ failureThreshold: 10, timeoutSeconds: 5 }),
    // As upstream: the single-node variant sets empty resources, the data-parallel one a seccomp profile.
    ...(dataParallel ? {} : { resources: {} }),
    restartPolicy: 'Always',
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: false, runAsNonRoot: true, ...(dataParallel ? { seccompProfile: { type: 'RuntimeDefault' } } : {}) },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ mountPath: TLS_DIR, name: 'tls-certs', readOnly: true }],
  };
}

interface PodOptions {
  readonly role: LaunchRole;
  readonly decode?: boolean;
  readonly prefill?: boolean;
  readonly terminationMessagePolicy?: string;
}

function vllmPod(image: Image, o: PodOptions): V1PodSpec {
  const dp = o.role !== 'single';
  const port = o.decode ? 8001 : 8000;
  return {
    // Only the pod that receives requests (not a data-parallel worker) has the routing sidecar.
    ...(o.decode && o.role !== 'data-parallel-worker' ? { initContainers: [routingSidecar(image, dp)] } : {}),
    containers: [vllmContainer(image, {
      role: o.role,
      port,
      rdma: dp,
      probes: o.role !== 'data-parallel-worker',
      prefill: o.prefill ?? false,
      extraEnv: o.decode && o.role === 'data-parallel-worker' ? [{ name: 'VLLM_RANDOMIZE_DP_DUMMY_INPUTS', value: '1' }] : undefined,
      terminationMessagePolicy: o.terminationMessagePolicy,
    })],
    terminationGracePeriodSeconds: 60,
    volumes: vllmVolumes(dp ? '8Gi' : '1Gi', !o.decode && !o.terminationMessagePolicy && !dp),
  };
}

// --- router: HTTPRoute and scheduler -------------------------------------------------

const poolBackend = { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: T.pool, port: 8000, weight: 1 };
const serviceBackend = { kind: 'Service', name: T.workloadService, port: 8000, weight: 1 };
const NO_TIMEOUTS = { backendRequest: '0s', request: '0s' };
const rewrite = (to: string): HTTPRouteFilter[] => [{ type: 'URLRewrite', urlRewrite: { path: { replacePrefixMatch: to, type: 'ReplacePrefixMatch' } } }];
const modelHeader = { name: '{{ .GlobalConfig.ModelBasedRoutingHeaderName }}', type: 'Exact' as const, value: `publishers/${T.namespace}/models/${T.model}` };
const OPENAI_PATHS: Array<[string, string]> = [['completions', '/v1/completions'], ['chat-completions', '/v1/chat/completions'], ['responses', '/v1/responses'], ['messages', '/v1/messages']];

function routeRules(): HTTPRouteRule[] {
  const prefixRule = (name: string, prefix: string, to: string): HTTPRouteRule => ({
    backendRefs: [poolBackend], filters: rewrite(to), matches: [{ path: { type: 'PathPrefix', value: `${prefix}${to}` } }], name, timeouts: NO_TIMEOUTS,
  });
  const byName = `/${T.namespace}/${T.name}`;
  const byPublisher = `/publishers/${T.namespace}/models/${T.model}`;
  return [
    ...OPENAI_PATHS.map(([n, p]) => prefixRule(`v1-${n}-path`, byName, p)),
    {
      backendRefs: [poolBackend],
      matches: OPENAI_PATHS.flatMap(([, p]) => [p, `${p}/`]).map((value) => ({ headers: [modelHeader], path: { type: 'Exact', value } })),
      name: 'v1-model-routing',
      timeouts: NO_TIMEOUTS,
    },
    ...OPENAI_PATHS.map(([n, p]) => prefixRule(`v1-${n}-publisher-path`, byPublisher, p)),
    { backendRefs: [serviceBackend], filters: rewrite('/'), matches: [{ path: { type: 'PathPrefix', value: byPublisher } }], name: 'v1-publisher-path-catch-all', timeouts: NO_TIMEOUTS },
    { backendRefs: [serviceBackend], filters: rewrite('/'), matches: [{ path: { type: 'PathPrefix', value: byName } }], name: 'v1-catch-all-path', timeouts: NO_TIMEOUTS },
    { backendRefs: [serviceBackend], matches: [{ headers: [modelHeader] }], name: 'v1-catch-all-model-routing', timeouts: NO_TIMEOUTS },
  ];
}

function schedulerPod(image: Image): V1PodSpec {
  const grpcProbe = (service: string, initialDelaySeconds: number): V1Probe => ({
    failureThreshold: 3, grpc: { port: 9003, service }, initialDelaySeconds, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1,
  });
  const tokenizerProbe = (p: Omit<V1Probe, 'httpGet'>): V1Probe => ({ httpGet: { path: '/healthz', port: 8082 }, ...p });
  return {
    containers: [
      {
        name: 'main',
        image: image('llmdEndpointPicker'),
        imagePullPolicy: 'IfNotPresent',
        command: [
          '/app/epp', '--pool-name', T.pool, '--pool-namespace', T.namespace, '--zap-encoder', 'json', '--grpc-port', '9002', '--grpc-health-port', '9003',
          T.ifTls('--enable-cert-reload=true'), T.ifTls('--secure-serving=true'), T.ifTls('--model-server-metrics-scheme=https'), T.ifTls(`--cert-path=${TLS_DIR}`),
        ],
        env: [SSL_CERT_DIR],
        lifecycle: PRE_STOP,
        livenessProbe: grpcProbe('liveness', 5),
        ports: [
          { containerPort: 9002, name: 'grpc', protocol: 'TCP' },
          { containerPort: 9003, name: 'grpc-health', protocol: 'TCP' },
          { containerPort: 9090, name: 'metrics', protocol: 'TCP' },
          { containerPort: 5557, name: 'zmq', protocol: 'TCP' },
        ],
        readinessProbe: grpcProbe('readiness', 30),
        resources: { limits: { cpu: 6, memory: '16Gi' }, requests: { cpu: 1, memory: '2Gi' } },
        securityContext: RESTRICTED,
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'FallbackToLogsOnError',
        volumeMounts: [{ mountPath: TLS_DIR, name: 'tls-certs', readOnly: true }, { mountPath: '/tmp/tokenizer', name: 'tokenizer-uds' }],
      },
      {
        name: 'tokenizer',
        image: image('llmdUdsTokenizer'),
        imagePullPolicy: 'IfNotPresent',
        env: [{ name: 'TOKENIZERS_DIR', value: '/mnt/models' }],
        livenessProbe: tokenizerProbe({ failureThreshold: 3, periodSeconds: 15, timeoutSeconds: 5 }),
        ports: [{ containerPort: 8082, name: 'health', protocol: 'TCP' }],
        readinessProbe: tokenizerProbe({ failureThreshold: 3, periodSeconds: 10, timeoutSeconds: 5 }),
        resources: { requests: { cpu: '256m', memory: '500Mi' } },
        securityContext: RESTRICTED,
        startupProbe: tokenizerProbe({ failureThreshold: 60, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 }),
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'FallbackToLogsOnError',
        volumeMounts: [{ mountPath: '/tmp', name: 'tokenizer-tmp' }, { mountPath: '/.cache', name: 'tokenizer-cache' }, { mountPath: '/tmp/tokenizer', name: 'tokenizer-uds' }],
        workingDir: '/mnt/models',
      },
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 60,
    volumes: [
      { name: 'tls-certs', secret: { secretName: T.childTls } },
      { name: 'tokenizer-uds', emptyDir: {} },
      { name: 'tokenizer-tmp', emptyDir: {} },
      { name: 'tokenizer-cache', emptyDir: {} },
    ],
  };
}

const env = (pairs: Record<string, string>) => Object.entries(pairs).map(([name, value]) => ({ name, value }));

/** The latency predictor's two servers, merged into the scheduler pod by container name. */
function latencyPredictorPod(image: Image): V1PodSpec {
  const server = (name: string, key: KServeImageKey, port: number, portName: string, mount: string, e: Record<string, string>, extra: Partial<V1Container>): V1Container => ({
    name,
    image: image(key),
    imagePullPolicy: 'IfNotPresent',
    env: env(e),
    ports: [{ containerPort: port, name: portName }],
    securityContext: RESTRICTED,
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ mountPath: mount, name: `${name}-storage` }, { mountPath: '/tmp', name: `${name}-tmp` }],
    ...extra,
  });
  const models = (dir: string, prefix: string) => Object.fromEntries(
    [['TTFT_MODEL', 'ttft'], ['TPOT_MODEL', 'tpot'], ['TTFT_SCALER', 'ttft_scaler'], ['TPOT_SCALER', 'tpot_scaler'], ['TTFT_GATED_MODEL', 'ttft_gated'], ['TPOT_GATED_MODEL', 'tpot_gated']]
      .map(([k, f]) => [`${prefix}${k}_PATH`, `${dir}/${f}.joblib`]),
  );
  return {
    containers: [
      { name: 'main', env: env({ PREDICTION_SERVER_URL: 'http://localhost:8001', TRAINING_SERVER_URL: 'http://localhost:8000', LATENCY_MAX_SAMPLE_SIZE: '10000', LATENCY_MAX_CONCURRENT_DISPATCHES: '36', LATENCY_COALESCE_WINDOW_MS: '1' }) },
      server('training-server', 'llmdLatencyTraining', 8000, 'training-port', '/models', {
        LATENCY_RETRAINING_INTERVAL_SEC: '10',
        LATENCY_MIN_SAMPLES_FOR_RETRAIN: '100',
        ...models('/models', 'LATENCY_'),
        LATENCY_MODEL_TYPE: 'xgboost',
        LATENCY_MAX_TRAINING_DATA_SIZE_PER_BUCKET: '500',
        LATENCY_OBJECTIVE_TYPE: 'mean',
      }, {
        livenessProbe: { httpGet: { path: '/healthz', port: 8000 }, initialDelaySeconds: 30, periodSeconds: 20 },
        readinessProbe: { httpGet: { path: '/readyz', port: 8000 }, initialDelaySeconds: 45, periodSeconds: 10 },
        resources: { limits: { cpu: '4000m', memory: '8Gi' }, requests: { cpu: '2000m', memory: '4Gi' } },
        startupProbe: { failureThreshold: 30, httpGet: { path: '/healthz', port: 8000 }, periodSeconds: 10 },
      }),
      server('prediction-server', 'llmdLatencyPrediction', 8001, 'predict-port', '/server_models', {
        TRAINING_SERVER_URL: 'http://localhost:8000',
        LATENCY_MODEL_TYPE: 'xgboost',
        PREDICT_HOST: '0.0.0.0',
        PREDICT_PORT: '8001',
        ...models('/server_models', 'LOCAL_'),
        UVICORN_WORKERS: '28',
        OMP_NUM_THREADS: '1',
        MODEL_SYNC_INTERVAL_SEC: '30',
        LATENCY_OBJECTIVE_TYPE: 'mean',
      }, {
        livenessProbe: { failureThreshold: 5, httpGet: { path: '/healthz', port: 8001 }, initialDelaySeconds: 15, periodSeconds: 15, timeoutSeconds: 5 },
        readinessProbe: { failureThreshold: 3, httpGet: { path: '/readyz', port: 8001 }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 5 },
        resources: { limits: { cpu: '28000m', memory: '8Gi' }, requests: { cpu: '8000m', memory: '4Gi' } },
        startupProbe: { failureThreshold: 60, httpGet: { path: '/readyz', port: 8001 }, periodSeconds: 10 },
      }),
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 60,
    volumes: [
      { name: 'training-server-storage', emptyDir: { sizeLimit: '20Gi' } },
      { name: 'prediction-server-storage', emptyDir: { sizeLimit: '10Gi' } },
      { name: 'training-server-tmp', emptyDir: {} },
      { name: 'prediction-server-tmp', emptyDir: {} },
    ],
  };
}

/** Every preset by name: name -> spec, given the image resolver. */
export function llmInferenceServiceConfigPresets(image: Image): Record<string, LLMInferenceServiceConfigSpec> {
  const single = (decode = false) => vllmPod(image, { role: 'single', decode });
  const dp = (decode = false, prefill = false) => ({
    template: vllmPod(image, { role: 'data-parallel-leader', decode, prefill }),
    worker: vllmPod(image, { role: 'data-parallel-worker', decode, prefill }),
  });
  return {
    'kserve-config-llm-decode-template': { annotations: MODEL_ROUTING, template: single(true) },
    'kserve-config-llm-decode-worker-data-parallel': { annotations: MODEL_ROUTING, ...dp(true) },
    'kserve-config-llm-prefill-template': { prefill: { annotations: MODEL_ROUTING, template: vllmPod(image, { role: 'single', prefill: true, terminationMessagePolicy: 'File' }) } },
    'kserve-config-llm-prefill-worker-data-parallel': { prefill: { annotations: MODEL_ROUTING, ...dp(false, true) } },
    'kserve-config-llm-router-route': {
      router: {
        route: {
          http: {
            spec: {
              parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: '{{ .GlobalConfig.IngressGatewayName }}', namespace: '{{ .GlobalConfig.IngressGatewayNamespace }}' }],
              rules: routeRules(),
            },
          },
        },
      },
    },
    'kserve-config-llm-scheduler': {
      router: {
        scheduler: {
          annotations: { 'app.kubernetes.io/version': '0.9.0' },
          pool: {
            spec: {
              endpointPickerRef: { failureMode: 'FailOpen', kind: 'Service', name: T.eppService, port: { number: 9002 } },
              selector: { matchLabels: { 'app.kubernetes.io/name': T.name, 'app.kubernetes.io/part-of': 'llminferenceservice', 'kserve.io/component': 'workload' } },
              targetPorts: [{ number: 8000 }],
            },
          },
          template: schedulerPod(image),
        },
      },
    },
    'kserve-config-llm-scheduler-latency-predictor': { router: { scheduler: { template: latencyPredictorPod(image) } } },
    'kserve-config-llm-template': { annotations: MODEL_ROUTING, template: single() },
    'kserve-config-llm-tracing': { tracing: { exporter: 'otlp', exporterEndpoint: 'http://otel-collector:4317', sampler: 'parentbased_traceidratio', samplerArg: '0.05' } },
    'kserve-config-llm-worker-data-parallel': { annotations: MODEL_ROUTING, ...dp() },
  };
}
