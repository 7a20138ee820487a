import { App, ApiObject } from 'cdk8s';
import { newPlatform, problemsOf, TestComponent } from './support';
import { selectorOverlaps } from '../../lib/checks';
import { Controller } from '../../lib/controller';
import { Platform } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';
import { WebhookServer } from '../../lib/webhook-server';
import { Workload } from '../../lib/workload';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { KubeflowPlatform } from '../../platforms/kubeflow';
import { ModelServingPlatform } from '../../platforms/model-serving';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';
import { ServingPlatform } from '../../platforms/serving';
import { TrainingPlatform } from '../../platforms/training';

const NS = 'test-system';

function problems(body: (c: TestComponent) => void): string[] {
  const p = newPlatform();
  new TestComponent(p, 'test', NS, (c) => {
    c.namespaceObject();
    body(c);
  });
  return problemsOf(p);
}

/** A Deployment without a Service, with its own selector and extra pod labels. */
const workload = (c: TestComponent, name: string, selectorLabels: Record<string, string>, labels: Record<string, string> = {}) =>
  new Workload(c, name, { name, image: `example/${name}:v1`, selectorLabels, labels, service: false });

describe('MLP024: selectors in a shared namespace', () => {
  test('fires for a Service that selects the pods of two workloads', () => {
    expect(problems((c) => {
      workload(c, 'a', { app: 'a' }, { tier: 'web' });
      workload(c, 'b', { app: 'b' }, { tier: 'web' });
      new ApiObject(c, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: NS }, spec: { selector: { tier: 'web' }, ports: [{ port: 80 }] } });
    })).toEqual([
      '[MLP024] p/test/Svc: Service test-system/web selects {"tier":"web"}, which matches the pods of 2 workloads (Deployment a, Deployment b); select exactly one workload\'s pods: add a label only they carry',
    ]);
  });

  test('fires for a workload whose selector matches the pods of another workload', () => {
    expect(problems((c) => {
      workload(c, 'a', { 'control-plane': 'controller-manager' });
      workload(c, 'b', { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'b' });
    })).toEqual([
      '[MLP024] p/test/a/Deployment: Deployment test-system/a selects {"control-plane":"controller-manager"}, which matches the pods of Deployment b; its controller would count them as its own: select on a label only its own pods carry',
    ]);
  });

  test('fires for a PodDisruptionBudget and a NetworkPolicy that select the pods of two workloads', () => {
    expect(problems((c) => {
      workload(c, 'a', { app: 'a' }, { team: 'ml' });
      workload(c, 'b', { app: 'b' }, { team: 'ml' });
      new ApiObject(c, 'Pdb', { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'ml', namespace: NS }, spec: { maxUnavailable: 1, selector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['ml'] }] } } });
      new ApiObject(c, 'Np', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'ml', namespace: NS }, spec: { podSelector: { matchLabels: { team: 'ml' } }, policyTypes: ['Ingress'] } });
    })).toEqual([
      '[MLP024] p/test/Pdb: PodDisruptionBudget test-system/ml selects {"matchExpressions":[{"key":"team","operator":"In","values":["ml"]}]}, which matches the pods of 2 workloads (Deployment a, Deployment b); select exactly one workload\'s pods: add a label only they carry',
      '[MLP024] p/test/Np: NetworkPolicy test-system/ml selects {"team":"ml"}, which matches the pods of 2 workloads (Deployment a, Deployment b); select exactly one workload\'s pods: add a label only they carry',
    ]);
  });

  test('passes for distinct selectors, a namespace-wide NetworkPolicy, and equal labels in two namespaces', () => {
    expect(problems((c) => {
      workload(c, 'a', { app: 'a' }, { team: 'ml' });
      workload(c, 'b', { app: 'b' }, { team: 'ml' });
      new ApiObject(c, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a', namespace: NS }, spec: { selector: { app: 'a', team: 'ml' }, ports: [{ port: 80 }] } });
      new ApiObject(c, 'Np', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny-all', namespace: NS }, spec: { podSelector: {}, policyTypes: ['Ingress'] } });
    })).toEqual([]);
    const deployment = (ns: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'm', namespace: ns }, spec: { selector: { matchLabels: { 'control-plane': 'controller-manager' } }, template: { metadata: { labels: { 'control-plane': 'controller-manager' } }, spec: {} } } });
    expect(selectorOverlaps([deployment('one'), deployment('two')])).toEqual([]);
  });
});

describe('MLP020: a webhook Service selects exactly one workload', () => {
  test('fails when the webhook Service also selects another operator\'s pods (kubebuilder\'s control-plane label alone)', () => {
    const found = problems((c) => {
      const ctl = new Controller(c, 'Manager', { name: 'widget-controller', image: c.image('manager'), selectorLabels: { 'control-plane': 'controller-manager' }, ports: { webhook: 9443 } });
      workload(c, 'other-operator', { 'control-plane': 'controller-manager', 'app': 'other' });
      const srv = new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
      srv.addValidatingWebhook('widget-validator', { name: 'vwidget.example.com', path: '/validate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] });
    });
    expect(found).toContain('[MLP020] p/test/Webhooks/Validating-widget-validator: webhook vwidget.example.com of ValidatingWebhookConfiguration widget-validator Service widget-webhook selects {"control-plane":"controller-manager"}, which matches the pods of 2 workloads in namespace test-system (Deployment widget-controller, Deployment other-operator); select exactly the backend\'s pods: add a label only they carry to the selector');
    // The same collision, as MLP024 sees it: the Service and the Deployment's selector.
    expect(found.filter((f) => f.startsWith('[MLP024]'))).toHaveLength(2);
  });
});

describe('every component in one namespace (the Open Data Hub case)', () => {
  // Each default platform with all its components in one namespace; their objects together
  // hold every component (a workload in several platforms counted once).
  // The shared namespace's own labels, as Open Data Hub sets them (components ask for different values).
  const namespaces = { applications: 'shared', labels: { shared: { 'app.kubernetes.io/name': 'shared', 'control-plane': 'controller-manager' } } };
  const makers: Array<(app: App) => Platform> = [
    (app) => new ServingPlatform(app, 'serving', { namespaces }),
    (app) => new TrainingPlatform(app, 'training', { namespaces }),
    (app) => new ModelServingPlatform(app, 'model-serving', { namespaces }),
    (app) => new KubeflowPlatform(app, 'kubeflow', { namespaces }),
    (app) => new OpenDataHubPlatform(app, 'opendatahub', { namespaces }),
  ];

  test('covers every default platform', () => {
    expect(makers.map((m) => m(new App()).name)).toEqual(DEFAULT_PLATFORMS.map((p) => p.name));
  });

  test('no Service, PDB, NetworkPolicy or workload selects another workload\'s pods', () => {
    const seen = new Map<string, any>();
    for (const make of makers) {
      const b = buildPlatform(make(new App()));
      for (const o of b.model.objects) {
        const j = o.json;
        const key = `${j.kind}/${j.metadata?.namespace}/${j.metadata?.name}`;
        if (j.metadata?.namespace === 'shared' && !seen.has(key)) seen.set(key, j);
      }
    }
    const objects = [...seen.values()];
    // Every component's controllers are in the shared namespace.
    expect(objects.filter((o) => o.kind === 'Deployment').length).toBeGreaterThan(40);
    expect(selectorOverlaps(objects).map((f) => f.message)).toEqual([]);
  });
});
