import { build } from './helpers';
import { interceptingWebhooks, selectorMatches } from '../../lib/checks';
import { applyOrder, objectCounts, wiringTable } from '../../lib/report';
import { KubeflowPlatform } from '../../platforms/kubeflow';

const b = build((app) => new KubeflowPlatform(app, 'kubeflow'));
const objects = b.model.objects.map((o) => o.json);
const order = b.model.components.map((c) => c.componentName);

describe('kubeflow platform', () => {
  test('carries pipelines, notebooks, tuning, training, serving, multi-user isolation and the dashboard, with cert-manager included', () => {
    expect([...order].sort()).toEqual([
      'admission-webhook', 'argo-workflows', 'central-dashboard', 'cert-manager', 'gateway-api-inference-extension', 'jobset', 'katib',
      'kserve', 'kubeflow-pipelines', 'model-registry', 'notebook-controller', 'profile-controller', 'trainer',
    ]);
  });

  test('applies in one pass: cert-manager and its webhook come before every Certificate and Issuer of the other components', () => {
    const certManagerWebhook = b.model.objects.find((o) => o.component.componentName === 'cert-manager' && o.json.kind === 'ValidatingWebhookConfiguration')!;
    const certs = b.model.objects.filter((o) => o.json.apiVersion === 'cert-manager.io/v1' && o.component.componentName !== 'cert-manager');
    expect(certs.length).toBeGreaterThan(3);
    for (const c of certs) expect(c.order).toBeGreaterThan(certManagerWebhook.order);
    expect(order[0]).toBe('cert-manager');
    expect(b.model.platform.prerequisites.map((p) => p.name)).not.toContain('cert-manager');
  });

  test('Argo Workflows before Pipelines; JobSet before Trainer; the inference extension before KServe', () => {
    const before = (a: string, z: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(z));
    before('argo-workflows', 'kubeflow-pipelines');
    before('jobset', 'trainer');
    before('gateway-api-inference-extension', 'kserve');
  });

  test('a tenant namespace gets its Profile, and PodDefaults apply to its pods but not to kube-system\'s', () => {
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'kubeflow-user-example-com')!;
    expect(objects.some((o) => o.kind === 'Profile' && o.metadata.name === 'kubeflow-user-example-com')).toBe(true);
    const pod = (namespace: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace } });
    const names = (json: any) => interceptingWebhooks(b.model, json).map((w) => w.name);
    expect(names(pod(ns.metadata.name))).toContain('poddefaults-webhook-deployment.kubeflow.org');
    expect(names(pod('kube-system'))).not.toContain('poddefaults-webhook-deployment.kubeflow.org');
  });

  test("a tenant's pods get Katib's metrics collector and its namespace the Pipelines profile hook's objects", () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'trial', namespace: 'kubeflow-user-example-com' } };
    expect(interceptingWebhooks(b.model, pod).map((w) => w.name)).toContain('mutator.pod.katib.kubeflow.org');
    expect(interceptingWebhooks(b.model, { ...pod, metadata: { ...pod.metadata, namespace: 'kube-system' } }).map((w) => w.name)).not.toContain('mutator.pod.katib.kubeflow.org');
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'kubeflow-user-example-com')!;
    const decorator = objects.find((o) => o.kind === 'DecoratorController' && o.metadata.name === 'kubeflow-pipelines-profile-controller')!;
    expect(selectorMatches(decorator.spec.resources[0].labelSelector, ns.metadata.labels)).toBe(true);
    expect(objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'metacontroller')).toBeDefined();
  });

  test('the dashboard links the components present', () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'dashboard-config')!;
    const links = JSON.parse(cm.data.links);
    const menu = links.menuLinks.map((l: any) => l.text);
    expect(menu).toEqual(expect.arrayContaining(['Pipelines', 'Experiments (AutoML)', 'Models']));
    expect(JSON.stringify(links.menuLinks)).toContain('/pipeline/#/runs');
    expect(links.menuLinks.find((l: any) => l.text === 'Models').items).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Model Registry', link: '/model-registry/' })]));
  });

  test('every webhook resolves to a backend with a CA source', () => {
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
});
