import { App, Duration } from 'cdk8s';
import { parse } from 'yaml';
import { AppWrapperOperator, AppWrapperOperatorProps } from '../../../constructs/appwrapper';
import { Platform, PlatformProps } from '../../../lib/platform';
import { applyOrder, wiringTable } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';

/** Kueue's Workload kind, declared present: the only requirement of AppWrapper (at run time). */
const KUEUE = { name: 'kueue', provides: [{ group: 'kueue.x-k8s.io', kind: 'Workload' }] };

function platform(props: AppWrapperOperatorProps = {}, platformProps: Partial<PlatformProps> = {}) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'appwrapper', prerequisites: [KUEUE], ...platformProps });
    new AppWrapperOperator(p, 'appwrapper', props);
    return p;
  });
}

const alone = platform();
const objects = alone.model.objects.map((o) => o.json);
const find = (kind: string, name?: string) => {
  const o = objects.find((x) => x.kind === kind && (name === undefined || x.metadata.name === name));
  if (!o) throw new Error(`no ${kind} ${name ?? ''}`);
  return o;
};
const manager = () => find('Deployment', 'appwrapper-controller-manager').spec.template.spec.containers[0];
const clusterRules = (name: string) => find('ClusterRole', name).rules;

describe('AppWrapperOperator', () => {
  test('synthesizes alone with only Kueue\'s Workload kind declared present, and no cert-manager', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['appwrapper']);
    expect(objects.filter((o) => o.apiVersion === 'cert-manager.io/v1')).toEqual([]);
  });

  test('ships the AppWrapper CRD', () => {
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toEqual(['appwrappers.workload.codeflare.dev']);
  });

  test('runs quay.io/ibm/appwrapper:v1.2.1 in appwrapper-system with upstream flags, env and resources', () => {
    const d = find('Deployment', 'appwrapper-controller-manager');
    expect(d.metadata.namespace).toBe('appwrapper-system');
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'appwrapper' });
    const c = manager();
    expect(c.image).toBe('quay.io/ibm/appwrapper:v1.2.1');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(['--zap-log-level=2']);
    expect(c.env).toContainEqual({ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '2', memory: '128Mi' } });
    expect(c.ports).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'webhook-server', containerPort: 9443 }),
      expect.objectContaining({ containerPort: 8081 }),
      expect.objectContaining({ containerPort: 8443 }),
    ]));
    expect(c.livenessProbe.httpGet.path).toBe('/healthz');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true });
  });

  test('its configuration file carries the ports, leader election and the Kueue integration', () => {
    const cm = find('ConfigMap', 'appwrapper-operator-config');
    expect(cm.metadata.namespace).toBe('appwrapper-system');
    expect(parse(cm.data['config.yaml'])).toEqual({
      appwrapper: { enableKueueIntegrations: true },
      controllerManager: { health: { bindAddress: ':8081' }, metrics: { bindAddress: ':8443' }, leaderElection: true },
    });
  });

  test('serves metrics securely on 8443 behind upstream\'s metrics Service name', () => {
    const svc = find('Service', 'appwrapper-controller-manager-metrics-service');
    expect(svc.spec.ports).toEqual([expect.objectContaining({ port: 8443 })]);
    expect(objects.filter((o) => o.kind === 'ClusterRole').flatMap((r) => r.rules)).toContainEqual(expect.objectContaining({ apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] }));
  });

  test('the mutating and validating webhooks as upstream ships them', () => {
    const m = find('MutatingWebhookConfiguration', 'appwrapper-mutating-webhook-configuration');
    const v = find('ValidatingWebhookConfiguration', 'appwrapper-validating-webhook-configuration');
    expect(m.webhooks).toEqual([{
      name: 'mappwrapper.kb.io',
      admissionReviewVersions: ['v1'],
      clientConfig: { service: { name: 'appwrapper-webhook-service', namespace: 'appwrapper-system', path: '/mutate-workload-codeflare-dev-v1beta2-appwrapper', port: 443 } },
      failurePolicy: 'Fail',
      rules: [{ apiGroups: ['workload.codeflare.dev'], apiVersions: ['v1beta2'], resources: ['appwrappers'], operations: ['CREATE'] }],
      sideEffects: 'None',
    }]);
    expect(v.webhooks).toHaveLength(1);
    expect(v.webhooks[0]).toMatchObject({
      name: 'vappwrapper.kb.io',
      clientConfig: { service: { name: 'appwrapper-webhook-service', path: '/validate-workload-codeflare-dev-v1beta2-appwrapper', port: 443 } },
      failurePolicy: 'Fail',
      rules: [{ operations: ['CREATE', 'UPDATE'] }],
    });
    const svc = find('Service', 'appwrapper-webhook-service');
    expect(svc.spec.ports).toEqual([expect.objectContaining({ port: 443, targetPort: 'webhook-server' })]);
  });

  test('rotates its own webhook certificate: an empty Secret, CA injected at run time', () => {
    const secret = find('Secret', 'appwrapper-webhook-server-cert');
    expect(secret.metadata.namespace).toBe('appwrapper-system');
    expect(alone.model.runtimeChanges.map((c) => `${c.kind} ${c.name} ${c.jsonPointers.join(',')} by ${c.by}`)).toEqual([
      'Secret appwrapper-webhook-server-cert /data by appwrapper-controller-manager',
      'ValidatingWebhookConfiguration appwrapper-validating-webhook-configuration /webhooks/*/clientConfig/caBundle by appwrapper-controller-manager',
      'MutatingWebhookConfiguration appwrapper-mutating-webhook-configuration /webhooks/*/clientConfig/caBundle by appwrapper-controller-manager',
    ]);
    expect(wiringTable(alone.model).every((l) => l.includes('self-managed by appwrapper-controller-manager'))).toBe(true);
    expect(wiringTable(alone.model).map((l) => l.split(' -> ')[0])).toEqual([
      'mutating appwrapper-mutating-webhook-configuration/mappwrapper.kb.io',
      'validating appwrapper-validating-webhook-configuration/vappwrapper.kb.io',
    ]);
  });

  test('manager RBAC: owns AppWrappers, creates the wrappable kinds, never a wildcard', () => {
    const rules = clusterRules('appwrapper-controller-manager-role');
    expect(rules).toContainEqual({ apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers/finalizers'], verbs: ['update'] });
    expect(rules).toContainEqual({ apiGroups: ['ray.io'], resources: ['rayclusters', 'rayjobs'], verbs: ['create', 'delete', 'get', 'list', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['scheduling.sigs.k8s.io', 'scheduling.x-k8s.io'], resources: ['podgroups'], verbs: ['create', 'delete', 'get', 'list', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['list'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] });
    for (const r of objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => o.rules)) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
    // The rotator may touch only its own Secret.
    const secretRules = objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').flatMap((o) => o.rules).filter((r: any) => r.resources?.includes('secrets'));
    for (const r of secretRules) expect(r.resourceNames ?? ['(list/watch)']).not.toContain('*');
  });

  test('editor and viewer roles aggregate to the built-in roles; the user role does not', () => {
    expect(find('ClusterRole', 'appwrapper-editor-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(find('ClusterRole', 'appwrapper-viewer-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(Object.keys(find('ClusterRole', 'appwrapper-user-role').metadata.labels)).not.toContain('rbac.authorization.k8s.io/aggregate-to-edit');
    expect(clusterRules('appwrapper-viewer-role')).toEqual([
      { apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers/status'], verbs: ['get'] },
      { apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers'], verbs: ['get', 'list', 'watch'] },
    ]);
  });

  test('apply order', () => {
    expect(applyOrder(alone.model).join('\n')).toMatchSnapshot();
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });

  test('props reach the configuration and the Deployment', () => {
    const b = platform({ namespace: 'batch', replicas: 2, logLevel: 4, defaultQueueName: 'default', faultTolerance: { retryLimit: 1, failureGracePeriod: Duration.minutes(2) } });
    const d = b.model.objects.find((o) => o.json.kind === 'Deployment')!.json;
    expect(d.metadata.namespace).toBe('batch');
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.spec.containers[0].args).toEqual(['--zap-log-level=4']);
    const cfg = parse(b.model.objects.find((o) => o.json.kind === 'ConfigMap')!.json.data['config.yaml']);
    expect(cfg.appwrapper).toEqual({ enableKueueIntegrations: true, defaultQueueName: 'default', faultTolerance: { failureGracePeriod: 120_000_000_000, retryLimit: 1 } });
    const webhook = b.model.objects.find((o) => o.json.kind === 'ValidatingWebhookConfiguration')!.json;
    expect(webhook.webhooks[0].clientConfig.service.namespace).toBe('batch');
  });

  test('the image follows the platform\'s mirror and overrides', () => {
    const b = platform({}, { images: { registryMirror: 'mirror.example.com', overrides: { 'appwrapper/controller': { tag: 'v1.2.2' } } } });
    expect(b.model.objects.find((o) => o.json.kind === 'Deployment')!.json.spec.template.spec.containers[0].image).toBe('mirror.example.com/ibm/appwrapper:v1.2.2');
  });

  test('the report draws the runtime-only Kueue requirement dotted', () => {
    expect(alone.files.get('REPORT.md')).toContain('  appwrapper -.->|kueue.x-k8s.io/Workload| prerequisite');
  });

  test('without the Kueue integration it needs nothing from the platform', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'appwrapper' });
      new AppWrapperOperator(p, 'appwrapper', { kueueIntegration: false });
      return p;
    });
    expect(b.model.components[0].requires).toEqual([]);
  });

  test('fails when the Kueue integration is on and no Workload kind is served', () => {
    expect(problemsOf(() => platform({}, { prerequisites: [] }))).toEqual([
      "p/appwrapper: component 'appwrapper' (AppWrapperOperator) requires kueue.x-k8s.io/Workload (with the Kueue integration on, every AppWrapper stays suspended until Kueue admits its Workload " +
        "(or set kueueIntegration: false)), but no component of platform 'appwrapper' provides it and no prerequisite declares it; add a component that provides it, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'kueue.x-k8s.io', kind: 'Workload' }] }]",
    ]);
  });

  test('fails when logLevel is negative', () => {
    expect(() => platform({ logLevel: -1 })).toThrow('p/appwrapper: logLevel -1 must be a whole number >= 0 (zap verbosity, e.g. 2)');
  });

  test('fails when the fault tolerance settings would make the controller exit', () => {
    expect(() => platform({ faultTolerance: { gracePeriodCeiling: Duration.minutes(5) } })).toThrow(
      'p/appwrapper: faultTolerance.deletionGracePeriod (10 minutes) exceeds faultTolerance.gracePeriodCeiling (5 minutes)',
    );
  });

  test('fails when the namespace is not a DNS label', () => {
    expect(() => new AppWrapperOperator(new Platform(new App(), 'p', { name: 'p' }), 'appwrapper', { namespace: 'Batch' })).toThrow(
      "p/appwrapper: namespace 'Batch' is not a valid namespace name",
    );
  });
});
