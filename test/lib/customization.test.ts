import { App } from 'cdk8s';
import { build, newPlatform, problemsOf, TestComponent, widgetDef } from './support';
import { CertificateProvider } from '../../lib/certificates';
import { CERT_MANAGER } from '../../lib/component';
import { Controller } from '../../lib/controller';
import { PlatformCustomization, validChoices } from '../../lib/customization';
import { Platform } from '../../lib/platform';
import { mergeResources, parseQuantity, resourceProblems } from '../../lib/resources';
import { WebhookServer } from '../../lib/webhook-server';
import { Workload } from '../../lib/workload';

const WIDGET = { group: 'example.com', kind: 'Widget' };

/**
 * Two components: `widgets` (a Widget CRD, a leader-elected controller, a webhook server
 * with an overridable validating webhook and a fixed mutating one, and a plain workload)
 * and `gadgets` (a single-replica controller that needs Widgets).
 */
function platform(custom: PlatformCustomization = {}): Platform {
  const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], ...custom });
  new TestComponent(p, 'widgets', 'widgets-system', (c) => {
    c.namespaceObject({ team: 'widgets' });
    c.crd(widgetDef());
    const ctl = new Controller(c, 'Manager', {
      name: 'widget-controller',
      image: c.image('manager'),
      selectorLabels: { app: 'widget-controller' },
      leaderElectionId: 'widgets.example.com',
      ports: { webhook: 9443 },
      owns: [widgetDef()],
    });
    const server = new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
    const rules = [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE' as const] }];
    server.addValidatingWebhook('widget-validating', { name: 'vwidget.example.com', path: '/validate', rules, failurePolicyOverridable: true });
    server.addMutatingWebhook('widget-mutating', { name: 'mwidget.example.com', path: '/mutate', rules });
    new Workload(c, 'Ui', { name: 'widget-ui', image: c.image('manager'), selectorLabels: { app: 'widget-ui' } });
  });
  new TestComponent(p, 'gadgets', 'gadgets-system', (c) => {
    c.namespaceObject();
    c.needs({ ...WIDGET, reason: 'gadgets are made of widgets' });
    new Controller(c, 'Manager', { name: 'gadget-controller', image: c.image('manager'), selectorLabels: { app: 'gadget-controller' } });
  });
  return p;
}

const objects = (p: Platform) => build(p).model.objects.map((o) => o.json);
const find = (objs: any[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
const constructionError = (custom: PlatformCustomization) => {
  try {
    platform(custom);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('customization: construction-time validation of the props alone', () => {
  test('fails when a controller target is not <component>/<controller>', () => {
    expect(constructionError({ controllers: { 'widget-controller': { replicas: 1 } } })).toBe(
      "p: invalid customization of platform 'p':\np: controllers['widget-controller']: the key must be <component>/<controller name>, e.g. 'kserve/kserve-controller-manager'",
    );
  });

  test('fails when replicas are negative or fractional', () => {
    expect(constructionError({ controllers: { 'widgets/widget-controller': { replicas: -1 }, 'gadgets/gadget-controller': { replicas: 0.5 } } })).toBe(
      "p: invalid customization of platform 'p':\n" +
        "p: controllers['widgets/widget-controller'].replicas: -1 must be a whole number >= 0 (0 stops the controller)\n" +
        "p: controllers['gadgets/gadget-controller'].replicas: 0.5 must be a whole number >= 0 (0 stops the controller)",
    );
  });

  test('fails when a quantity is malformed or negative, a resource name is invalid, or a request exceeds its limit', () => {
    expect(constructionError({
      controllers: {
        'widgets/widget-controller': { resources: { requests: { 'cpu': '1.5 cores', 'memory': '-1Gi', 'bad name!': '1' } } },
        'gadgets/gadget-controller': { resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } } },
      },
    })).toBe(
      "p: invalid customization of platform 'p':\n" +
        "p: controllers['widgets/widget-controller'].resources.requests.cpu '1.5 cores' is not a quantity; write it like 500m, 2Gi or 1.5\n" +
        "p: controllers['widgets/widget-controller'].resources.requests.memory '-1Gi' is negative; give a quantity >= 0\n" +
        "p: controllers['widgets/widget-controller'].resources.requests: 'bad name!' is not a resource name; use cpu, memory, ephemeral-storage or a <domain>/<name> extended resource\n" +
        "p: controllers['gadgets/gadget-controller'].resources: requests.cpu '2' is above limits.cpu '1500m'; raise the limit or lower the request",
    );
  });

  test('fails when a namespace is not a DNS label', () => {
    expect(constructionError({ namespaces: { applications: 'Apps', components: { widgets: 'w_s' } } })).toBe(
      "p: invalid customization of platform 'p':\n" +
        "p: namespaces.applications: 'Apps' is not a valid namespace name; use a lower-case DNS label of at most 63 characters (e.g. opendatahub)\n" +
        "p: namespaces.components['widgets']: 'w_s' is not a valid namespace name; use a lower-case DNS label of at most 63 characters (e.g. opendatahub)",
    );
  });

  test('fails when a component switch or a failure policy is not one of its values', () => {
    expect(constructionError({ components: { widgets: 'no' as any }, webhooks: { 'widgets/widget-validating/vwidget.example.com': { failurePolicy: 'Sometimes' as any } } })).toBe(
      "p: invalid customization of platform 'p':\n" +
        "p: components['widgets']: \"no\" must be true (on) or false (off)\n" +
        "p: webhooks['widgets/widget-validating/vwidget.example.com'].failurePolicy: 'Sometimes' must be 'Fail' or 'Ignore'",
    );
  });

  test('fails when a patch has no target name or an operation is not RFC 6902', () => {
    expect(constructionError({
      patches: [
        { target: { kind: 'Deployment', name: '' }, ops: [{ op: 'remove', path: '/spec/replicas' }] },
        { target: { kind: 'Deployment', name: 'widget-controller' }, ops: [{ op: 'replace', path: '/spec/replicas' } as any] },
        { target: { kind: 'Deployment', name: 'widget-controller' }, ops: [] },
      ],
    })).toBe(
      "p: invalid customization of platform 'p':\n" +
        'p: patches[0]: target needs kind and name (and optionally namespace, component)\n' +
        'p: patches[1] (Deployment widget-controller): ops[0] {"op":"replace","path":"/spec/replicas"} is not a valid RFC 6902 operation: Operation `value` property is not present (applicable in `add`, `replace` and `test` operations)\n' +
        'p: patches[2]: ops must be a non-empty array of RFC 6902 operations',
    );
  });
});

describe('customization: components', () => {
  test('a component turned off emits nothing, and the platform still builds without it when nothing needs it', () => {
    const objs = objects(platform({ components: { gadgets: false } }));
    expect(objs.some((o) => o.metadata?.name === 'gadget-controller')).toBe(false);
    expect(find(objs, 'Deployment', 'widget-controller')).toBeDefined();
  });

  test('true keeps a component on', () => {
    expect(find(objects(platform({ components: { gadgets: true } })), 'Deployment', 'gadget-controller')).toBeDefined();
  });

  test('fails when a component is unknown, naming the valid ones', () => {
    expect(problemsOf(platform({ components: { gizmos: false } }))).toEqual([
      "p: components['gizmos']: the platform has no component 'gizmos'; valid components: 'gadgets', 'widgets'",
    ]);
  });

  test('fails when a component that is on needs one that is off, naming both and the switch', () => {
    expect(problemsOf(platform({ components: { widgets: false } }))).toEqual([
      "p/gadgets: component 'gadgets' (TestComponent) requires example.com/Widget (gadgets are made of widgets), but no component of platform 'p' provides it and no prerequisite declares it; " +
        "component 'widgets' provides it but customization turns it off (components: { 'widgets': false }); turn it on, or turn 'gadgets' off too, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'example.com', kind: 'Widget' }] }]",
    ]);
  });
});

describe('customization: images', () => {
  test('a mirror for all, a tag for one image and a digest for another', () => {
    const digest = 'sha256:' + 'a'.repeat(64);
    const objs = objects(platform({ images: { registryMirror: 'mirror.example.com/ml', overrides: { 'widgets/manager': { tag: 'v1.0.1' }, 'gadgets/manager': { digest } } } }));
    const image = (name: string) => find(objs, 'Deployment', name).spec.template.spec.containers[0].image;
    expect(image('widget-controller')).toBe('mirror.example.com/ml/example/manager:v1.0.1');
    expect(image('gadget-controller')).toBe(`mirror.example.com/ml/example/manager@${digest}`);
  });

  test('fails when an override names no image of any component, naming the valid keys', () => {
    expect(problemsOf(platform({ images: { overrides: { 'widgets/controller': { tag: 'v2' } } } }))).toEqual([
      "p: images.overrides['widgets/controller']: no component has an image 'widgets/controller' (keys are <component>/<image key>); valid keys: 'gadgets/manager', 'widgets/manager'",
    ]);
  });

  test('an override for a component that is off is still a valid key (turning it on again keeps the pin)', () => {
    expect(problemsOf(platform({ components: { gadgets: false }, images: { overrides: { 'gadgets/manager': { tag: 'v9' } } } }))).toEqual([]);
  });
});

describe('customization: controllers', () => {
  test('replicas and resources of a controller and of a workload, resources merged key by key', () => {
    const objs = objects(platform({
      controllers: {
        'widgets/widget-controller': { replicas: 3, resources: { limits: { memory: '1Gi' } } },
        'widgets/widget-ui': { replicas: 2, resources: { requests: { cpu: '50m' } } },
        'gadgets/gadget-controller': { replicas: 0 },
      },
    }));
    const widget = find(objs, 'Deployment', 'widget-controller');
    expect(widget.spec.replicas).toBe(3);
    expect(widget.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '500m', memory: '1Gi' } });
    const ui = find(objs, 'Deployment', 'widget-ui');
    expect(ui.spec.replicas).toBe(2);
    expect(ui.spec.template.spec.containers[0].resources).toEqual({ requests: { cpu: '50m', memory: '64Mi' } });
    expect(find(objs, 'Deployment', 'gadget-controller').spec.replicas).toBe(0);
  });

  test('fails when a target names no controller, naming the valid targets', () => {
    expect(problemsOf(platform({ controllers: { 'widgets/widget-manager': { replicas: 2 } } }))).toEqual([
      "p: controllers['widgets/widget-manager']: no controller 'widgets/widget-manager' in the platform; " +
        "valid targets: 'gadgets/gadget-controller', 'widgets/widget-controller', 'widgets/widget-ui'",
    ]);
  });

  test('fails when replicas would run a controller without leader election twice', () => {
    expect(constructionError({ controllers: { 'gadgets/gadget-controller': { replicas: 2 } } })).toBe(
      "p/gadgets/Manager: customization controllers['gadgets/gadget-controller'].replicas 2: the controller has no leader election, so several managers would reconcile at once; use replicas: 1 (or 0)",
    );
  });

  test('fails when a request merged over the component\'s limits exceeds them', () => {
    expect(constructionError({ controllers: { 'widgets/widget-controller': { resources: { requests: { cpu: '1' } } } } })).toBe(
      "p/widgets/Manager: customization controllers['widgets/widget-controller'].resources merged over the component's: requests.cpu '1' is above limits.cpu '500m'; " +
        'raise the limit or lower the request',
    );
  });
});

describe('customization: namespaces', () => {
  test('one applications namespace for every component; a per-component namespace wins', () => {
    const objs = objects(platform({ namespaces: { applications: 'apps', components: { gadgets: 'gadgets' }, labels: { apps: { owner: 'platform-team' } } } }));
    expect(find(objs, 'Deployment', 'widget-controller').metadata.namespace).toBe('apps');
    expect(find(objs, 'Service', 'widget-webhook').metadata.namespace).toBe('apps');
    expect(find(objs, 'ValidatingWebhookConfiguration', 'widget-validating').webhooks[0].clientConfig.service.namespace).toBe('apps');
    expect(find(objs, 'Deployment', 'gadget-controller').metadata.namespace).toBe('gadgets');
    expect(find(objs, 'Namespace', 'apps').metadata.labels).toEqual({ owner: 'platform-team', team: 'widgets' });
  });

  test('components sharing a namespace share one Namespace carrying the union of their labels', () => {
    const p = newPlatform({ namespaces: { applications: 'apps' } });
    new TestComponent(p, 'a', 'a', (c) => c.namespaceObject({ x: '1' }));
    new TestComponent(p, 'b', 'b', (c) => c.namespaceObject({ y: '2' }));
    const namespaces = build(p).model.objects.filter((o) => o.json.kind === 'Namespace').map((o) => o.json);
    expect(namespaces).toEqual([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps', labels: { x: '1', y: '2' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps', labels: { x: '1', y: '2' } } },
    ]);
  });

  test('fails when two components in one namespace ask for different values of a label; customization settles it', () => {
    const make = (labels?: Record<string, Record<string, string>>) => {
      const p = newPlatform({ namespaces: { applications: 'apps', labels } });
      new TestComponent(p, 'a', 'a', (c) => c.namespaceObject({ 'control-plane': 'a-manager' }));
      new TestComponent(p, 'b', 'b', (c) => c.namespaceObject({ 'control-plane': 'b-manager' }));
      return p;
    };
    expect(() => make()).toThrow(
      "p/b: namespace 'apps' needs label control-plane=b-manager, but component 'a' in the same namespace needs control-plane=a-manager; " +
        "choose the value with customization namespaces.labels: { 'apps': { 'control-plane': '...' } }, or put the two components in different namespaces (namespaces.components)",
    );
    const ns = build(make({ apps: { 'control-plane': 'shared' } })).model.objects.find((o) => o.json.kind === 'Namespace')!.json;
    expect(ns.metadata.labels).toEqual({ 'control-plane': 'shared' });
  });

  test('fails when a per-component namespace or namespace labels name nothing in the platform', () => {
    expect(problemsOf(platform({ namespaces: { components: { gizmos: 'gizmos' }, labels: { 'widget-system': { a: 'b' } } } }))).toEqual([
      "p: namespaces.labels['widget-system']: no component runs in namespace 'widget-system'; namespaces of the platform: 'gadgets-system', 'widgets-system'",
      "p: namespaces.components['gizmos']: the platform has no component 'gizmos'; valid components: 'gadgets', 'widgets'",
    ]);
  });
});

describe('customization: certificate provider', () => {
  test('OpenShift service-ca instead of cert-manager', () => {
    const objs = objects(platform({ certificates: CertificateProvider.openShiftServiceCa() }));
    expect(objs.some((o) => o.kind === 'Certificate' || o.kind === 'Issuer')).toBe(false);
    expect(find(objs, 'Service', 'widget-webhook').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'widget-webhook-tls' });
    expect(find(objs, 'ValidatingWebhookConfiguration', 'widget-validating').metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
  });
});

describe('customization: webhook failure policy', () => {
  test('sets the policy of a webhook its construct marks as overridable', () => {
    const objs = objects(platform({ webhooks: { 'widgets/widget-validating/vwidget.example.com': { failurePolicy: 'Ignore' } } }));
    expect(find(objs, 'ValidatingWebhookConfiguration', 'widget-validating').webhooks[0].failurePolicy).toBe('Ignore');
    expect(find(objs, 'MutatingWebhookConfiguration', 'widget-mutating').webhooks[0].failurePolicy).toBe('Fail');
  });

  test('fails when the webhook is not marked overridable, naming the ones that are', () => {
    expect(problemsOf(platform({ webhooks: { 'widgets/widget-mutating/mwidget.example.com': { failurePolicy: 'Ignore' } } }))).toEqual([
      "p: webhooks['widgets/widget-mutating/mwidget.example.com'].failurePolicy: upstream supports only the construct's policy for this webhook (it guards what its controller relies on), " +
        'so it cannot be changed; remove the override (a JSON patch would be checked the same way); webhooks whose failurePolicy may be set: widgets/widget-validating/vwidget.example.com',
    ]);
  });

  test('fails when the webhook does not exist, naming the overridable ones', () => {
    expect(problemsOf(platform({ webhooks: { 'widgets/vwidget.example.com': { failurePolicy: 'Ignore' } } }))).toEqual([
      "p: webhooks['widgets/vwidget.example.com']: no webhook 'widgets/vwidget.example.com' (<component>/<configuration>/<webhook>) in the platform; " +
        "webhooks whose failurePolicy may be set: 'widgets/widget-validating/vwidget.example.com'",
    ]);
  });
});

describe('customization: JSON patches', () => {
  test('applies RFC 6902 operations to the emitted JSON, by kind, namespace, name and component', () => {
    const objs = objects(platform({
      patches: [
        {
          target: { kind: 'Deployment', name: 'widget-controller', namespace: 'widgets-system', component: 'widgets' },
          ops: [
            { op: 'test', path: '/spec/replicas', value: 1 },
            { op: 'add', path: '/spec/template/spec/priorityClassName', value: 'system-cluster-critical' },
            { op: 'add', path: '/metadata/labels/tier', value: 'control' },
          ],
        },
        { target: { kind: 'Deployment', name: 'gadget-controller' }, ops: [{ op: 'remove', path: '/spec/template/spec/terminationGracePeriodSeconds' }] },
      ],
    }));
    const widget = find(objs, 'Deployment', 'widget-controller');
    expect(widget.spec.template.spec.priorityClassName).toBe('system-cluster-critical');
    expect(widget.metadata.labels.tier).toBe('control');
    expect(find(objs, 'Deployment', 'gadget-controller').spec.template.spec.terminationGracePeriodSeconds).toBeUndefined();
  });

  test('patched objects are checked like the rest: a patch that breaks the webhook wiring fails the build', () => {
    const problems = problemsOf(platform({ patches: [{ target: { kind: 'Service', name: 'widget-webhook' }, ops: [{ op: 'replace', path: '/spec/selector', value: { app: 'nothing' } }] }] }));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('[MLP02'))).toBe(true);
    expect(problems.join('\n')).toContain('widget-webhook');
  });

  test('a patch that makes an object invalid fails the schema check', () => {
    const problems = problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'gadget-controller' }, ops: [{ op: 'add', path: '/spec/replicaz', value: 2 }] }] }));
    expect(problems).toEqual([expect.stringMatching(/^\[MLP001\] p\/gadgets\/Manager\/Deployment: .*replicaz/)]);
  });

  test('fails when the target matches no object, naming objects of that name', () => {
    expect(problemsOf(platform({ patches: [{ target: { kind: 'StatefulSet', name: 'widget-controller' }, ops: [{ op: 'remove', path: '/spec/replicas' }] }] }))).toEqual([
      "p: patches[0] (StatefulSet widget-controller): matches no object of the platform; objects named 'widget-controller': " +
        "ServiceAccount widgets-system/widget-controller of component 'widgets', Deployment widgets-system/widget-controller of component 'widgets'; fix the target's kind, name, namespace or component",
    ]);
    expect(problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'widget-controller', component: 'gadgets' }, ops: [{ op: 'remove', path: '/spec/replicas' }] }] }))[0]).toMatch(
      /^p: patches\[0\] \(Deployment widget-controller of component 'gadgets'\): matches no object of the platform;/,
    );
  });

  test('fails when an operation\'s path does not exist, naming the target, the op and the path, and what is there', () => {
    expect(problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'widget-controller' }, ops: [{ op: 'replace', path: '/spec/template/spec/hostNetwork', value: false }] }] }))).toEqual([
      "p: patches[0] (Deployment widget-controller): ops[0] op 'replace' at path '/spec/template/spec/hostNetwork' failed on Deployment widgets-system/widget-controller of component 'widgets': " +
        'the path does not exist (/spec/template/spec has keys automountServiceAccountToken, containers, securityContext, serviceAccountName, terminationGracePeriodSeconds, volumes); ' +
        "fix the path or use 'add' to create it",
    ]);
  });

  test('fails when a test operation does not match', () => {
    expect(problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'widget-controller' }, ops: [{ op: 'test', path: '/spec/replicas', value: 5 }] }] }))).toEqual([
      "p: patches[0] (Deployment widget-controller): ops[0] op 'test' at path '/spec/replicas' failed on Deployment widgets-system/widget-controller of component 'widgets': " +
        'the value at the path differs from the test value; the object is not what the patch expects (check the object in dist/ and update the patch)',
    ]);
  });

  test('fails when a move names a from path that does not exist, showing what is at the from path\'s parent', () => {
    expect(problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'widget-controller' }, ops: [{ op: 'move', from: '/spec/template/spec/hostNetwork', path: '/spec/paused' }] }] }))).toEqual([
      "p: patches[0] (Deployment widget-controller): ops[0] op 'move' at path '/spec/paused' failed on Deployment widgets-system/widget-controller of component 'widgets': " +
        'the path does not exist (/spec/template/spec has keys automountServiceAccountToken, containers, securityContext, serviceAccountName, terminationGracePeriodSeconds, volumes); ' +
        "fix the path or use 'add' to create it",
    ]);
  });

  test('fails when an add has no parent', () => {
    expect(problemsOf(platform({ patches: [{ target: { kind: 'Deployment', name: 'widget-controller' }, ops: [{ op: 'add', path: '/spec/strategy/type', value: 'Recreate' }] }] }))[0]).toBe(
      "p: patches[0] (Deployment widget-controller): ops[0] op 'add' at path '/spec/strategy/type' failed on Deployment widgets-system/widget-controller of component 'widgets': " +
        'Cannot perform an `add` operation at the desired path (/spec has keys replicas, selector, template); fix the path or use \'add\' to create it',
    );
  });
});

describe('customization helpers', () => {
  test('parseQuantity reads decimal and binary suffixes and exponents', () => {
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('2')).toBe(2);
    expect(parseQuantity('1Ki')).toBe(1024);
    expect(parseQuantity('1.5G')).toBe(1.5e9);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity('-1')).toBe(-1);
    expect(parseQuantity('1 Gi')).toBeUndefined();
  });

  test('mergeResources merges by resource name; resourceProblems compares across units', () => {
    expect(mergeResources({ requests: { cpu: '1' } }, { limits: { cpu: '2' } })).toEqual({ requests: { cpu: '1' }, limits: { cpu: '2' } });
    expect(resourceProblems({ requests: { memory: '1Gi' }, limits: { memory: '1000Mi' } }, 'x')).toEqual([
      "x: requests.memory '1Gi' is above limits.memory '1000Mi'; raise the limit or lower the request",
    ]);
    expect(resourceProblems({ requests: { memory: '1G' }, limits: { memory: '1Gi' } }, 'x')).toEqual([]);
  });

  test('validChoices suggests the nearest names in a long list', () => {
    const many = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'];
    expect(validChoices('hotle', many)).toBe("did you mean 'hotel'? 'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'");
    expect(validChoices('x', ['b', 'a'])).toBe("'a', 'b'");
  });
});
