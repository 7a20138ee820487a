import { App } from 'cdk8s';
import { build, newPlatform, TestComponent, widgetDef } from './support';
import { architectureOf } from '../../lib/architecture';
import { modelOfJson, modelStatistics, ObjectModel } from '../../lib/model';
import { modelOf } from '../../lib/platform-model';
import { platformReport, wiringTable } from '../../lib/report';
import { buildPlatform } from '../../lib/synth';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';

const ns = 'demo-system';
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: ns, ...extra });
const webhook = (name: string, service: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name, clientConfig: { service }, rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }], ...extra,
});
const rbac = 'rbac.authorization.k8s.io/v1';

/** A small hand-built output: one operator serving three webhooks and a conversion, and its RBAC. */
function objects(): any[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { team: 'demo' } } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('manager') },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('manager'),
      spec: {
        selector: { matchLabels: { app: 'manager' } },
        template: {
          metadata: { labels: { app: 'manager' } },
          spec: { serviceAccountName: 'manager', containers: [{ name: 'm', image: 'example/manager:v1.0.0', ports: [{ name: 'webhook', containerPort: 9443 }] }], initContainers: [{ name: 'i', image: 'example/init:v1.0.0' }] },
        },
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: meta('webhook'), spec: { selector: { app: 'manager' }, ports: [{ port: 443, targetPort: 'webhook' }] } },
    { apiVersion: 'v1', kind: 'Service', metadata: meta('nobody'), spec: { selector: { app: 'nobody' }, ports: [{ port: 443 }] } },
    { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: meta('serving-cert'), spec: { secretName: 's' } },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'demo-validating' },
      webhooks: [
        webhook('bundled.example.com', { namespace: ns, name: 'webhook', path: '/v' }, { clientConfig: { service: { namespace: ns, name: 'webhook' }, caBundle: 'Zm9v' } }),
        webhook('missing.example.com', { namespace: ns, name: 'gone' }),
        webhook('wrong-port.example.com', { namespace: ns, name: 'webhook', port: 8443 }),
        webhook('unselected.example.com', { namespace: ns, name: 'nobody' }),
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'demo-mutating', annotations: { 'cert-manager.io/inject-ca-from': `${ns}/serving-cert` } },
      webhooks: [webhook('injected.example.com', { namespace: ns, name: 'webhook' }, { failurePolicy: 'Ignore' })],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'demo-rotated' },
      webhooks: [webhook('rotated.example.com', { namespace: ns, name: 'webhook' })],
    },
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com', annotations: { 'cert-manager.io/inject-ca-from': `${ns}/no-such-cert` } },
      spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced', versions: [], conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: ns, name: 'webhook', path: '/convert' } } } } },
    },
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'view', labels: { 'demo/aggregate-to-edit': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] },
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'edit' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'demo/aggregate-to-edit': 'true' } }] }, rules: [] },
    { apiVersion: rbac, kind: 'ClusterRole', metadata: { name: 'rotator' }, rules: [{ apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations'], verbs: ['update'], resourceNames: ['demo-rotated'] }] },
    { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: { name: 'manager-edit' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'manager', namespace: ns }] },
    { apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: { name: 'all-accounts-rotate' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rotator' }, subjects: [{ kind: 'Group', name: `system:serviceaccounts:${ns}` }] },
    { apiVersion: rbac, kind: 'Role', metadata: meta('leases'), rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'update'] }] },
    // A RoleBinding's subject without namespace is in the binding's namespace.
    { apiVersion: rbac, kind: 'RoleBinding', metadata: meta('leases'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'leases' }, subjects: [{ kind: 'ServiceAccount', name: 'manager' }] },
  ];
}

const rotated = { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', name: 'demo-rotated', jsonPointers: ['/webhooks/0/clientConfig/caBundle'], by: 'manager', reason: 'rotates its certificate' };

describe('ObjectModel: webhooks', () => {
  const model = new ObjectModel(objects().map((json) => ({ json })), { runtimeChanges: [rotated] });
  const byName = (name: string) => model.webhooks.find((w) => w.name === name)!;

  test('each webhook and conversion webhook resolves Service -> port -> selected workload -> container port', () => {
    expect(model.webhooks.map((w) => `${w.type} ${w.name}`)).toEqual([
      'validating bundled.example.com', 'validating missing.example.com', 'validating wrong-port.example.com', 'validating unselected.example.com',
      'mutating injected.example.com', 'mutating rotated.example.com', 'conversion widgets.example.com',
    ]);
    const ok = byName('bundled.example.com').backend;
    expect(ok.workload?.json.metadata.name).toBe('manager');
    expect(ok.service?.json.metadata.name).toBe('webhook');
    expect(ok.containerPort).toBe(9443);
    expect(ok.problem).toBeUndefined();
    expect(byName('widgets.example.com').backend.containerPort).toBe(9443);
  });

  test('an unresolved backend says why, naming the Service', () => {
    expect(byName('missing.example.com').backend.problem).toBe(`points at Service ${ns}/gone, which is not in the platform output`);
    expect(byName('wrong-port.example.com').backend.problem).toBe(`points at port 8443 of Service ${ns}/webhook, which exposes 443`);
    expect(byName('unselected.example.com').backend.problem).toBe(`Service nobody selects {"app":"nobody"}, which matches no workload's pod labels in namespace ${ns}`);
  });

  test('the CA source: a caBundle, a cert-manager Certificate in the objects, a rotator allowed to patch it; none otherwise', () => {
    expect(byName('bundled.example.com').caSource).toBe('caBundle');
    expect(byName('injected.example.com').caSource).toBe(`cert-manager ${ns}/serving-cert`);
    // The rotator's ServiceAccount holds update on demo-rotated through a group binding.
    expect(byName('rotated.example.com').caSource).toBe('self-managed by manager (caBundle patched at run time)');
    expect(byName('widgets.example.com').caSource).toBeUndefined();
    expect(byName('missing.example.com').caSource).toBeUndefined();
    // Without the platform's run-time changes nothing says the rotator patches it.
    expect(new ObjectModel(objects().map((json) => ({ json }))).webhooks.find((w) => w.name === 'rotated.example.com')!.caSource).toBeUndefined();
  });

  test('webhooksOf an object: the webhooks it declares', () => {
    const crd = model.objects.find((o) => o.json.kind === 'CustomResourceDefinition')!;
    expect(model.webhooksOf(crd).map((w) => w.type)).toEqual(['conversion']);
    expect(model.webhooksOf(model.objects[0])).toEqual([]);
  });

  test('the webhooks are resolved once per model', () => {
    const m = new ObjectModel(objects().map((json) => ({ json })));
    const before = modelStatistics.webhookResolutions;
    expect(m.webhooks).toBe(m.webhooks);
    m.webhooksOf(m.objects[0]);
    expect(modelStatistics.webhookResolutions - before).toBe(1);
  });
});

describe('ObjectModel: RBAC per ServiceAccount', () => {
  const model = modelOfJson(objects());
  const sa = { name: 'manager', namespace: ns };

  test('cluster-wide: the ClusterRoles its ClusterRoleBindings (and its groups\') reference, aggregation included', () => {
    expect(model.rulesHeldBy(sa)).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] },
      { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations'], verbs: ['update'], resourceNames: ['demo-rotated'] },
    ]);
    expect(model.clusterRoleRules.get('edit')).toEqual([{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }]);
  });

  test('in a namespace: also the Roles its RoleBindings there reference', () => {
    expect(model.rulesHeldBy(sa, ns).map((r) => r.resources)).toEqual([['widgets'], ['mutatingwebhookconfigurations'], ['leases']]);
    expect(model.rulesHeldBy(sa, 'elsewhere').map((r) => r.resources)).toEqual([['widgets'], ['mutatingwebhookconfigurations']]);
  });

  test('another account holds only what its groups hold', () => {
    expect(model.rulesHeldBy({ name: 'other', namespace: ns }).map((r) => r.resources)).toEqual([['mutatingwebhookconfigurations']]);
    expect(model.rulesHeldBy({ name: 'other', namespace: 'elsewhere' })).toEqual([]);
    expect(model.bindingsOf(sa).map((b) => b.json.metadata.name)).toEqual(['manager-edit', 'all-accounts-rotate', 'leases']);
  });

  test('one model per list of objects', () => {
    const list = objects();
    expect(modelOfJson(list)).toBe(modelOfJson(list));
    expect(modelOfJson(list)).not.toBe(modelOfJson(objects()));
  });
});

describe('ObjectModel: images and lookups', () => {
  const model = modelOfJson(objects());

  test('every container image of a pod spec, with its object', () => {
    expect(model.images.map((i) => `${i.image} ${i.object.json.kind}`)).toEqual(['example/manager:v1.0.0 Deployment', 'example/init:v1.0.0 Deployment']);
  });

  test('Services, ServiceAccounts, Namespaces and workloads by name', () => {
    expect(model.service(ns, 'webhook')?.json.kind).toBe('Service');
    expect(model.serviceAccount(ns, 'manager')).toBeDefined();
    expect(model.serviceAccount(ns, 'nobody')).toBeUndefined();
    expect([...model.namespaces.keys()]).toEqual([ns]);
    expect(model.workloadsSelectedBy(ns, { app: 'manager' }).map((o) => o.json.metadata.name)).toEqual(['manager']);
  });
});

describe('the model of a platform', () => {
  test('kind owners: the component whose CRD serves each group/kind', () => {
    const p = newPlatform();
    const owner = new TestComponent(p, 'owner', 'owner-system', (c) => c.crd(widgetDef()));
    new TestComponent(p, 'user', 'user-system', (c) => c.needs({ group: 'example.com', kind: 'Widget', reason: 'watches widgets' }));
    const m = build(p).model;
    expect(modelOf(m)).toBe(modelOf(m));
    expect([...modelOf(m).kindOwners].map(([k, c]) => [k, c])).toEqual([['example.com/Widget', owner]]);
  });

  test('one synth of opendatahub resolves its webhooks once, for the checks, REPORT.md and the architecture', () => {
    const before = modelStatistics.webhookResolutions;
    const b = buildPlatform(new OpenDataHubPlatform(new App({ outdir: '/nonexistent' }), 'opendatahub'));
    expect(modelStatistics.webhookResolutions - before).toBe(1);
    // The readers after synth read the same model.
    wiringTable(b.model);
    architectureOf(b.model, b.largeCrds);
    platformReport(b.model, b.largeCrds);
    expect(modelStatistics.webhookResolutions - before).toBe(1);
    expect(modelOf(b.model).webhooks.length).toBeGreaterThan(50);
    expect(wiringTable(b.model)).toHaveLength(modelOf(b.model).webhooks.length);
  });
});
