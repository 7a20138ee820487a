import {
  DEFAULT_INFERENCESERVICE_CONFIG,
  INFERENCESERVICE_CONFIG_KEYS,
  mergeInferenceServiceConfig,
  renderInferenceServiceConfig,
} from '../../../constructs/kserve/config';
import { clusterServingRuntimeSpec, DEFAULT_CLUSTER_SERVING_RUNTIMES } from '../../../constructs/kserve/runtimes';
import { KSERVE_IMAGES, KSERVE_VERSION, kserveImage } from '../../../constructs/kserve/versions';

const render = (overrides = {}) =>
  renderInferenceServiceConfig(mergeInferenceServiceConfig(DEFAULT_INFERENCESERVICE_CONFIG, overrides), kserveImage);

describe('inferenceservice-config rendering', () => {
  test('renders every default key as JSON in a fixed order', () => {
    const data = render();
    expect(Object.keys(data)).toEqual([
      'explainers', 'storageInitializer', 'credentials', 'ingress', 'logger', 'batcher', 'agent', 'router',
      'deploy', 'metricsAggregator', 'localModel', 'security', 'inferenceService', 'opentelemetryCollector', 'autoscaler',
    ]);
    for (const v of Object.values(data)) expect(() => JSON.parse(v)).not.toThrow();
    expect(INFERENCESERVICE_CONFIG_KEYS).toContain('service');
  });

  test('images come from the versions table', () => {
    const data = render();
    expect(JSON.parse(data.storageInitializer).image).toBe(`kserve/storage-initializer:${KSERVE_VERSION}`);
    expect(JSON.parse(data.agent).image).toBe(`kserve/agent:${KSERVE_VERSION}`);
    expect(JSON.parse(data.router).image).toBe(`kserve/router:${KSERVE_VERSION}`);
    expect(JSON.parse(data.localModel).defaultJobImage).toBe(`kserve/storage-initializer:${KSERVE_VERSION}`);
    expect(JSON.parse(data.explainers)).toEqual({ art: { image: 'kserve/art-explainer', defaultImageVersion: KSERVE_VERSION } });
  });

  test('a few upstream default values', () => {
    const data = render();
    expect(JSON.parse(data.deploy)).toEqual({ defaultDeploymentMode: 'Serverless' });
    const ingress = JSON.parse(data.ingress);
    expect(ingress.ingressGateway).toBe('knative-serving/knative-ingress-gateway');
    expect(ingress.ingressDomain).toBe('example.com');
    expect(ingress.domainTemplate).toBe('{{ .Name }}-{{ .Namespace }}.{{ .IngressDomain }}');
    expect(JSON.parse(data.batcher)).toMatchObject({ maxBatchSize: '32', maxLatency: '5000' });
    expect(JSON.parse(data.storageInitializer)).toMatchObject({ enableModelcar: true, uidModelcar: 1010 });
    expect(JSON.parse(data.credentials).s3.s3AccessKeyIDName).toBe('AWS_ACCESS_KEY_ID');
  });

  test('rendering is deterministic and 2-space indented', () => {
    expect(render()).toEqual(render());
    expect(render().security).toBe('{\n  "autoMountServiceAccountToken": true\n}');
  });

  test('overriding one nested field keeps its siblings', () => {
    const merged = mergeInferenceServiceConfig(DEFAULT_INFERENCESERVICE_CONFIG, {
      credentials: { s3: { s3Endpoint: 'minio.minio.svc:9000' } },
      ingress: { ingressDomain: 'models.example.org' },
    });
    expect(merged.credentials.s3.s3Endpoint).toBe('minio.minio.svc:9000');
    expect(merged.credentials.s3.s3AccessKeyIDName).toBe('AWS_ACCESS_KEY_ID');
    expect(merged.credentials.gcs).toEqual(DEFAULT_INFERENCESERVICE_CONFIG.credentials.gcs);
    expect(merged.ingress.ingressGateway).toBe(DEFAULT_INFERENCESERVICE_CONFIG.ingress.ingressGateway);
    expect(DEFAULT_INFERENCESERVICE_CONFIG.credentials.s3.s3Endpoint).toBe('');
  });

  test('arrays are replaced, not merged', () => {
    const base = mergeInferenceServiceConfig(DEFAULT_INFERENCESERVICE_CONFIG, { router: { imagePullSecrets: ['a', 'b'] } });
    const merged = mergeInferenceServiceConfig(base, { router: { imagePullSecrets: ['c'] } });
    expect(merged.router.imagePullSecrets).toEqual(['c']);
  });

  test('optional keys render only when set', () => {
    expect(render().service).toBeUndefined();
    const data = render({ service: { serviceClusterIPNone: true }, multiNode: { customGPUResourceTypeList: ['custom.com/gpu'] } });
    expect(JSON.parse(data.service)).toEqual({ serviceClusterIPNone: true });
    expect(JSON.parse(data.multiNode)).toEqual({ customGPUResourceTypeList: ['custom.com/gpu'] });
  });

  test('v0.20.0 defaults: HPA stabilisation windows, OTel collector resources, local-model job settings', () => {
    const data = render();
    expect(JSON.parse(data.autoscaler)).toEqual({ scaleUpStabilizationWindowSeconds: '0', scaleDownStabilizationWindowSeconds: '300' });
    expect(JSON.parse(data.opentelemetryCollector).resource).toEqual({ cpuLimit: '1', memoryLimit: '2Gi', cpuRequest: '200m', memoryRequest: '512Mi' });
    expect(JSON.parse(data.localModel)).toMatchObject({ jobTTLSecondsAfterFinished: 3600, reconcilationFrequencyInSecs: 60, disableVolumeManagement: false });
    expect(JSON.parse(data.credentials).s3.s3CABundleConfigMap).toBe('');
    expect(JSON.parse(data.ingress).disableHTTPRouteTimeout).toBe(false);
    expect(JSON.parse(data.storageInitializer).enableDirectPvcVolumeMount).toBeUndefined();
  });

  test('fails when deploy.defaultDeploymentMode is not a supported mode', () => {
    expect(() => render({ deploy: { defaultDeploymentMode: 'Raw' } })).toThrow(
      'inferenceservice-config: deploy.defaultDeploymentMode is "Raw"; must be one of Knative|Standard|ModelMesh|Serverless|RawDeployment',
    );
  });

  test('fails when ingress.ingressDomain is not a DNS name', () => {
    expect(() => render({ ingress: { ingressDomain: 'Not A Domain' } })).toThrow(
      'inferenceservice-config: ingress.ingressDomain is "Not A Domain"; must be a lower-case DNS name such as "example.com"',
    );
  });

  test('fails when a resource quantity is malformed', () => {
    expect(() => render({ storageInitializer: { memoryLimit: '1 GB' } })).toThrow(
      'inferenceservice-config: storageInitializer.memoryLimit is "1 GB"; must be a Kubernetes quantity such as "500m", "1", "512Mi" or "2Gi"',
    );
  });

  test('inferenceService.resource may be "" to unbind a value', () => {
    expect(() => render({ inferenceService: { resource: { cpuLimit: '' } } })).not.toThrow();
  });

  test('fails when kserveIngressGateway is not namespace/name with Gateway API on', () => {
    expect(() => render({ ingress: { enableGatewayApi: true, kserveIngressGateway: 'gateway' } })).toThrow(
      'inferenceservice-config: ingress.kserveIngressGateway is "gateway"; must be "<namespace>/<name>" with both parts DNS labels, e.g. "kserve/kserve-ingress-gateway"',
    );
  });

  test('fails when batcher.maxBatchSize is not a whole number string', () => {
    expect(() => render({ batcher: { maxBatchSize: 'many' } })).toThrow(
      'inferenceservice-config: batcher.maxBatchSize is "many"; must be a whole number written as a string, e.g. "32"',
    );
  });

  test('fails when router.imagePullPolicy is unknown', () => {
    expect(() => render({ router: { imagePullPolicy: 'Sometimes' } })).toThrow(
      'inferenceservice-config: router.imagePullPolicy is "Sometimes"; must be one of Always|IfNotPresent|Never',
    );
  });
});

describe('versions table', () => {
  test('no image tag is latest or empty', () => {
    for (const [key, img] of Object.entries(KSERVE_IMAGES)) {
      expect({ key, tag: img.tag }).not.toEqual({ key, tag: 'latest' });
      expect(img.tag).not.toMatch(/^latest/);
      expect(img.tag.length).toBeGreaterThan(0);
      expect(img.repository).not.toContain(':');
    }
  });

  test('KServe-built images carry the release tag', () => {
    expect(KSERVE_IMAGES.controller).toEqual({ repository: 'kserve/kserve-controller', tag: KSERVE_VERSION });
    expect(KSERVE_IMAGES.sklearnserver.tag).toBe(KSERVE_VERSION);
  });
});

describe('default ClusterServingRuntimes', () => {
  test('every runtime imageKey exists in KSERVE_IMAGES', () => {
    for (const rt of DEFAULT_CLUSTER_SERVING_RUNTIMES) {
      expect(Object.keys(KSERVE_IMAGES)).toContain(rt.imageKey);
    }
  });

  test('runtime names are unique', () => {
    const names = DEFAULT_CLUSTER_SERVING_RUNTIMES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([
      'kserve-sklearnserver', 'kserve-xgbserver', 'kserve-lgbserver', 'kserve-paddleserver', 'kserve-pmmlserver',
      'kserve-tensorflow-serving', 'kserve-torchserve', 'kserve-tritonserver', 'kserve-mlserver',
      'kserve-huggingfaceserver', 'kserve-huggingfaceserver-multinode',
    ]));
  });

  test('sklearn runtime auto-selects sklearn and speaks v1 and v2', () => {
    const rt = DEFAULT_CLUSTER_SERVING_RUNTIMES.find((r) => r.name === 'kserve-sklearnserver')!;
    expect(rt.supportedModelFormats).toContainEqual(expect.objectContaining({ name: 'sklearn', version: '1', autoSelect: true }));
    expect(rt.protocolVersions).toEqual(['v1', 'v2']);
  });

  test('renders a spec with kserve-container and the given image', () => {
    const rt = DEFAULT_CLUSTER_SERVING_RUNTIMES.find((r) => r.name === 'kserve-tritonserver')!;
    const spec = clusterServingRuntimeSpec(rt, kserveImage(rt.imageKey)) as any;
    expect(spec.containers).toHaveLength(1);
    expect(spec.containers[0].name).toBe('kserve-container');
    expect(spec.containers[0].image).toBe('nvcr.io/nvidia/tritonserver:23.05-py3');
    expect(spec.containers[0].securityContext).toMatchObject({ runAsUser: 1000, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(spec.annotations['prometheus.kserve.io/port']).toBe('8002');
    expect(spec.protocolVersions).toEqual(['v2', 'grpc-v2']);
  });

  test('every runtime renders', () => {
    for (const rt of DEFAULT_CLUSTER_SERVING_RUNTIMES) {
      const spec = clusterServingRuntimeSpec(rt, kserveImage(rt.imageKey)) as any;
      expect(spec.containers[0].resources.requests.cpu).toBeDefined();
    }
    const mn = DEFAULT_CLUSTER_SERVING_RUNTIMES.find((r) => r.name === 'kserve-huggingfaceserver-multinode')!;
    const spec = clusterServingRuntimeSpec(mn, kserveImage(mn.imageKey)) as any;
    expect(spec.workerSpec.containers[0].name).toBe('worker-container');
    expect(spec.containers[0].env).toContainEqual({ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } });
  });

  test('fails when given a latest image', () => {
    expect(() => clusterServingRuntimeSpec(DEFAULT_CLUSTER_SERVING_RUNTIMES[0], 'tensorflow/serving:latest')).toThrow(
      'clusterServingRuntimeSpec(kserve-tensorflow-serving): image is "tensorflow/serving:latest"; pass a pinned image reference (not "latest") from KSERVE_IMAGES["tensorflowServing"]',
    );
  });
});
