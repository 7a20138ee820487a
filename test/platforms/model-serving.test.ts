import { build, pinnable } from './helpers';
import { applyOrder, objectCounts, platformReport, wiringTable } from '../../lib/report';
import { ModelServingPlatform } from '../../platforms/model-serving';

const b = build((app) => new ModelServingPlatform(app, 'model-serving'));
const objects = b.model.objects.map((o) => o.json);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const order = b.model.components.map((c) => c.componentName);
const before = (a: string, z: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(z));

describe('model-serving platform', () => {
  test('carries every serving and model-lifecycle component', () => {
    expect([...order].sort()).toEqual([
      'ai-gateway-payload-processing', 'gateway-api-inference-extension', 'kserve', 'llama-stack-k8s-operator', 'llm-d-router', 'mlflow-operator',
      'model-registry-operator', 'modelmesh-serving', 'models-as-a-service', 'odh-model-controller', 'workload-variant-autoscaler',
    ]);
  });

  test('orders providers first: the extension before llm-d, WVA and the payload processor; KServe before ModelMesh, MaaS and the ODH controller', () => {
    for (const user of ['llm-d-router', 'workload-variant-autoscaler', 'ai-gateway-payload-processing', 'kserve']) before('gateway-api-inference-extension', user);
    before('workload-variant-autoscaler', 'kserve');
    for (const user of ['modelmesh-serving', 'models-as-a-service', 'odh-model-controller']) before('kserve', user);
    before('ai-gateway-payload-processing', 'models-as-a-service');
  });

  test('KServe emits the CRDs it shares with ModelMesh, once; MaaS never emits its copies of the payload processor\'s CRDs', () => {
    const crds = ofKind('CustomResourceDefinition').map((c) => c.metadata.name);
    expect(new Set(crds).size).toBe(crds.length);
    for (const n of ['inferenceservices.serving.kserve.io', 'servingruntimes.serving.kserve.io', 'clusterservingruntimes.serving.kserve.io']) {
      expect(b.model.crdOwners.get(n)?.componentName).toBe('kserve');
    }
    expect(b.model.crdOwners.get('externalmodels.inference.opendatahub.io')?.componentName).toBe('ai-gateway-payload-processing');
  });

  test('the report\'s dependency graph shows the cross-component dependencies, pointing at what each component depends on', () => {
    const report = platformReport(b.model, b.largeCrds);
    // Same direction as `mlplatform graph` (issue 17.8): the dependent component first.
    for (const edge of [
      'llm-d-router -->|inference.networking.k8s.io/InferencePool| gateway-api-inference-extension',
      'workload-variant-autoscaler -->|inference.networking.k8s.io/InferencePool| gateway-api-inference-extension',
      'ai-gateway-payload-processing -->|inference.networking.k8s.io/InferencePool| gateway-api-inference-extension',
      'kserve -->|llmd.ai/VariantAutoscaling| workload-variant-autoscaler',
      'modelmesh-serving -.->|shares servingruntimes.serving.kserve.io| kserve',
    ]) expect(report).toContain(edge);
    expect(report).toMatch(/models-as-a-service -->\|inference\.opendatahub\.io\/ExternalModel\| ai-gateway-payload-processing/);
    expect(report).toContain('The arrows point from a component to what it depends on');
    // The model registry operator (v0.3.8) neither watches nor creates InferenceServices.
    expect(report).not.toMatch(/model-registry-operator -->\|/);
  });

  test('ModelMesh\'s and KServe\'s ServingRuntime webhooks coexist, each wired to its own backend', () => {
    const lines = wiringTable(b.model).filter((l) => l.includes('servingruntime'));
    expect(lines.some((l) => l.includes('modelmesh'))).toBe(true);
    expect(lines.some((l) => l.includes('kserve-webhook-server-service'))).toBe(true);
    for (const l of wiringTable(b.model)) expect(l).not.toMatch(/UNRESOLVED|NO CA SOURCE/);
  });

  test('webhook wiring', () => {
    expect(wiringTable(b.model).join('\n')).toMatchSnapshot();
  });

  test('apply order', () => {
    expect(applyOrder(b.model).join('\n')).toMatchSnapshot();
  });

  test('object counts by kind', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });

  test('full output of the components other than KServe and the extension (pinned in the serving platform)', () => {
    const out = b.model.objects.filter((o) => !['kserve', 'gateway-api-inference-extension'].includes(o.component.componentName));
    expect(out.map((o) => pinnable(o.json))).toMatchSnapshot();
  });

  test('WVA-PROM-TLS: the autoscaler\'s default Prometheus is https without verification, as upstream\'s install (v0.5.1 takes https only); a given URL is verified', () => {
    const data = (o: any[]) => o.find((x) => x.kind === 'ConfigMap' && x.metadata.name === 'workload-variant-autoscaler-wva-variantautoscaling-config').data;
    expect(data(objects)).toMatchObject({ PROMETHEUS_BASE_URL: 'https://prometheus-operated.monitoring.svc:9090', PROMETHEUS_TLS_INSECURE_SKIP_VERIFY: 'true' });
    const own = build((app) => new ModelServingPlatform(app, 'model-serving', { prometheusUrl: 'https://thanos-querier.openshift-monitoring.svc:9091' }));
    expect(data(own.model.objects.map((o) => o.json))).toMatchObject({ PROMETHEUS_TLS_INSECURE_SKIP_VERIFY: 'false' });
    const ca = build((app) => new ModelServingPlatform(app, 'model-serving', { prometheusCaCertPath: '/etc/prometheus-certs/ca.crt' }));
    expect(data(ca.model.objects.map((o) => o.json))).toMatchObject({ PROMETHEUS_TLS_INSECURE_SKIP_VERIFY: 'false', PROMETHEUS_CA_CERT_PATH: '/etc/prometheus-certs/ca.crt' });
  });
});
