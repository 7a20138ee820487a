import { ClusterServingRuntimeSpec } from '../../imports/serving.kserve.io';
import { ImageSpec } from '../../lib/images';

/** One of the multi-model runtimes ModelMesh installs, with its model server image. */
export interface ModelMeshRuntime {
  readonly name: string;
  /** Key of the model server image in MODELMESH_RUNTIME_IMAGES. */
  readonly imageKey: string;
  readonly annotations?: Record<string, string>;
  readonly spec: (image: string) => ClusterServingRuntimeSpec;
}

/**
 * Model server images of the default runtimes: the tags of upstream's config/runtimes as
 * rendered at v0.12.0 (commit d0e56fa).
 */
export const MODELMESH_RUNTIME_IMAGES: Readonly<Record<string, ImageSpec>> = {
  tritonserver: { repository: 'nvcr.io/nvidia/tritonserver', tag: '23.04-py3' },
  mlserver: { repository: 'seldonio/mlserver', tag: '1.3.2' },
  ovms: { repository: 'openvino/model_server', tag: '2022.2' },
  torchserve: { repository: 'pytorch/torchserve', tag: '0.7.1-cpu' },
};

const RESOURCES = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '5', memory: '1Gi' } };
/** The adapter's defaults shared by every built-in runtime: 128 MiB buffer, 90 s to load a model. */
const adapter = (serverType: string, runtimeManagementPort: number) => ({ serverType, runtimeManagementPort, memBufferBytes: 134217728, modelLoadingTimeoutMillis: 90000 });

/**
 * The four runtimes ModelMesh installs (cluster-scope mode: ClusterServingRuntimes). Each
 * model server listens on localhost only; the ModelMesh container in the same pod fronts it.
 */
export const MODELMESH_RUNTIMES: readonly ModelMeshRuntime[] = [
  {
    name: 'triton-2.x',
    imageKey: 'tritonserver',
    // Triton loads at most two models at once.
    annotations: { maxLoadingConcurrency: '2' },
    spec: (image) => ({
      supportedModelFormats: [
        { name: 'keras', version: '2', autoSelect: true },
        { name: 'onnx', version: '1', autoSelect: true },
        { name: 'pytorch', version: '1', autoSelect: true },
        { name: 'tensorflow', version: '1', autoSelect: true },
        { name: 'tensorflow', version: '2', autoSelect: true },
        { name: 'tensorrt', version: '7', autoSelect: true },
        // Triton's FIL backend serves these when asked by name; MLServer is auto-selected for them.
        { name: 'sklearn', version: '0', autoSelect: false },
        { name: 'xgboost', version: '1', autoSelect: false },
        { name: 'lightgbm', version: '3', autoSelect: false },
      ],
      protocolVersions: ['grpc-v2'],
      multiModel: true,
      grpcEndpoint: 'port:8085',
      grpcDataEndpoint: 'port:8001',
      containers: [{
        name: 'triton',
        image,
        command: ['/bin/sh'],
        // Creates the model repository the adapter writes to, then runs Triton in explicit model-control mode.
        args: ['-c', [
          'mkdir -p /models/_triton_models;', 'chmod 777 /models/_triton_models;', 'exec tritonserver',
          '"--model-repository=/models/_triton_models"', '"--model-control-mode=explicit"', '"--strict-model-config=false"',
          '"--strict-readiness=false"', '"--allow-http=true"', '"--allow-sagemaker=false"',
        ].join(' ')],
        resources: RESOURCES,
        // The server listens on 127.0.0.1 only, so the probe runs inside the container.
        livenessProbe: {
          exec: { command: ['curl', '--fail', '--silent', '--show-error', '--max-time', '9', 'http://localhost:8000/v2/health/live'] },
          initialDelaySeconds: 5,
          periodSeconds: 30,
          timeoutSeconds: 10,
        },
      }],
      builtInAdapter: adapter('triton', 8001),
    }),
  },
  {
    name: 'mlserver-1.x',
    imageKey: 'mlserver',
    spec: (image) => ({
      supportedModelFormats: [
        { name: 'sklearn', version: '0', autoSelect: true },
        { name: 'xgboost', version: '1', autoSelect: true },
        { name: 'lightgbm', version: '3', autoSelect: true },
      ],
      protocolVersions: ['grpc-v2'],
      multiModel: true,
      grpcEndpoint: 'port:8085',
      grpcDataEndpoint: 'port:8001',
      containers: [{
        name: 'mlserver',
        image,
        env: [
          { name: 'MLSERVER_MODELS_DIR', value: '/models/_mlserver_models/' },
          { name: 'MLSERVER_GRPC_PORT', value: '8001' },
          // 8080 is ModelMesh's own (litelinks) port.
          { name: 'MLSERVER_HTTP_PORT', value: '8002' },
          { name: 'MLSERVER_LOAD_MODELS_AT_STARTUP', value: 'false' },
          // A placeholder model name: MLServer fails repository calls without one.
          { name: 'MLSERVER_MODEL_NAME', value: 'dummy-model-fixme' },
          { name: 'MLSERVER_HOST', value: '127.0.0.1' },
          // Unlimited here: ModelMesh enforces the message size.
          { name: 'MLSERVER_GRPC_MAX_MESSAGE_LENGTH', value: '-1' },
        ],
        resources: RESOURCES,
      }],
      builtInAdapter: adapter('mlserver', 8001),
    }),
  },
  {
    name: 'ovms-1.x',
    imageKey: 'ovms',
    spec: (image) => ({
      supportedModelFormats: [
        { name: 'openvino_ir', version: 'opset1', autoSelect: true },
        { name: 'onnx', version: '1' },
      ],
      protocolVersions: ['grpc-v1'],
      multiModel: true,
      grpcEndpoint: 'port:8085',
      grpcDataEndpoint: 'port:8001',
      containers: [{
        name: 'ovms',
        image,
        args: [
          '--port=8001', '--rest_port=8888', '--config_path=/models/model_config_list.json',
          // The adapter triggers reloads through /v1/config/reload.
          '--file_system_poll_wait_seconds=0', '--grpc_bind_address=127.0.0.1', '--rest_bind_address=127.0.0.1',
        ],
        resources: RESOURCES,
      }],
      builtInAdapter: adapter('ovms', 8888),
    }),
  },
  {
    name: 'torchserve-0.x',
    imageKey: 'torchserve',
    spec: (image) => ({
      supportedModelFormats: [{ name: 'pytorch-mar', version: '0', autoSelect: true }],
      multiModel: true,
      grpcEndpoint: 'port:8085',
      grpcDataEndpoint: 'port:7070',
      containers: [{
        name: 'torchserve',
        image,
        // The adapter writes the config file; TorchServe starts once it exists.
        args: ['while [ ! -e "$TS_CONFIG_FILE" ]; do echo "waiting for config file..."; sleep 1; done;', 'exec', 'torchserve', '--start', '--foreground'],
        env: [{ name: 'TS_CONFIG_FILE', value: '/models/_torchserve_models/mmconfig.properties' }],
        resources: RESOURCES,
      }],
      builtInAdapter: adapter('torchserve', 7071),
    }),
  },
];
