import { App } from 'cdk8s';
import { ModelsWebApp, ModelsWebAppProps } from '../../../constructs/models-web-app';
import { Platform } from '../../../lib/platform';
import { KNATIVE_SERVING } from '../../../lib/prerequisites';
import { build } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: ModelsWebAppProps = {}) {
  return build((app) => {
    // KServe on the cluster (the app needs only its InferenceService kind).
    const kserve = { name: 'kserve', provides: [{ group: 'serving.kserve.io', version: 'v1beta1', kind: 'InferenceService' }] };
    const p = new Platform(app, 'p', { name: 'endpoints', prerequisites: [ISTIO, KNATIVE_SERVING, kserve] });
    new ModelsWebApp(p, 'models-web-app', props);
    return p;
  });
}
const mine = (b: ReturnType<typeof platform>) => b.model.objects.filter((o) => o.component.componentName === 'models-web-app').map((o) => o.json);
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const fails = (props: ModelsWebAppProps) => () => new ModelsWebApp(new Platform(new App(), 'p', { name: 'x' }), 'models-web-app', props);

describe('ModelsWebApp', () => {
  const b = platform();
  const objects = mine(b);

  test('as kubeflow/manifests v1.11.0 installs it: image 0.15.0, port 5000 behind Service port 80, its ConfigMap, upstream\'s selector', () => {
    const d = find(objects, 'Deployment', 'kserve-models-web-app');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('ghcr.io/kserve/models-web-app:0.15.0');
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'kserve-models-web-app-config' } }]);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz/liveness', port: 'http' });
    expect(find(objects, 'Service', 'kserve-models-web-app').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 5000, protocol: 'TCP' }]);
    expect(find(objects, 'ConfigMap', 'kserve-models-web-app-config').data).toEqual({
      APP_PREFIX: '/kserve-endpoints',
      GRAFANA_CPU_MEMORY_DB: 'db/knative-serving-revision-cpu-and-memory-usage',
      GRAFANA_HTTP_REQUESTS_DB: 'db/knative-serving-revision-http-requests',
      GRAFANA_PREFIX: '/grafana',
      USERID_HEADER: 'kubeflow-userid',
      USERID_PREFIX: '',
    });
    expect(d.spec.selector.matchLabels).toEqual({ 'app': 'kserve', 'app.kubernetes.io/component': 'kserve-models-web-app', 'app.kubernetes.io/name': 'kserve', 'kustomize.component': 'kserve-models-web-app' });
  });

  test('routed at /kserve-endpoints/ on the Kubeflow gateway, admitting only the ingress gateway; linked from the dashboard as upstream\'s configuration does', () => {
    expect(find(objects, 'VirtualService', 'kserve-models-web-app').spec.http).toEqual([{
      match: [{ uri: { prefix: '/kserve-endpoints/' } }],
      rewrite: { uri: '/' },
      route: [{ destination: { host: 'kserve-models-web-app.kubeflow.svc.cluster.local', port: { number: 80 } } }],
    }]);
    expect(find(objects, 'AuthorizationPolicy', 'kserve-models-web-app').spec.rules).toEqual([{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }]);
    const app = b.model.components.find((c) => c.componentName === 'models-web-app')!;
    expect(app.dashboardLinks).toEqual([{ menu: [{ text: 'KServe Endpoints', link: '/kserve-endpoints/', icon: 'kubeflow:models' }] }]);
  });

  test('acts for users only after asking the API server (SubjectAccessReview), on InferenceServices, their pods\' logs and events, and Knative\'s objects read-only', () => {
    const rules = find(objects, 'ClusterRole', 'kserve-models-web-app-cluster-role').rules;
    expect(rules).toEqual(expect.arrayContaining([
      { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      { apiGroups: ['serving.kserve.io'], resources: ['inferenceservices', 'inferenceservices/status'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
    ]));
    expect(JSON.stringify(rules)).not.toContain('secrets');
  });

  test('without Istio: no route, no policy, no dashboard link (no link without its app)', () => {
    const off = platform({ istio: false });
    expect(mine(off).map((o) => o.kind)).not.toContain('VirtualService');
    expect(off.model.components.find((c) => c.componentName === 'models-web-app')!.dashboardLinks).toEqual([]);
  });

  test('fails on bad props, naming the path, prop, value and fix', () => {
    expect(fails({ istio: { gateway: 'gw' } })).toThrow("p/models-web-app: istio.gateway 'gw' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
    expect(fails({ replicas: 0 })).toThrow('p/models-web-app: replicas 0 must be a whole number >= 1');
    expect(fails({ grafanaPrefix: 'grafana' })).toThrow("p/models-web-app: grafanaPrefix 'grafana' must be a path starting with /");
  });
});
