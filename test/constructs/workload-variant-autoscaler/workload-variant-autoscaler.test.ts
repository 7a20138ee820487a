import { App } from 'cdk8s';
import { parse } from 'yaml';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { WorkloadVariantAutoscaler, wvaCrds } from '../../../constructs/workload-variant-autoscaler';
import { CERT_MANAGER, PROMETHEUS_OPERATOR } from '../../../lib/component';
import { CrdScope, crdName } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { objectCounts } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

const PROMETHEUS = 'https://thanos-querier.openshift-monitoring.svc:9091';
const b = build((app) => {
  const p = new Platform(app, 'wva', { name: 'wva', prerequisites: [PROMETHEUS_OPERATOR] });
  new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS });
  return p;
});
const objects = b.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
const NAME = 'workload-variant-autoscaler-controller-manager';

describe('VariantAutoscaling CRD', () => {
  test('llmd.ai (no hyphen), v1alpha1, namespaced, short name va, status, printer columns', () => {
    const [va] = wvaCrds.CRDS;
    expect(crdName(va)).toBe('variantautoscalings.llmd.ai');
    expect(va.scope).toBe(CrdScope.NAMESPACED);
    expect(va.shortNames).toEqual(['va']);
    expect(va.versions.map((v) => [v.name, v.storage])).toEqual([['v1alpha1', true]]);
    expect(va.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Target', 'Model', 'Optimized', 'MetricsReady', 'Age']);
    const spec = va.versions[0].schema.toJson().properties!.spec;
    expect(spec.required).toEqual(['modelID', 'scaleTargetRef']);
    expect(spec.properties!.scaleTargetRef['x-kubernetes-map-type']).toBe('atomic');
    expect(spec.properties!.variantCost).toEqual({ type: 'string', pattern: '^\\d+(\\.\\d+)?$', default: '10.0', description: expect.any(String) });
  });
});

describe('Workload Variant Autoscaler with the inference extension it requires', () => {
  test('comes after the extension that provides InferencePool', () => {
    expect(b.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'workload-variant-autoscaler']);
  });

  test('controller: image, args, two replicas with leader election, resources', () => {
    const d = find('Deployment', NAME);
    expect(d.metadata.namespace).toBe('workload-variant-autoscaler-system');
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'workload-variant-autoscaler', 'control-plane': 'controller-manager' });
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/llm-d/llm-d-workload-variant-autoscaler:v0.5.1');
    expect(c.args).toEqual(['--leader-elect=true', '--health-probe-bind-address=:8081', '--watch-namespace=$(POD_NAMESPACE)', '--metrics-bind-address=:8443', '--metrics-secure=true']);
    expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } });
    expect(c.env).toContainEqual({ name: 'PROMETHEUS_BASE_URL', valueFrom: { configMapKeyRef: { name: 'workload-variant-autoscaler-wva-variantautoscaling-config', key: 'PROMETHEUS_BASE_URL' } } });
    expect(find('ConfigMap', 'workload-variant-autoscaler-wva-variantautoscaling-config').data.PROMETHEUS_BASE_URL).toBe(PROMETHEUS);
  });

  test('secure metrics on 8443 through upstream\'s Service name', () => {
    expect(find('Service', `${NAME}-metrics-service`).spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(find('ClusterRole', `${NAME}-metrics-reader`).rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });

  test('RBAC: owns variantautoscalings, scales deployments, reads pools and service monitors', () => {
    const rules = find('ClusterRole', `${NAME}-role`).rules;
    const allows = (group: string, resource: string, verb: string) => rules.some((r: any) => r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb));
    expect(allows('llmd.ai', 'variantautoscalings', 'create')).toBe(true);
    expect(allows('llmd.ai', 'variantautoscalings/status', 'patch')).toBe(true);
    expect(allows('apps', 'deployments', 'update')).toBe(true);
    expect(allows('apps', 'deployments', 'delete')).toBe(false);
    expect(allows('inference.networking.k8s.io', 'inferencepools', 'watch')).toBe(true);
    expect(allows('monitoring.coreos.com', 'servicemonitors', 'list')).toBe(true);
    expect(allows('authentication.k8s.io', 'tokenreviews', 'create')).toBe(true);
  });

  test('user roles name the real group and resource', () => {
    const viewer = find('ClusterRole', 'workload-variant-autoscaler-variantautoscaling-viewer-role').rules;
    expect(viewer).toContainEqual({ apiGroups: ['llmd.ai'], resources: ['variantautoscalings'], verbs: ['get', 'list', 'watch'] });
    expect(viewer.flatMap((r: any) => r.apiGroups)).not.toContain('llmd.llm-d.ai');
    const admin = find('ClusterRole', 'workload-variant-autoscaler-variantautoscaling-admin-role').rules;
    expect(admin).toContainEqual({ apiGroups: ['llmd.ai'], resources: ['variantautoscalings'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
  });

  test('object counts', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });

  test('full output', () => {
    expect(b.model.objects.filter((o) => o.component.componentName === 'workload-variant-autoscaler').map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('Workload Variant Autoscaler failures', () => {
  test('fails when InferencePool has no provider', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [PROMETHEUS_OPERATOR] });
    new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS });
    expect(problemsOf(() => p.resolve())).toEqual([
      "p/workload-variant-autoscaler: component 'workload-variant-autoscaler' (WorkloadVariantAutoscaler) requires inference.networking.k8s.io/InferencePool (it reads the pools whose variants it scales (POOL_GROUP)), " +
        "but no component of platform 'p' provides it and no prerequisite declares it; add the GatewayApiInferenceExtension component to the platform, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool' }] }]",
    ]);
  });

  test('fails when prometheusUrl is not a URL', () => {
    const p = new Platform(new App(), 'p', { name: 'p' });
    expect(() => new WorkloadVariantAutoscaler(p, 'wva', { prometheusUrl: 'prometheus:9090' })).toThrow(
      "p/wva: prometheusUrl 'prometheus:9090' is not an https URL (the autoscaler v0.5.1 exits on any other scheme); "
        + 'give the Prometheus or Thanos query endpoint served with TLS, e.g. https://thanos-querier.openshift-monitoring.svc:9091',
    );
  });

  test('WVA-PROM-TLS: a plain-HTTP Prometheus is refused at synth, as v0.5.1 refuses it at start (ValidateTLSConfig: HTTPS is required)', () => {
    const p = new Platform(new App(), 'p', { name: 'p' });
    expect(() => new WorkloadVariantAutoscaler(p, 'wva', { prometheusUrl: 'http://prometheus-operated.monitoring.svc:9090' })).toThrow(
      "p/wva: prometheusUrl 'http://prometheus-operated.monitoring.svc:9090' is not an https URL",
    );
    expect(() => new WorkloadVariantAutoscaler(p, 'wva2', { prometheusUrl: PROMETHEUS, prometheusCaCertPath: 'ca.crt' })).toThrow(
      "p/wva2: prometheusCaCertPath 'ca.crt' is not an absolute path; give the CA file's path in the controller's container, e.g. /etc/prometheus-certs/ca.crt",
    );
  });

  test('WVA-PROM-TLS: a CA for the Prometheus certificate reaches the controller\'s environment (v0.5.1 reads every Prometheus setting from there)', () => {
    const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [PROMETHEUS_OPERATOR] });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    const w = new WorkloadVariantAutoscaler(p, 'wva', { prometheusUrl: PROMETHEUS, prometheusCaCertPath: '/etc/prometheus-certs/ca.crt' });
    const out = w.toJson();
    const cm = out.find((o: any) => o.kind === 'ConfigMap' && o.metadata.name === 'workload-variant-autoscaler-wva-variantautoscaling-config');
    expect(cm.data).toMatchObject({ PROMETHEUS_CA_CERT_PATH: '/etc/prometheus-certs/ca.crt', PROMETHEUS_TLS_INSECURE_SKIP_VERIFY: 'false' });
    const env = out.find((o: any) => o.kind === 'Deployment').spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'PROMETHEUS_CA_CERT_PATH', valueFrom: { configMapKeyRef: { name: 'workload-variant-autoscaler-wva-variantautoscaling-config', key: 'PROMETHEUS_CA_CERT_PATH' } } });
    // Without one, neither (as upstream's install).
    expect(find('ConfigMap', 'workload-variant-autoscaler-wva-variantautoscaling-config').data.PROMETHEUS_CA_CERT_PATH).toBeUndefined();
  });

  test('fails when watchNamespaces is neither own nor all', () => {
    const p = new Platform(new App(), 'p', { name: 'p' });
    expect(() => new WorkloadVariantAutoscaler(p, 'wva', { prometheusUrl: PROMETHEUS, watchNamespaces: 'some' as any })).toThrow("p/wva: watchNamespaces 'some' must be 'own' or 'all'");
  });

  test('watchNamespaces all drops the namespace flag', () => {
    const p = new Platform(new App(), 'p', { name: 'p' });
    const w = new WorkloadVariantAutoscaler(p, 'wva', { prometheusUrl: PROMETHEUS, watchNamespaces: 'all' });
    expect(w.controller.deployment.toJson().spec.template.spec.containers[0].args).not.toContain('--watch-namespace=$(POD_NAMESPACE)');
  });
});

describe('Workload Variant Autoscaler with KServe', () => {
  test('KServe with workloadVariantAutoscaler resolves VariantAutoscaling to WVA and comes after it', () => {
    const both = build((app) => {
      const p = new Platform(app, 'p', { name: 'p', prerequisites: [CERT_MANAGER, PROMETHEUS_OPERATOR] });
      new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
      new KServe(p, 'kserve', { workloadVariantAutoscaler: true });
      new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS });
      return p;
    });
    expect(both.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'workload-variant-autoscaler', 'kserve']);
    expect(both.files.get('REPORT.md')).toContain('  kserve -->|llmd.ai/VariantAutoscaling| workload-variant-autoscaler');
  });
});

describe('WVA-SVCMON', () => {
  test('WVA-SVCMON: upstream\'s ServiceMonitor scrapes the controller\'s secure metrics Service, and only it', () => {
    const sm = find('ServiceMonitor', `${NAME}-metrics-monitor`);
    expect(sm.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(sm.metadata.namespace).toBe('workload-variant-autoscaler-system');
    expect(sm.spec).toEqual({
      endpoints: [{ path: '/metrics', port: 'https', scheme: 'https', interval: '10s', bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', tlsConfig: { insecureSkipVerify: true } }],
      namespaceSelector: { matchNames: ['workload-variant-autoscaler-system'] },
      selector: { matchLabels: { 'app.kubernetes.io/name': 'workload-variant-autoscaler', 'control-plane': 'controller-manager' } },
    });
    const matches = (labels: Record<string, string> = {}) => Object.entries(sm.spec.selector.matchLabels).every(([k, v]) => labels[k] === v);
    const services = objects.filter((o) => o.kind === 'Service' && o.metadata.namespace === sm.metadata.namespace && matches(o.metadata.labels));
    expect(services.map((s) => s.metadata.name)).toEqual([`${NAME}-metrics-service`]);
    expect(services[0].spec.ports.map((p: any) => p.name)).toContain('https');
  });

  test('WVA-SVCMON: without a provider of ServiceMonitor, synth fails naming the kind (the autoscaler reads ServiceMonitors and acts through Prometheus)', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'wva', { name: 'wva', prerequisites: [CERT_MANAGER] });
      new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
      new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS });
      return p;
    }));
    expect(problems.join('\n')).toContain('requires monitoring.coreos.com/ServiceMonitor (it reads the ServiceMonitors of the model servers it scales)');
  });
});

describe('WVA-SATCFG: the run-time ConfigMaps the controller reads by name', () => {
  const wva = (props: Record<string, unknown> = {}) => () => {
    const p = new Platform(new App(), 'wva', { name: 'wva', prerequisites: [PROMETHEUS_OPERATOR] });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS, ...props });
  };

  test('WVA-SATCFG: the saturation ConfigMap named in SATURATION_CONFIG_MAP_NAME ships, with the `default` entry (without it no model is scaled)', () => {
    const env = find('Deployment', NAME).spec.template.spec.containers[0].env;
    const name = env.find((e: any) => e.name === 'SATURATION_CONFIG_MAP_NAME').value;
    expect(name).toBe('workload-variant-autoscaler-saturation-scaling-config');
    const cm = find('ConfigMap', name);
    expect(cm.metadata.namespace).toBe('workload-variant-autoscaler-system');
    expect(Object.keys(cm.data)).toEqual(['default']);
    expect(parse(cm.data.default)).toEqual({ kvCacheThreshold: 0.8, queueLengthThreshold: 5, kvSpareTrigger: 0.1, queueSpareTrigger: 3, enableLimiter: false });
  });

  test('the main ConfigMap (CONFIG_MAP_NAME) carries upstream\'s keys, the optimization interval and cache settings included', () => {
    const cm = find('ConfigMap', 'workload-variant-autoscaler-wva-variantautoscaling-config');
    expect(Object.keys(cm.data).sort()).toEqual([
      'GLOBAL_OPT_INTERVAL', 'PROMETHEUS_BASE_URL', 'PROMETHEUS_METRICS_CACHE_CLEANUP_INTERVAL', 'PROMETHEUS_METRICS_CACHE_ENABLED',
      'PROMETHEUS_METRICS_CACHE_FETCH_INTERVAL', 'PROMETHEUS_METRICS_CACHE_FRESH_THRESHOLD', 'PROMETHEUS_METRICS_CACHE_MAX_SIZE',
      'PROMETHEUS_METRICS_CACHE_STALE_THRESHOLD', 'PROMETHEUS_METRICS_CACHE_TTL', 'PROMETHEUS_METRICS_CACHE_UNAVAILABLE_THRESHOLD',
      'PROMETHEUS_TLS_INSECURE_SKIP_VERIFY', 'WVA_LIMITED_MODE', 'WVA_NODE_SELECTOR', 'WVA_SCALE_TO_ZERO',
    ]);
    expect(cm.data.GLOBAL_OPT_INTERVAL).toBe('60s');
  });

  test('typed saturation thresholds', () => {
    const p = new Platform(new App(), 'wva', { name: 'wva', prerequisites: [PROMETHEUS_OPERATOR] });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new WorkloadVariantAutoscaler(p, 'workload-variant-autoscaler', { prometheusUrl: PROMETHEUS, saturation: { kvCacheThreshold: 0.9, enableLimiter: true } });
    const cm = p.node.findAll().find((c) => (c as any).kind === 'ConfigMap' && (c as any).name === 'workload-variant-autoscaler-saturation-scaling-config') as any;
    expect(parse(cm.toJson().data.default)).toMatchObject({ kvCacheThreshold: 0.9, enableLimiter: true, queueLengthThreshold: 5 });
  });

  test('fails when a threshold is out of range, or kvCacheThreshold is below kvSpareTrigger (the controller would skip the entry)', () => {
    expect(problemsOf(wva({ saturation: { kvCacheThreshold: 1.5 } }))).toEqual(['wva/workload-variant-autoscaler: saturation.kvCacheThreshold 1.5 must be from 0 to 1']);
    expect(problemsOf(wva({ saturation: { queueSpareTrigger: -1 } }))).toEqual(['wva/workload-variant-autoscaler: saturation.queueSpareTrigger -1 must be a number >= 0']);
    expect(problemsOf(wva({ saturation: { kvCacheThreshold: 0.05 } }))).toEqual([
      'wva/workload-variant-autoscaler: saturation.kvCacheThreshold 0.05 is below saturation.kvSpareTrigger 0.1; the controller skips such an entry: make kvCacheThreshold >= kvSpareTrigger',
    ]);
  });
});
