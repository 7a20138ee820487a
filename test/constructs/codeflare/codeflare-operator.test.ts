import { ApiObject, App, JsonPatch } from 'cdk8s';
import { parse } from 'yaml';
import { AppWrapperOperator } from '../../../constructs/appwrapper';
import { CodeFlareOperator, CodeFlareOperatorProps } from '../../../constructs/codeflare';
import { Prerequisite } from '../../../lib/component';
import { Controller } from '../../../lib/controller';
import { Platform } from '../../../lib/platform';
import { describeRule, PolicyRule, Rbac, uncoveredRules } from '../../../lib/rbac';
import { applyOrder, wiringTable } from '../../../lib/report';
import { WebhookRule, WebhookServer } from '../../../lib/webhook-server';
import { TestComponent } from '../../lib/support';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

/** KubeRay's RayCluster and ODH's DSCInitialization, declared present: CodeFlare's requirements. */
const KUBERAY: Prerequisite = { name: 'kuberay', provides: [{ group: 'ray.io', kind: 'RayCluster' }] };
const ODH: Prerequisite = { name: 'opendatahub-operator', provides: [{ group: 'dscinitialization.opendatahub.io', kind: 'DSCInitialization' }] };
const KUEUE: Prerequisite = { name: 'kueue', provides: [{ group: 'kueue.x-k8s.io', kind: 'Workload' }] };
const OPENSHIFT: Prerequisite = { name: 'openshift', provides: [{ group: 'route.openshift.io', kind: 'Route' }, { group: 'config.openshift.io', kind: 'Ingress' }] };

const DOMAIN = { ingressDomain: 'apps.example.com' };

/**
 * A stand-in for Kueue's AppWrapper integration webhooks (the Kueue component is built on
 * another branch): same webhook names as CodeFlare's, in Kueue's own configurations.
 * `port` miswires its validating webhook.
 */
function kueueStandIn(p: Platform, port?: number): void {
  new TestComponent(p, 'kueue', 'kueue-system', (c) => {
    c.namespaceObject();
    const ctl = new Controller(c, 'Controller', { name: 'kueue-controller-manager', image: c.image('manager'), selectorLabels: { 'app.kubernetes.io/name': 'kueue' }, ports: { webhook: 9443 } });
    const server = new WebhookServer(c, 'WebhookServer', { controller: ctl, serviceName: 'kueue-webhook-service', secretName: 'kueue-webhook-server-cert', selfManaged: { required: true } });
    const rules: WebhookRule[] = [{ apiGroups: ['workload.codeflare.dev'], apiVersions: ['v1beta2'], resources: ['appwrappers'], operations: ['CREATE', 'UPDATE'] }];
    server.addMutatingWebhook('kueue-mutating-webhook-configuration', { name: 'mappwrapper.kb.io', path: '/mutate-workload-codeflare-dev-v1beta2-appwrapper', rules });
    server.addValidatingWebhook('kueue-validating-webhook-configuration', { name: 'vappwrapper.kb.io', path: '/validate-workload-codeflare-dev-v1beta2-appwrapper', rules });
    if (port) {
      // Point the validating configuration at a port the Service does not expose.
      const cfg = server.node.findChild('Validating-kueue-validating-webhook-configuration') as ApiObject;
      cfg.addJsonPatch(JsonPatch.replace('/webhooks/0/clientConfig/service/port', port));
    }
  });
}

function platform(props: CodeFlareOperatorProps = DOMAIN, prerequisites: Prerequisite[] = [KUBERAY, ODH]) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'codeflare', prerequisites });
    new CodeFlareOperator(p, 'codeflare', props);
    return p;
  });
}

const alone = platform();
const objects = alone.model.objects.map((o) => o.json);
const find = (list: any[], kind: string, name?: string) => {
  const o = list.find((x) => x.kind === kind && (name === undefined || x.metadata.name === name));
  if (!o) throw new Error(`no ${kind} ${name ?? ''}`);
  return o;
};
const rulesOf = (list: any[]) => find(list, 'ClusterRole', 'codeflare-operator-manager-role').rules;

describe('CodeFlareOperator', () => {
  test('parity deviations follow the options: what an option leaves out is declared only while it is off', () => {
    const declared = (b: ReturnType<typeof platform>) => {
      const c = b.model.components.find((x) => x.componentName === 'codeflare')!;
      return c.parityDeviations.map((d) => `${d.fact.kind} ${d.fact.object} ${d.fact.item ?? ''}`.trim());
    };
    const off = declared(alone);
    expect(off).toEqual(expect.arrayContaining([
      'webhook mutating mappwrapper.kb.io', 'rbac Deployment/codeflare-operator-manager apps|deployments|*', 'rbac Deployment/codeflare-operator-manager route.openshift.io|routes|*',
      'rbac Deployment/codeflare-operator-manager rbac.authorization.k8s.io|clusterrolebindings|*', 'rbac Deployment/codeflare-operator-manager coordination.k8s.io|leases|*',
    ]));
    // Services are the RayCluster controller's too: never declared missing.
    expect(off).not.toContain('rbac Deployment/codeflare-operator-manager |services|*');
    const on = declared(platform({ openShift: true, appWrapper: true, leaderElection: true }, [KUBERAY, ODH, OPENSHIFT, KUEUE]));
    expect(on.filter((x) => /appwrapper|apps\||routes|clusterrolebindings|leases|tokenreviews/.test(x))).toEqual([]);
  });

  test('synthesizes alone with only RayCluster and DSCInitialization declared present', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['codeflare']);
    expect(alone.model.components[0].requires.map((r) => `${r.group}/${r.kind}`)).toEqual(['ray.io/RayCluster', 'dscinitialization.opendatahub.io/DSCInitialization']);
  });

  test('ships no CRD while the embedded AppWrapper controller is off', () => {
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toEqual([]);
  });

  test('runs the ODH operator image in opendatahub with upstream labels and resources', () => {
    const d = find(objects, 'Deployment', 'codeflare-operator-manager');
    expect(d.metadata.namespace).toBe('opendatahub');
    expect(d.spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'codeflare-operator', 'app.kubernetes.io/part-of': 'codeflare' });
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/codeflare-operator:v1.16.0');
    expect(c.command).toEqual(['/manager']);
    expect(c.env).toContainEqual({ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    expect(c.resources).toEqual({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } });
    expect(c.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'webhook-server', containerPort: 9443 }), expect.objectContaining({ containerPort: 8080 })]));
  });

  test('its configuration: ports, the KubeRay extensions and the AppWrapper switch', () => {
    const cm = find(objects, 'ConfigMap', 'codeflare-operator-config');
    expect(parse(cm.data['config.yaml'])).toEqual({
      clientConnection: { qps: 50, burst: 100 },
      metrics: { bindAddress: ':8080' },
      health: { bindAddress: ':8081', readinessEndpointName: 'readyz', livenessEndpointName: 'healthz' },
      leaderElection: { leaderElect: false },
      kuberay: { rayDashboardOAuthEnabled: false, ingressDomain: 'apps.example.com', mTLSEnabled: true },
      appwrapper: { enabled: false },
    });
  });

  test('plain-HTTP metrics on 8080 behind upstream\'s metrics Service', () => {
    expect(find(objects, 'Service', 'codeflare-operator-manager-metrics').spec.ports).toEqual([expect.objectContaining({ port: 8080 })]);
  });

  test('RayCluster webhooks only, in the two configurations the rotator patches', () => {
    expect(wiringTable(alone.model).map((l) => l.split(' -> ').slice(0, 2).join(' -> '))).toEqual([
      'mutating codeflare-operator-mutating-webhook-configuration/mraycluster.ray.openshift.ai -> opendatahub/codeflare-operator-webhook-service:443/mutate-ray-io-v1-raycluster',
      'validating codeflare-operator-validating-webhook-configuration/vraycluster.ray.openshift.ai -> opendatahub/codeflare-operator-webhook-service:443/validate-ray-io-v1-raycluster',
    ]);
    const v = find(objects, 'ValidatingWebhookConfiguration', 'codeflare-operator-validating-webhook-configuration');
    expect(v.webhooks[0]).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ apiGroups: ['ray.io'], apiVersions: ['v1'], resources: ['rayclusters'], operations: ['CREATE', 'UPDATE'] }] });
    expect(find(objects, 'Secret', 'codeflare-operator-webhook-server-cert').metadata.namespace).toBe('opendatahub');
  });

  test('RBAC off OpenShift: RayCluster extensions, no Routes, no OAuth, no AppWrapper kinds', () => {
    const rules = rulesOf(objects);
    expect(rules).toContainEqual({ apiGroups: ['ray.io'], resources: ['rayclusters'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['dscinitialization.opendatahub.io'], resources: ['dscinitializations'], verbs: ['get', 'list', 'watch'] });
    const groups = rules.flatMap((r: any) => r.apiGroups ?? []);
    for (const g of ['route.openshift.io', 'config.openshift.io', 'rbac.authorization.k8s.io', 'workload.codeflare.dev', 'jobset.x-k8s.io']) expect(groups).not.toContain(g);
    for (const r of objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => o.rules)) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
  });

  test('CF-PODS: the RayCluster controller lists and deletes pods through direct client calls, declared and held cluster-wide', () => {
    const rules = rulesOf(objects) as PolicyRule[];
    expect(uncoveredRules(rules, [Rbac.verbs('', ['pods'], ['delete', 'list'])])).toEqual([]);
    // Only what it calls: no get, watch, create or update on pods while AppWrapper is off.
    expect(uncoveredRules(rules, [Rbac.verbs('', ['pods'], ['create', 'get', 'update', 'watch'])]).map(describeRule)).toEqual(['create pods (core)', 'get pods (core)', 'update pods (core)', 'watch pods (core)']);
    const ctl = alone.model.components[0].node.findAll().find((c): c is Controller => c instanceof Controller)!;
    expect(ctl.clientCalls.map((n) => n.rule)).toEqual([Rbac.verbs('', ['pods'], ['list']), Rbac.verbs('', ['pods'], ['delete'])]);
  });

  test('apply order', () => {
    expect(applyOrder(alone.model).join('\n')).toMatchSnapshot();
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });

  test('on OpenShift: Routes and OAuth by default, the domain read from the cluster', () => {
    const b = platform({ openShift: true }, [KUBERAY, ODH, OPENSHIFT]);
    const list = b.model.objects.map((o) => o.json);
    expect(b.model.components[0].requires.map((r) => `${r.group}/${r.kind}`)).toEqual([
      'ray.io/RayCluster', 'dscinitialization.opendatahub.io/DSCInitialization', 'route.openshift.io/Route', 'config.openshift.io/Ingress',
    ]);
    expect(parse(find(list, 'ConfigMap').data['config.yaml']).kuberay).toEqual({ rayDashboardOAuthEnabled: true, ingressDomain: '', mTLSEnabled: true });
    const rules = rulesOf(list);
    expect(rules).toContainEqual({ apiGroups: ['route.openshift.io'], resources: ['routes', 'routes/custom-host'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterrolebindings'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
  });

  test('with the embedded AppWrapper controller: the CRD, its webhooks next to the RayCluster ones, its roles', () => {
    const b = platform({ ...DOMAIN, appWrapper: true }, [KUBERAY, ODH, KUEUE]);
    const list = b.model.objects.map((o) => o.json);
    expect(list.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toEqual(['appwrappers.workload.codeflare.dev']);
    expect(wiringTable(b.model).map((l) => l.split(' -> ')[0])).toEqual([
      'mutating codeflare-operator-mutating-webhook-configuration/mraycluster.ray.openshift.ai',
      'mutating codeflare-operator-mutating-webhook-configuration/mappwrapper.kb.io',
      'validating codeflare-operator-validating-webhook-configuration/vraycluster.ray.openshift.ai',
      'validating codeflare-operator-validating-webhook-configuration/vappwrapper.kb.io',
    ]);
    expect(parse(find(list, 'ConfigMap').data['config.yaml']).appwrapper).toEqual({ enabled: true });
    expect(rulesOf(list)).toContainEqual({ apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers/status'], verbs: ['get', 'patch', 'update'] });
    expect(find(list, 'ClusterRole', 'codeflare-operator-appwrapper-editor-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(find(list, 'ClusterRole', 'codeflare-operator-viewer-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
  });

  test('next to the standalone AppWrapper controller, both webhook sets keep their names in their own configurations', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'both', prerequisites: [KUBERAY, ODH, KUEUE] });
      new AppWrapperOperator(p, 'appwrapper');
      new CodeFlareOperator(p, 'codeflare', DOMAIN);
      return p;
    });
    expect(wiringTable(b.model).filter((l) => l.includes('appwrapper.kb.io')).map((l) => l.split(' -> ')[0])).toEqual([
      'mutating appwrapper-mutating-webhook-configuration/mappwrapper.kb.io',
      'validating appwrapper-validating-webhook-configuration/vappwrapper.kb.io',
    ]);
  });

  test('the image can be pointed at upstream project-codeflare\'s build', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'codeflare', prerequisites: [KUBERAY, ODH], images: { overrides: { 'codeflare/operator': { repository: 'quay.io/project-codeflare/codeflare-operator' } } } });
      new CodeFlareOperator(p, 'codeflare', DOMAIN);
      return p;
    });
    expect(b.model.objects.find((o) => o.json.kind === 'Deployment')!.json.spec.template.spec.containers[0].image).toBe('quay.io/project-codeflare/codeflare-operator:v1.16.0');
  });

  test('Kueue and CodeFlare both name a webhook vappwrapper.kb.io: each resolves to its own backend', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'two', prerequisites: [KUBERAY, ODH, KUEUE] });
      new CodeFlareOperator(p, 'codeflare', { ...DOMAIN, appWrapper: true });
      kueueStandIn(p);
      return p;
    });
    const lines = wiringTable(b.model).filter((l) => l.includes('/vappwrapper.kb.io'));
    expect(lines.map((l) => l.split(' -> ').slice(0, 3).join(' -> '))).toEqual([
      'validating codeflare-operator-validating-webhook-configuration/vappwrapper.kb.io -> opendatahub/codeflare-operator-webhook-service:443/validate-workload-codeflare-dev-v1beta2-appwrapper -> Deployment/codeflare-operator-manager:9443',
      'validating kueue-validating-webhook-configuration/vappwrapper.kb.io -> kueue-system/kueue-webhook-service:443/validate-workload-codeflare-dev-v1beta2-appwrapper -> Deployment/kueue-controller-manager:9443',
    ]);
  });

  test('fails naming Kueue\'s configuration when only its vappwrapper.kb.io is miswired', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'two', prerequisites: [KUBERAY, ODH, KUEUE] });
      new CodeFlareOperator(p, 'codeflare', { ...DOMAIN, appWrapper: true });
      kueueStandIn(p, 8443);
      return p;
    }));
    expect(problems).toEqual([
      '[MLP020] p/kueue/WebhookServer/Validating-kueue-validating-webhook-configuration: webhook vappwrapper.kb.io of ValidatingWebhookConfiguration kueue-validating-webhook-configuration ' +
        'points at port 8443 of Service kueue-system/kueue-webhook-service, which exposes 443',
    ]);
  });

  test('fails when the embedded AppWrapper controller runs next to the standalone one', () => {
    expect(problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'both', prerequisites: [KUBERAY, ODH, KUEUE] });
      new AppWrapperOperator(p, 'appwrapper');
      new CodeFlareOperator(p, 'codeflare', { ...DOMAIN, appWrapper: true });
      return p;
    }))).toEqual([
      "p/codeflare: appWrapper is on, and component 'appwrapper' (AppWrapperOperator) also runs an AppWrapper controller: " +
        'two controllers would reconcile every AppWrapper; set appWrapper: false here or remove the other component',
    ]);
  });

  test('fails when KubeRay\'s RayCluster is missing', () => {
    const problems = problemsOf(() => platform(DOMAIN, [ODH]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^p\/codeflare: component 'codeflare' \(CodeFlareOperator\) requires ray\.io\/RayCluster \(its controller and webhooks extend RayClusters \(KubeRay\)\), but no component/);
  });

  test('fails when there is no ingress domain off OpenShift', () => {
    expect(() => new CodeFlareOperator(new Platform(new App(), 'p', { name: 'p' }), 'codeflare')).toThrow(
      "p/codeflare: ingressDomain is required when openShift is false: the operator cannot look the domain up and exits at start; set ingressDomain (e.g. 'apps.example.com') or openShift: true",
    );
  });

  test('fails when the ingress domain is not a DNS name', () => {
    expect(() => new CodeFlareOperator(new Platform(new App(), 'p', { name: 'p' }), 'codeflare', { ingressDomain: 'Apps_Example' })).toThrow(
      "p/codeflare: ingressDomain 'Apps_Example' must be a DNS subdomain",
    );
  });

  test('fails when the dashboard OAuth proxy is asked for off OpenShift', () => {
    expect(() => new CodeFlareOperator(new Platform(new App(), 'p', { name: 'p' }), 'codeflare', { ...DOMAIN, rayDashboardOAuth: true })).toThrow(
      'p/codeflare: rayDashboardOAuth true needs openShift: the OAuth proxy and its Route exist only there (elsewhere the dashboard is exposed through an Ingress); set rayDashboardOAuth: false or openShift: true',
    );
  });

  test('fails when several replicas run without leader election', () => {
    expect(() => new CodeFlareOperator(new Platform(new App(), 'p', { name: 'p' }), 'codeflare', { ...DOMAIN, replicas: 2 })).toThrow(
      'p/codeflare: replicas 2 needs leaderElection: true, or every replica reconciles the same RayClusters',
    );
  });

  test('leader election spells out the lease settings', () => {
    const b = platform({ ...DOMAIN, replicas: 2, leaderElection: true });
    const cfg = parse(find(b.model.objects.map((o) => o.json), 'ConfigMap').data['config.yaml']);
    expect(cfg.leaderElection).toEqual({
      leaderElect: true,
      resourceLock: 'leases',
      resourceName: 'codeflare-operator-leader-election',
      resourceNamespace: 'opendatahub',
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
    });
  });
});
