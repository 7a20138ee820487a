import { ApiObject } from 'cdk8s';
import { SAFETY_CASES } from './safety-cases';
import { build, newPlatform, problemsOf, RESTRICTED_CONTAINER, RESTRICTED_POD, TestComponent, widgetDef } from './support';
import { CertificateProvider } from '../../lib/certificates';
import { CHECKS } from '../../lib/checks';
import { CERT_MANAGER } from '../../lib/component';
import { Controller, ControllerProps } from '../../lib/controller';
import { Phase, setPhase } from '../../lib/phases';
import { Platform } from '../../lib/platform';
import { ISTIO } from '../../lib/prerequisites';
import { Rbac, RuntimeRole } from '../../lib/rbac';
import { platformReport } from '../../lib/report';
import { RuntimeWebhook } from '../../lib/runtime-webhooks';
import { s } from '../../lib/schema/dsl';
import { declareSecurityExceptions } from '../../lib/security';
import { excludingNamespaces, WebhookProps, WebhookServer } from '../../lib/webhook-server';
import { Workload, WorkloadProps } from '../../lib/workload';

const NS = 'test-system';
const RUNTIME_WEBHOOK: RuntimeWebhook = {
  type: 'validating',
  configurationName: 'widget-runtime',
  name: 'vwidget.example.com',
  createdBy: 'widget-controller',
  when: 'when a Widget asks for it',
  service: { name: 'widget-runtime-webhook', namespace: NS, port: 8443, path: '/validate' },
  rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }],
};
const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };
/** A Role an operator creates per Widget at run time. */
const RUNNER_ROLE: RuntimeRole = {
  kind: 'Role',
  name: 'runner-<widget>',
  createdFor: 'per Widget, from its runner template',
  rules: [Rbac.verbs('', ['pods'], ['delete', 'get']), Rbac.verbs('', ['pods/log'], ['get']), { apiGroups: [''], resources: ['secrets'], resourceNames: ['widget-db'], verbs: ['get'] }],
};

/** A platform with one component 'test' (namespace test-system, its Namespace object) built by `body`. */
function platformWith(body: (c: TestComponent) => void, platform: Platform = newPlatform()): Platform {
  new TestComponent(platform, 'test', NS, (self) => {
    self.namespaceObject();
    body(self);
  });
  return platform;
}

const problems = (body: (c: TestComponent) => void, platform?: Platform) => problemsOf(platformWith(body, platform));

function manager(c: TestComponent, props: Partial<ControllerProps> = {}): Controller {
  return new Controller(c, 'Manager', { name: 'widget-controller', image: c.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 }, ...props });
}

/** A second controller in the same namespace, with its own selector. */
function manager2(c: TestComponent, labels: Record<string, string> = {}): Controller {
  return new Controller(c, 'Manager2', { name: 'gadget-controller', image: c.image('manager'), selectorLabels: { 'app.kubernetes.io/name': 'gadget-controller' }, labels });
}

function server(c: TestComponent, ctl: Controller = manager(c)): WebhookServer {
  return new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
}

const webhook = (name: string, rules: WebhookProps['rules'], extra: Partial<WebhookProps> = {}): WebhookProps => ({ name, path: '/validate', rules, ...extra });

/** A hand-written ValidatingWebhookConfiguration with one webhook. */
function rawWebhookConfig(c: TestComponent, clientConfig: Record<string, unknown>, extra: { annotations?: Record<string, string>; failurePolicy?: string; rules?: unknown[] } = {}): ApiObject {
  return new ApiObject(c, 'RawWebhook', {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'raw', annotations: extra.annotations },
    webhooks: [
      {
        name: 'raw.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: extra.failurePolicy ?? 'Ignore',
        clientConfig,
        rules: extra.rules ?? [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }],
      },
    ],
  } as any);
}

function rawService(c: TestComponent, name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): ApiObject {
  return new ApiObject(c, `Svc-${name}`, { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: NS, annotations }, spec });
}

const widget = (c: TestComponent, id: string, spec: Record<string, unknown>, apiVersion = 'example.com/v1', kind = 'Widget'): ApiObject =>
  new ApiObject(c, id, { apiVersion, kind, metadata: { name: id.toLowerCase(), namespace: NS }, spec });

const CA_BUNDLE = Buffer.from('test CA').toString('base64');

/** Replaces the v1 schema of the Widget CRD. */
const widgetWith = (schema: ReturnType<typeof s.object>) => {
  const base = widgetDef();
  return { ...base, versions: [{ ...base.versions[0], schema }] };
};

interface Case {
  /** The rule the case makes fire. */
  readonly rule: string;
  /** What the case does, in words (the test name). */
  readonly what: string;
  readonly body: (c: TestComponent) => void;
  /** The exact problems buildPlatform reports. */
  readonly expected: string[];
  readonly platform?: () => Platform;
}

const POD_RULE = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE' as const] }];
/** What MLP053 asks of a fail-closed webhook on built-in kinds (the cases of other rules pass it). */
const NO_KUBE_SYSTEM = { namespaceSelector: excludingNamespaces(['kube-system']) };
/** For cases about other rules that need a webhook on built-in kinds in its own namespace. */
const OWN_NAMESPACE_ON_PURPOSE = { ...NO_KUBE_SYSTEM, securityExceptions: [{ check: 'webhookNamespaces' as const, reason: 'the case is about another rule' }] };
const CM_RULE = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], operations: ['CREATE' as const] }];
const backendService = (c: TestComponent) => rawService(c, 'widget-webhook', { selector: SELECTOR, ports: [{ port: 443, targetPort: 'webhook-server' }] });

/** Every case makes exactly one rule fire; together they cover every rule in CHECKS. */
const CASES: Case[] = [
  {
    rule: 'MLP001',
    what: 'a Deployment with an unknown field',
    body: (c) => {
      new ApiObject(c, 'Bad', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'bad', namespace: NS },
        spec: {
          selector: { matchLabels: { app: 'bad' } },
          template: { metadata: { labels: { app: 'bad' } }, spec: { securityContext: RESTRICTED_POD, containers: [{ name: 'c', image: 'example/c:v1', bogus: true, ...RESTRICTED_CONTAINER }] } },
        },
      });
    },
    expected: ['[MLP001] p/test/Bad: Deployment bad: spec.template.spec.containers[0].bogus: unknown field'],
  },
  {
    rule: 'MLP002',
    what: 'a custom resource violating the schema of its CRD',
    body: (c) => {
      c.crd(widgetDef());
      widget(c, 'Big', { size: 'big', color: 'green' });
      widget(c, 'Zero', { size: 0 });
    },
    expected: [
      '[MLP002] p/test/Big: Widget big: spec.color: expected one of "red", "blue"; got "green"',
      '[MLP002] p/test/Big: Widget big: spec.size: expected integer, got "big"',
      '[MLP002] p/test/Zero: Widget zero: spec.size: expected a number at least 1, got 0',
    ],
  },
  {
    rule: 'MLP002',
    what: 'a custom resource violating a CEL rule of its CRD',
    body: (c) => {
      c.crd(widgetWith(s.object({ spec: s.object({ min: s.integer(), max: s.integer() }).rule('self.max >= self.min', 'max must be at least min').required() })));
      widget(c, 'Inverted', { min: 3, max: 1 });
      widget(c, 'Fine', { min: 1, max: 3 });
    },
    expected: ['[MLP002] p/test/Inverted: Widget inverted: spec: max must be at least min'],
  },
  {
    rule: 'MLP003',
    what: 'a CRD whose CEL rule does not parse',
    body: (c) => {
      c.crd(widgetWith(s.object({ spec: s.object({ size: s.integer() }).rule('self.size >', 'broken') })));
    },
    expected: [
      '[MLP003] p/test/Widget/Resource: CRD widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule: ' +
        '"self.size >" does not compile: at 1:11: found > but expecting end of input',
    ],
  },
  {
    rule: 'MLP003',
    what: 'a CRD whose CEL rule calls an unknown function',
    body: (c) => {
      c.crd(widgetWith(s.object({ spec: s.object({ name: s.string() }).rule('self.name.frobnicate()', 'broken') })));
    },
    expected: [
      '[MLP003] p/test/Widget/Resource: CRD widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule: ' +
        '"self.name.frobnicate()" does not compile: unknown function frobnicate',
    ],
  },
  {
    rule: 'MLP003',
    what: 'a CRD rule that reads metadata.namespace at the root (CEL sees only name and generateName there)',
    body: (c) => {
      c.crd(widgetWith(s.object({ spec: s.object({ size: s.integer() }) }).rule("self.metadata.namespace == 'x'", 'one namespace only')));
    },
    expected: [
      '[MLP003] p/test/Widget/Resource: CRD widgets.example.com: spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: '
        + '"self.metadata.namespace == \'x\'" does not compile on Kubernetes 1.32: undefined field \'namespace\'',
    ],
  },
  {
    rule: 'MLP003',
    what: 'a CRD rule whose estimated cost is over the per-rule budget (a regex over unbounded strings in an unbounded list)',
    body: (c) => {
      c.crd(widgetWith(s.object({ spec: s.object({ names: s.array(s.string()) }).rule("self.names.all(n, n.matches('^[a-z]+$'))", 'lower case') })));
    },
    expected: [
      '[MLP003] p/test/Widget/Resource: CRD widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule: '
        + '"self.names.all(n, n.matches(\'^[a-z]+$\'))": the estimated cost exceeds the API server\'s per-rule budget by a factor of more than 100x '
        + '(659710961253 per evaluation, up to 1 evaluations; limit 10000000): bound what it reads with maxItems, maxProperties and maxLength, or simplify the rule',
      '[MLP003] p/test/Widget/Resource: CRD widgets.example.com: spec.versions[0].schema.openAPIV3Schema: the estimated cost of all its CEL rules (659710961253) exceeds '
        + 'the API server\'s per-CRD budget of 100000000 by a factor of more than 100x: bound the lists, maps and strings the costliest rules read (maxItems, maxProperties, maxLength)',
    ],
  },
  {
    rule: 'MLP070',
    what: 'a component that needs a newer Kubernetes than the platform targets',
    body: (c) => {
      c.needsKubernetes({ min: '1.31', feature: 'the IP library in CRD rules', source: 'its release notes', basis: 'crd-rules' });
    },
    platform: () => newPlatform({ kubernetesVersion: '1.30' }),
    expected: [
      "[MLP070] p/test: component test (TestComponent) needs Kubernetes 1.31 or newer for the IP library in CRD rules (its release notes), but the platform's kubernetesVersion is 1.30: "
        + "set kubernetesVersion to '1.31' or newer, or turn the component off (components: { 'test': false })",
    ],
  },
  {
    rule: 'MLP004',
    what: 'two objects with the same kind, namespace and name',
    body: (c) => {
      new ApiObject(c, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: NS } });
      new ApiObject(c, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: NS } });
    },
    expected: ['[MLP004] p/test/B: ConfigMap test-system/settings is also emitted by p/test/A; remove one or rename it'],
  },
  {
    rule: 'MLP010',
    what: 'a custom resource whose kind no CRD serves',
    body: (c) => {
      widget(c, 'Gizmo', { size: 1 }, 'other.example.com/v1', 'Gizmo');
    },
    expected: [
      '[MLP010] p/test/Gizmo: Gizmo gizmo (other.example.com/v1) is served by no CRD in the platform and no prerequisite; add the component that owns other.example.com/Gizmo or declare it in prerequisites',
    ],
  },
  {
    rule: 'MLP010',
    what: 'a custom resource forced into the foundation phase with setPhase',
    body: (c) => {
      c.crd(widgetDef());
      setPhase(widget(c, 'Early', { size: 1 }), Phase.FOUNDATION);
    },
    expected: [
      '[MLP010] p/test/Early: Widget early is in phase 00-foundation, not after its CRD widgets.example.com (phase 00-foundation); put it in a later phase (setPhase(obj, Phase.RESOURCES))',
    ],
  },
  {
    rule: 'MLP010',
    what: 'a custom resource of a version its CRD does not serve (MLP002 reports it too)',
    body: (c) => {
      c.crd(widgetDef());
      widget(c, 'Future', { size: 1 }, 'example.com/v2');
    },
    expected: [
      '[MLP002] p/test/Future: Widget future: apiVersion: version "v2" is not defined by CRD widgets.example.com (it has v1)',
      '[MLP010] p/test/Future: Widget future uses example.com/v2, which CRD widgets.example.com does not serve (serves v1)',
    ],
  },
  {
    rule: 'MLP011',
    what: 'an object in a namespace nobody creates',
    body: (c) => {
      new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'nowhere' } });
    },
    expected: [
      "[MLP011] p/test/Cm: ConfigMap cm is in namespace 'nowhere', which the platform neither creates nor lists in existingNamespaces; add the namespace or list it",
    ],
  },
  {
    rule: 'MLP011',
    what: 'an object applied before the Namespace another component creates',
    body: (c) => {
      // Component 'test' comes first; its foundation-phase ConfigMap precedes the Namespace of 'later'.
      setPhase(new ApiObject(c, 'Early', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'early', namespace: 'later-system' } }), Phase.FOUNDATION);
      new TestComponent(c.platform, 'later', 'later-system', (later) => later.namespaceObject());
    },
    expected: ['[MLP011] p/test/Early: ConfigMap early comes before its Namespace later-system'],
  },
  {
    rule: 'MLP020',
    what: 'a webhook pointing at a missing Service',
    body: (c) => {
      rawWebhookConfig(c, { service: { name: 'missing', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE });
    },
    expected: ['[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw points at Service test-system/missing, which is not in the platform output'],
  },
  {
    rule: 'MLP020',
    what: 'a webhook pointing at a port the Service does not expose',
    body: (c) => {
      server(c);
      rawWebhookConfig(c, { service: { name: 'widget-webhook', namespace: NS, path: '/validate', port: 8443 }, caBundle: CA_BUNDLE });
    },
    expected: ['[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw points at port 8443 of Service test-system/widget-webhook, which exposes 443'],
  },
  {
    rule: 'MLP020',
    what: 'a webhook Service selecting no workload',
    body: (c) => {
      rawService(c, 'ghost', { selector: { app: 'ghost' }, ports: [{ port: 443, targetPort: 9443 }] });
      rawWebhookConfig(c, { service: { name: 'ghost', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE });
    },
    expected: ['[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw Service ghost selects {"app":"ghost"}, which matches no workload\'s pod labels in namespace test-system'],
  },
  {
    rule: 'MLP020',
    what: 'a webhook Service without a selector',
    body: (c) => {
      rawService(c, 'bare', { ports: [{ port: 443, targetPort: 9443 }] });
      rawWebhookConfig(c, { service: { name: 'bare', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE });
    },
    expected: ['[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw Service bare has no selector, so no workload backs it'],
  },
  {
    rule: 'MLP020',
    what: 'a webhook Service whose targetPort no container exposes',
    body: (c) => {
      manager(c);
      rawService(c, 'wrong-target', { selector: SELECTOR, ports: [{ port: 443, targetPort: 9999 }] });
      rawWebhookConfig(c, { service: { name: 'wrong-target', namespace: NS, path: '/validate' }, caBundle: CA_BUNDLE });
    },
    expected: ["[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw Service wrong-target port 443 targets '9999', which no container of widget-controller exposes"],
  },
  {
    rule: 'MLP020',
    what: 'a webhook with a url instead of a Service',
    body: (c) => {
      rawWebhookConfig(c, { url: 'https://webhook.example.com/validate', caBundle: CA_BUNDLE });
    },
    expected: ['[MLP020] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw uses url https://webhook.example.com/validate; only in-cluster services can be checked, use clientConfig.service'],
  },
  {
    rule: 'MLP020',
    what: 'a conversion webhook pointing at a missing Service',
    body: (c) => {
      const v1 = widgetDef().versions[0];
      c.crd(widgetDef({ versions: [{ ...v1, name: 'v1beta1', storage: false, schema: v1.schema.omit('status') }, v1], conversion: { strategy: 'Webhook' } }), {
        conversionWebhook: { serviceName: 'missing', serviceNamespace: NS, port: 443, caBundle: CA_BUNDLE, annotations: {} },
      });
    },
    expected: [expect.stringMatching(/^\[MLP020\] p\/test\/Widget\/Resource: conversion webhook of CRD widgets\.example\.com points at Service test-system\/missing, which is not in the platform output$/) as any],
  },
  {
    rule: 'MLP001',
    what: 'a ClusterRole rule with only verbs (a non-resource URL dropped on the way)',
    body: (c) => {
      new ApiObject(c, 'BadRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bad' }, rules: [{ verbs: ['get'] }] });
    },
    expected: [
      '[MLP001] p/test/BadRole: ClusterRole bad: rules[0].apiGroups: a resource rule needs at least one API group ("" for the core group); for non-resource URLs set nonResourceURLs',
      '[MLP001] p/test/BadRole: ClusterRole bad: rules[0].resources: a resource rule needs at least one resource',
    ],
  },
  {
    rule: 'MLP021',
    what: 'a self-managed webhook whose rotator may not patch the configuration',
    body: (c) => {
      const srv = new WebhookServer(c, 'Webhooks', { controller: manager(c), serviceName: 'widget-webhook', secretName: 'widget-webhook-tls', selfManaged: { required: true } });
      srv.addValidatingWebhook('widget-validator', webhook('vwidget.example.com', [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }]));
      expect(srv.node.tryRemoveChild('RotatorClusterRoleBinding')).toBe(true);
    },
    expected: [
      "[MLP021] p/test/Webhooks/Validating-widget-validator: webhook vwidget.example.com of ValidatingWebhookConfiguration widget-validator: its caBundle is patched at run time by a self-managed rotator, but that controller's RBAC does not allow update on ValidatingWebhookConfiguration widget-validator; grant it (WebhookServer adds the rotator's roles)",
    ],
  },
  {
    rule: 'MLP021',
    what: 'a webhook configuration without a CA source',
    body: (c) => {
      manager(c);
      backendService(c);
      rawWebhookConfig(c, { service: { name: 'widget-webhook', namespace: NS, path: '/validate' } });
    },
    expected: [
      "[MLP021] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw has no CA source: no caBundle, no cert-manager injection, no OpenShift service-ca (with the Service's serving-cert annotation)",
    ],
  },
  {
    rule: 'MLP021',
    what: 'a webhook configuration injecting the CA of a Certificate that is not in the output',
    body: (c) => {
      manager(c);
      backendService(c);
      rawWebhookConfig(c, { service: { name: 'widget-webhook', namespace: NS, path: '/validate' } }, { annotations: { 'cert-manager.io/inject-ca-from': `${NS}/missing-cert` } });
    },
    expected: ['[MLP021] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw: cert-manager.io/inject-ca-from names Certificate test-system/missing-cert, which is not in the platform output'],
  },
  {
    rule: 'MLP021',
    what: 'an OpenShift inject-cabundle annotation while the Service has no serving-cert annotation',
    body: (c) => {
      manager(c);
      backendService(c);
      rawWebhookConfig(c, { service: { name: 'widget-webhook', namespace: NS, path: '/validate' } }, { annotations: { 'service.beta.openshift.io/inject-cabundle': 'true' } });
    },
    expected: [
      "[MLP021] p/test/RawWebhook: webhook raw.example.com of ValidatingWebhookConfiguration raw has no CA source: no caBundle, no cert-manager injection, no OpenShift service-ca (with the Service's serving-cert annotation)",
    ],
  },
  {
    rule: 'MLP022',
    what: 'a fail-closed webhook intercepting the pods of its own backend',
    body: (c) => {
      server(c).addMutatingWebhook('pod-defaulter', webhook('pods.example.com', POD_RULE, NO_KUBE_SYSTEM));
    },
    expected: [
      '[MLP022] p/test/Webhooks/Mutating-pod-defaulter: fail-closed webhook pods.example.com of MutatingWebhookConfiguration pod-defaulter intercepts the pods of its own backend Deployment widget-controller: ' +
        'after a restart no pod can be created; exclude them with namespaceSelector/objectSelector',
    ],
  },
  {
    rule: 'MLP022',
    what: 'an object in 10-controllers intercepted by a webhook whose configuration is moved to an earlier phase',
    body: (c) => {
      const srv = server(c);
      srv.addValidatingWebhook('cm-validator', webhook('cm.example.com', CM_RULE, OWN_NAMESPACE_ON_PURPOSE));
      setPhase(srv.node.findAll().find((x): x is ApiObject => x instanceof ApiObject && x.kind === 'ValidatingWebhookConfiguration')!, Phase.FOUNDATION);
      new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS } });
    },
    expected: [
      '[MLP022] p/test/Cm: ConfigMap cm (phase 10-controllers) is intercepted by fail-closed webhook cm.example.com of ValidatingWebhookConfiguration cm-validator, whose backend widget-controller is in phase 10-controllers; ' +
        'apply it in a later phase than the backend',
    ],
  },
  {
    rule: 'MLP022',
    what: 'a widget applied after the operator that creates a fail-closed webhook for widgets at run time',
    body: (c) => {
      c.crd(widgetDef());
      manager(c, { ports: {} });
      c.runtimeWebhook(RUNTIME_WEBHOOK);
      widget(c, 'Default', { size: 2 });
    },
    expected: [
      '[MLP022] p/test/Default: Widget default (phase 30-resources) is intercepted by fail-closed runtime-created webhook vwidget.example.com of ValidatingWebhookConfiguration widget-runtime, ' +
        'which widget-controller (phase 10-controllers) creates at run time (when a Widget asks for it) with a backend not in the output; create it after the operator reports ready, not in the platform output',
    ],
  },
  {
    rule: 'MLP022',
    what: 'a runtime-created webhook whose creator is not in the output',
    body: (c) => {
      c.runtimeWebhook({ ...RUNTIME_WEBHOOK, createdBy: 'missing-operator' });
    },
    expected: [
      '[MLP022] p/test: runtime-created webhook vwidget.example.com of ValidatingWebhookConfiguration widget-runtime is created by missing-operator, which is not a workload of test in the output; name the operator\'s Deployment in createdBy',
    ],
  },
  {
    rule: 'MLP010',
    what: 'a custom resource at a version its prerequisite does not serve',
    body: (c) => {
      new ApiObject(c, 'Vs', { apiVersion: 'networking.istio.io/v2', kind: 'VirtualService', metadata: { name: 'vs', namespace: NS }, spec: {} });
    },
    platform: () => newPlatform({ prerequisites: [CERT_MANAGER, ISTIO] }),
    expected: [
      "[MLP010] p/test/Vs: VirtualService vs uses networking.istio.io/v2, which the platform's prerequisites do not serve (they serve networking.istio.io/VirtualService as v1, v1beta1, v1alpha3); use one of those versions",
    ],
  },
  {
    rule: 'MLP024',
    what: 'a Service selecting the pods of two workloads',
    body: (c) => {
      manager(c, { ports: {}, labels: { tier: 'control' } });
      manager2(c, { tier: 'control' });
      rawService(c, 'control', { selector: { tier: 'control' }, ports: [{ port: 80, targetPort: 8081 }] });
    },
    expected: ['[MLP024] p/test/Svc-control: Service test-system/control selects {"tier":"control"}, which matches the pods of 2 workloads (Deployment widget-controller, Deployment gadget-controller); select exactly one workload\'s pods: add a label only they carry'],
  },
  {
    rule: 'MLP023',
    what: "an infrastructure component's own object applied before its webhook configuration that intercepts it",
    body: (c) => {
      c.providesInfrastructure.push('widget-infrastructure');
      server(c).addValidatingWebhook('cm-validator', webhook('cm.example.com', CM_RULE, OWN_NAMESPACE_ON_PURPOSE));
      new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS } });
    },
    expected: [
      "[MLP023] p/test/Cm: ConfigMap cm (phase 03-infrastructure) would reach the cluster before webhook cm.example.com of ValidatingWebhookConfiguration cm-validator (phase 05-infrastructure-webhooks) of infrastructure component 'test' is configured; apply it in a later phase",
    ],
  },
  {
    rule: 'MLP023',
    what: 'objects of one kind that the same rules match but a namespaceSelector tells apart, beside a webhook of another kind (rules matched once per kind, selectors per object)',
    body: (c) => {
      c.providesInfrastructure.push('widget-infrastructure');
      const srv = server(c);
      srv.addValidatingWebhook('cm-validator', webhook('cm.example.com', CM_RULE, { ...OWN_NAMESPACE_ON_PURPOSE, namespaceSelector: excludingNamespaces(['kube-system', 'elsewhere']) }));
      srv.addValidatingWebhook('secret-validator', webhook('secret.example.com', [{ ...CM_RULE[0], resources: ['secrets'] }], OWN_NAMESPACE_ON_PURPOSE));
      new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS } });
      new ApiObject(c, 'CmElsewhere', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'elsewhere' } });
    },
    platform: () => newPlatform({ existingNamespaces: ['elsewhere'] }),
    expected: [
      "[MLP023] p/test/Cm: ConfigMap cm (phase 03-infrastructure) would reach the cluster before webhook cm.example.com of ValidatingWebhookConfiguration cm-validator (phase 05-infrastructure-webhooks) of infrastructure component 'test' is configured; apply it in a later phase",
    ],
  },
  {
    rule: 'MLP030',
    what: "a controller whose ClusterRole lacks an owned kind's status",
    body: (c) => {
      const ctl = manager(c, { owns: [widgetDef()], ports: {} });
      // Replace the generated ClusterRole with a hand-built one of the same name, without widgets/status.
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      new ApiObject(ctl, 'HandRole', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'widget-controller-role' },
        rules: [Rbac.manage('example.com', 'widgets'), { apiGroups: ['example.com'], resources: ['widgets/finalizers'], verbs: ['update'] }],
      });
    },
    expected: [
      "[MLP030] p/test/Manager: controller widget-controller owns example.com/Widget but its RBAC does not allow get, update, patch on example.com/widgets/status; grant it through the Controller's owns/rules",
    ],
  },
  {
    rule: 'MLP030',
    what: 'a controller that watches a resource its RBAC does not let it list',
    body: (c) => {
      manager(c, { watches: [{ group: 'apps', resource: 'deployments' }], rules: [Rbac.verbs('apps', ['deployments'], ['get'])], ports: {} });
    },
    expected: [
      "[MLP030] p/test/Manager: controller widget-controller watches apps/deployments but its RBAC does not allow list, watch on it; grant it through the Controller's rules (Rbac.read)",
    ],
  },
  {
    rule: 'MLP031',
    what: 'an operator whose ClusterRole lacks what a Role it creates at run time grants',
    body: (c) => {
      const ctl = manager(c, { ports: {}, grants: [RUNNER_ROLE] });
      // A hand-built ClusterRole of the same name that holds reads only (as a patch could leave it).
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      new ApiObject(ctl, 'HandRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'widget-controller-role' }, rules: [Rbac.read('', 'pods'), Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create'])] });
    },
    expected: [
      '[MLP031] p/test/Manager: component test: controller widget-controller creates Role runner-<widget> at run time (per Widget, from its runner template) as ServiceAccount test-system/widget-controller, ' +
        'and the API server refuses it: it grants delete pods (core); get pods/log (core); get secrets/widget-db (core), which it does not hold cluster-wide (it creates it in the namespace of the object it serves, any namespace), nor escalate on roles. ' +
        "Keep the Role in the Controller's grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component's RBAC, and do not leave it out or patch it away",
    ],
  },
  {
    rule: 'MLP031',
    what: 'an operator whose direct client calls and SubjectAccessReview verbs are held only in its own namespace',
    body: (c) => {
      const ctl = manager(c, {
        ports: {},
        clientCalls: [{ rule: Rbac.verbs('', ['pods'], ['delete', 'list']), reason: 'deletes stale head pods' }],
        accessReviews: [{ rule: Rbac.verbs('example.com', ['widgets'], ['report']), reason: 'the API server checks report on widgets' }],
      });
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      expect(ctl.node.tryRemoveChild('ClusterRoleBinding')).toBe(true);
      new ApiObject(ctl, 'HandRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'widget-controller-calls', namespace: NS }, rules: [Rbac.manage('', 'pods'), Rbac.verbs('example.com', ['widgets'], ['report'])] });
      new ApiObject(ctl, 'HandBinding', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'widget-controller-calls', namespace: NS },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'widget-controller-calls' },
        subjects: [{ kind: 'ServiceAccount', name: 'widget-controller', namespace: NS }],
      });
    },
    expected: [
      "[MLP031] p/test/Manager: controller widget-controller calls directly delete pods (core); list pods (core) (deletes stale head pods), which its ServiceAccount test-system/widget-controller does not hold cluster-wide; keep it in the Controller's clientCalls",
      "[MLP031] p/test/Manager: controller widget-controller is checked by SubjectAccessReview for report widgets (example.com) (the API server checks report on widgets), which its ServiceAccount test-system/widget-controller does not hold cluster-wide; keep it in the Controller's accessReviews",
    ],
  },
  {
    rule: 'MLP040',
    what: 'a Secret with a literal password in stringData and an access key in data',
    body: (c) => {
      new ApiObject(c, 'DbSecret', {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'db', namespace: NS },
        stringData: { username: 'root', password: 'hunter2' },
        data: { accesskey: 'bWluaW8=', endpoint: 'czM=' },
      });
    },
    expected: [
      '[MLP040] p/test/DbSecret: Secret test-system/db carries literal credentials in data (accesskey); never ship a password in output: reference a Secret the user creates (secretKeyRef) instead',
      '[MLP040] p/test/DbSecret: Secret test-system/db carries literal credentials in stringData (password); never ship a password in output: reference a Secret the user creates (secretKeyRef) instead',
    ],
  },
];

describe('checks', () => {
  test.each(CASES.map((c) => [c.rule, c.what, c] as const))('%s fires for %s', (_rule, _what, c) => {
    expect(problems(c.body, c.platform?.())).toEqual(c.expected);
  });

  test('every rule in CHECKS is fired by a test, and no test names an unknown rule', () => {
    // The safety rules (MLP050-MLP055) fire in test/lib/safety-checks.test.ts.
    const fired = [...new Set([...CASES, ...SAFETY_CASES].map((c) => c.rule))].sort();
    expect(fired).toEqual(CHECKS.map((c) => c.id).sort());
  });

  test('rule ids are unique and each rule has a title', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CHECKS) expect(c.title.length).toBeGreaterThan(10);
  });
});

describe('a well-formed platform', () => {
  test('passes every check', () => {
    expect(
      problems((c) => {
        c.crd(widgetDef());
        const ctl = manager(c, { owns: [widgetDef()] });
        const srv = server(c, ctl);
        srv.addValidatingWebhook('widget-validator', webhook('vwidget.example.com', [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }]));
        widget(c, 'Default', { size: 2, color: 'red' });
      }),
    ).toEqual([]);
  });
});

describe('MLP031: what an operator grants, calls and is reviewed for', () => {
  test('derived from grants, clientCalls and accessReviews, it holds them: no finding', () => {
    let rules: unknown;
    expect(problems((c) => {
      const ctl = manager(c, {
        ports: {},
        grants: [RUNNER_ROLE],
        clientCalls: [{ rule: Rbac.verbs('', ['pods'], ['list']), reason: 'lists head pods' }],
        accessReviews: [{ rule: Rbac.verbs('example.com', ['widgets'], ['report']), reason: 'report is checked by SubjectAccessReview' }],
      });
      rules = ctl.clusterRules;
    })).toEqual([]);
    expect(rules).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['report'] },
      // Creating the Role needs create on roles.
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] },
      // A fixed name stays: it holds the rule for that name only.
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['widget-db'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    ]);
  });

  test('a name formed at run time stands for every name; a rule its own rules cover adds nothing', () => {
    let rules: unknown;
    expect(problems((c) => {
      rules = manager(c, {
        ports: {},
        rules: [Rbac.manage('', 'pods'), Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create'])],
        grants: [{ ...RUNNER_ROLE, rules: [Rbac.read('', 'pods'), { apiGroups: [''], resources: ['secrets'], resourceNames: ['<widget>-db'], verbs: ['get'] }] }],
      }).clusterRules;
    })).toEqual([]);
    expect(rules).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    ]);
  });

  test('held through an aggregated ClusterRole and a wildcard: covered as the API server covers it', () => {
    expect(problems((c) => {
      const ctl = manager(c, { ports: {}, grants: [RUNNER_ROLE] });
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      new ApiObject(ctl, 'Aggregate', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'widget-controller-role' },
        aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-widget-controller': 'true' } }] },
        rules: [],
      });
      new ApiObject(ctl, 'Part', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'widget-controller-pods', labels: { 'example.com/aggregate-to-widget-controller': 'true' } },
        rules: [{ apiGroups: [''], resources: ['pods', 'pods/*', 'secrets'], verbs: ['*'] }, { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] }],
      });
      declareSecurityExceptions(ctl.node.findChild('Part') as ApiObject, [{ check: 'wildcardRbac', reason: 'test: the operator grants every verb on pods' }]);
    })).toEqual([]);
  });

  test('fails when a runtime role has no rules, or a need has no reason', () => {
    expect(() => platformWith((c) => manager(c, { ports: {}, grants: [{ ...RUNNER_ROLE, rules: [] }] }))).toThrow(
      'p/test/Manager: grants: Role runner-<widget> has no rules; list the rules the operator puts in it, or drop it');
    expect(() => platformWith((c) => manager(c, { ports: {}, clientCalls: [{ rule: Rbac.read('', 'pods'), reason: ' ' }] }))).toThrow(
      'p/test/Manager: clientCalls: {"apiGroups":[""],"resources":["pods"],"verbs":["get","list","watch"]} has no reason; say what the program does with it');
  });
});

describe('MLP031: bindings, escalate and bind, fixed namespaces', () => {
  const clusterRole = (c: TestComponent, id: string, name: string, rules: unknown[], labels?: Record<string, string>, aggregate?: Record<string, string>) => new ApiObject(c, id, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, labels },
    ...(aggregate ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregate }] } } : {}),
    rules,
  });
  const BINDING: RuntimeRole = { kind: 'RoleBinding', name: '<tenant>-widget-users', createdFor: 'per tenant namespace', roleRef: { kind: 'ClusterRole', name: 'widget-users' } };
  // widget-users aggregates widget-edit, which aggregates widget-view: the API server sees all three's rules.
  const userRoles = (c: TestComponent) => {
    clusterRole(c, 'Users', 'widget-users', [], undefined, { 'example.com/aggregate-to-widget-users': 'true' });
    clusterRole(c, 'Edit', 'widget-edit', [Rbac.manage('example.com', 'widgets')], { 'example.com/aggregate-to-widget-users': 'true' }, { 'example.com/aggregate-to-widget-edit': 'true' });
    clusterRole(c, 'View', 'widget-view', [Rbac.read('example.com', 'gadgets')], { 'example.com/aggregate-to-widget-edit': 'true' });
  };

  test('a binding to an aggregated ClusterRole of the output needs every rule it aggregates, nested ones included', () => {
    expect(problems((c) => {
      userRoles(c);
      manager(c, { ports: {}, grants: [BINDING], rules: [Rbac.manage('example.com', 'widgets')] });
    })).toEqual([
      '[MLP031] p/test/Manager: component test: controller widget-controller creates RoleBinding <tenant>-widget-users at run time (per tenant namespace) as ServiceAccount test-system/widget-controller, ' +
        'and the API server refuses it: it binds ClusterRole widget-users, granting get gadgets (example.com); list gadgets (example.com); watch gadgets (example.com), ' +
        'which it does not hold cluster-wide (it creates it in the namespace of the object it serves, any namespace), nor bind on clusterroles/widget-users. ' +
        "Keep the RoleBinding in the Controller's grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component's RBAC, and do not leave it out or patch it away",
    ]);
  });

  test('bind on the role, or escalate on roles, lets it create what it does not hold: no finding', () => {
    expect(problems((c) => {
      userRoles(c);
      manager(c, { ports: {}, grants: [BINDING], rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['widget-users'], verbs: ['bind'] }] });
    })).toEqual([]);
    expect(problems((c) => {
      const ctl = manager(c, { ports: {}, grants: [RUNNER_ROLE] });
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      clusterRole(c, 'Escalate', 'widget-controller-role', [Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create', 'escalate'])]);
    })).toEqual([]);
  });

  test('bind on another role does not help, and a binding to a role nobody declares says what to declare', () => {
    expect(problems((c) => {
      userRoles(c);
      manager(c, {
        ports: {},
        grants: [BINDING, { kind: 'ClusterRoleBinding', name: 'widget-<tenant>-metrics', createdFor: 'per tenant', roleRef: { kind: 'ClusterRole', name: 'cluster-monitoring-view' } }],
        rules: [Rbac.manage('example.com', 'widgets', 'gadgets'), { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['widget-view'], verbs: ['bind'] }],
      });
    })).toEqual([
      '[MLP031] p/test/Manager: component test: controller widget-controller creates ClusterRoleBinding widget-<tenant>-metrics at run time (per tenant) as ServiceAccount test-system/widget-controller, ' +
        'and the API server refuses it: it binds ClusterRole cluster-monitoring-view, which is neither in the output nor declared, and holds no bind on it: declare the binding\'s rules (those of cluster-monitoring-view) or grant bind on clusterroles/cluster-monitoring-view. ' +
        "Keep the ClusterRoleBinding in the Controller's grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component's RBAC, and do not leave it out or patch it away",
    ]);
  });

  test('a Role in a fixed namespace counts RoleBindings there; one in any namespace needs the rules cluster-wide', () => {
    const own: RuntimeRole = { ...RUNNER_ROLE, namespace: NS };
    const handRbac = (c: TestComponent, ctl: Controller) => {
      expect(ctl.node.tryRemoveChild('ClusterRole')).toBe(true);
      expect(ctl.node.tryRemoveChild('ClusterRoleBinding')).toBe(true);
      new ApiObject(c, 'OwnRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'widget-runner-maker', namespace: NS }, rules: [...RUNNER_ROLE.rules!, Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create'])] });
      new ApiObject(c, 'OwnBinding', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'widget-runner-maker', namespace: NS },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'widget-runner-maker' },
        subjects: [{ kind: 'ServiceAccount', name: 'widget-controller', namespace: NS }],
      });
    };
    expect(problems((c) => handRbac(c, manager(c, { ports: {}, grants: [own] })))).toEqual([]);
    expect(problems((c) => handRbac(c, manager(c, { ports: {}, grants: [RUNNER_ROLE] })))).toEqual([
      '[MLP031] p/test/Manager: component test: controller widget-controller creates Role runner-<widget> at run time (per Widget, from its runner template) as ServiceAccount test-system/widget-controller, ' +
        'and the API server refuses it: it lacks create on roles (rbac.authorization.k8s.io) cluster-wide (it creates it in the namespace of the object it serves, any namespace). ' +
        "Keep the Role in the Controller's grants (the rules of roles, and of bindings that carry them, are derived from them), grant what it lacks in the component's RBAC, and do not leave it out or patch it away",
    ]);
  });

  test('bad declarations fail with the construct path and the fix', () => {
    const bad = (g: RuntimeRole) => () => platformWith((c) => manager(c, { ports: {}, grants: [g] }));
    expect(bad({ kind: 'RoleBinding', name: 'b', createdFor: 'x' })).toThrow('p/test/Manager: grants: RoleBinding b has no roleRef; name the role the operator binds');
    expect(bad({ kind: 'ClusterRoleBinding', name: 'b', createdFor: 'x', roleRef: { kind: 'Role', name: 'r' } })).toThrow('p/test/Manager: grants: ClusterRoleBinding b binds Role r; a ClusterRoleBinding can only bind a ClusterRole');
    expect(bad({ ...RUNNER_ROLE, roleRef: { kind: 'Role', name: 'r' } })).toThrow('p/test/Manager: grants: Role runner-<widget> has a roleRef; only RoleBindings and ClusterRoleBindings bind a role');
    expect(bad({ kind: 'ClusterRole', name: 'c', createdFor: 'x', rules: RUNNER_ROLE.rules, namespace: NS })).toThrow('p/test/Manager: grants: ClusterRole c has namespace test-system; a ClusterRole is cluster-wide: drop the namespace');
    expect(bad({ ...RUNNER_ROLE, createdFor: ' ' })).toThrow('p/test/Manager: grants: Role runner-<widget> has no createdFor; say when the operator creates it and from what code or template');
  });
});

describe('MLP031 on a Workload: the same grants, clientCalls and accessReviews as a Controller', () => {
  const agent = (c: TestComponent, props: Partial<WorkloadProps> = {}): Workload => new Workload(c, 'Agent', {
    name: 'widget-agent',
    image: c.image('manager'),
    selectorLabels: { 'app.kubernetes.io/name': 'widget-agent' },
    service: false,
    ...props,
  });

  test('its needs join its ClusterRole, so it holds them: no finding', () => {
    let rules: unknown;
    expect(problems((c) => {
      rules = agent(c, {
        rules: [Rbac.read('', 'configmaps')],
        grants: [RUNNER_ROLE],
        accessReviews: [{ rule: Rbac.verbs('example.com', ['widgets'], ['report']), reason: 'the API server checks report on widgets' }],
      }).clusterRules;
    })).toEqual([]);
    expect(rules).toEqual([
      { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['report'] },
      // Creating the Role needs create on roles.
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['widget-db'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete', 'get'] },
      { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
    ]);
  });

  test('fails when its accessReviews are held only in its own namespace', () => {
    expect(problems((c) => {
      const w = agent(c, { accessReviews: [{ rule: Rbac.verbs('example.com', ['widgets'], ['report']), reason: 'the API server checks report on widgets' }] });
      expect(w.node.tryRemoveChild('ClusterRole')).toBe(true);
      expect(w.node.tryRemoveChild('ClusterRoleBinding')).toBe(true);
      new ApiObject(w, 'HandRole', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'widget-agent-report', namespace: NS }, rules: [Rbac.verbs('example.com', ['widgets'], ['report'])] });
    })).toEqual([
      "[MLP031] p/test/Agent: workload widget-agent is checked by SubjectAccessReview for report widgets (example.com) (the API server checks report on widgets), which its ServiceAccount test-system/widget-agent does not hold cluster-wide; keep it in the Workload's accessReviews",
    ]);
  });

  test('fails when a need has no reason', () => {
    expect(() => platformWith((c) => agent(c, { accessReviews: [{ rule: Rbac.verbs('example.com', ['widgets'], ['report']), reason: '' }] }))).toThrow(
      'p/test/Agent: accessReviews: {"apiGroups":["example.com"],"resources":["widgets"],"verbs":["report"]} has no reason; say what the program does with it');
  });
});

describe('no false positives', () => {
  test('a fail-open runtime-created webhook, or a fail-closed one whose kinds are not in the output, does not fire MLP022', () => {
    expect(problems((c) => {
      c.crd(widgetDef());
      manager(c, { ports: {} });
      c.runtimeWebhook({ ...RUNTIME_WEBHOOK, failurePolicy: 'Ignore' });
      widget(c, 'Default', { size: 2 });
    })).toEqual([]);
    expect(problems((c) => {
      c.crd(widgetDef());
      manager(c, { ports: {} });
      c.runtimeWebhook(RUNTIME_WEBHOOK);
    })).toEqual([]);
  });

  test('the report lists runtime-created webhooks with their creator', () => {
    const p = newPlatform();
    new TestComponent(p, 'test', NS, (c) => {
      c.namespaceObject();
      manager(c, { ports: {} });
      c.runtimeWebhook(RUNTIME_WEBHOOK);
    });
    const b = build(p);
    expect(platformReport(b.model, b.largeCrds)).toContain('- validating widget-runtime/vwidget.example.com -> test-system/widget-runtime-webhook:8443/validate -> created by Deployment test-system/widget-controller (when a Widget asks for it) -> Fail');
  });

  test('an empty Secret (a certificate rotator fills it) and non-credential keys do not fire MLP040', () => {
    expect(
      problems((c) => {
        new ApiObject(c, 'Empty', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cert', namespace: NS } });
        new ApiObject(c, 'Plain', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cfg', namespace: NS }, stringData: { endpoint: 'http://s3', password: '' } });
      }),
    ).toEqual([]);
  });

  test('a fail-closed pod webhook that excludes its own namespace does not fire MLP022', () => {
    expect(
      problems((c) => {
        server(c).addMutatingWebhook('pod-defaulter', {
          ...webhook('pods.example.com', POD_RULE),
          namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [NS, 'kube-system'] }] },
        });
      }),
    ).toEqual([]);
  });

  test('a pod webhook that excludes its backend by objectSelector does not fire MLP022', () => {
    expect(
      problems((c) => {
        server(c).addMutatingWebhook('pod-defaulter', {
          ...webhook('pods.example.com', POD_RULE, OWN_NAMESPACE_ON_PURPOSE),
          objectSelector: { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'NotIn', values: ['widget-controller'] }] },
        });
      }),
    ).toEqual([]);
  });

  test('a fail-open (Ignore) webhook on its own pods does not fire MLP022', () => {
    expect(problems((c) => server(c).addMutatingWebhook('pod-defaulter', webhook('pods.example.com', POD_RULE, { failurePolicy: 'Ignore' })))).toEqual([]);
  });

  test('a webhook configuration in its default phase does not intercept objects of earlier phases', () => {
    expect(
      problems((c) => {
        server(c).addValidatingWebhook('cm-validator', webhook('cm.example.com', CM_RULE, { namespaceSelector: excludingNamespaces(['kube-system', NS]) }));
        new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS } });
      }),
    ).toEqual([]);
  });

  test('objects in an existing namespace need no Namespace object', () => {
    expect(problems((c) => new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'kube-system' } }))).toEqual([]);
    expect(
      problems(
        (c) => new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'monitoring' } }),
        newPlatform({ existingNamespaces: ['monitoring'] }),
      ),
    ).toEqual([]);
  });

  test('custom resources of a prerequisite kind need no CRD', () => {
    expect(
      problems((c) => new ApiObject(c, 'Cert', { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'cert', namespace: NS }, spec: { secretName: 's' } })),
    ).toEqual([]);
  });

  test('the same name in two namespaces, or for two kinds, is no duplicate', () => {
    expect(
      problems((c) => {
        new ApiObject(c, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: NS } });
        new ApiObject(c, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' } });
        new ApiObject(c, 'C', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'settings', namespace: NS } });
      }),
    ).toEqual([]);
  });

  test('an OpenShift webhook whose Service has the serving-cert annotation has a CA source', () => {
    expect(
      problems(
        (c) => server(c).addValidatingWebhook('v', webhook('v.example.com', [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }])),
        newPlatform({ certificates: CertificateProvider.openShiftServiceCa(), prerequisites: [] }),
      ),
    ).toEqual([]);
  });

  test('components sharing a namespace may each declare the same Namespace object; synth writes it once', () => {
    const platform = platformWith((c) => new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: NS } }));
    new TestComponent(platform, 'other', NS, (self) => {
      self.namespaceObject();
      new ApiObject(self, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: NS } });
    });
    expect(problemsOf(platform)).toEqual([]);
    const namespaces = build(platform).files.get('00-foundation/00-namespaces.yaml')!;
    expect(namespaces.match(/kind: Namespace/g)).toHaveLength(1);
  });
});

test('MLP004 fires for two Namespace objects of the same name that differ', () => {
  const platform = platformWith(() => undefined);
  new TestComponent(platform, 'other', NS, (self) => new ApiObject(self, 'Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { team: 'ml' } } }));
  expect(problemsOf(platform)).toEqual(['[MLP004] p/other/Namespace: Namespace test-system is also emitted by p/test/Namespace; remove one or rename it']);
});

test('components sharing a namespace by default emit one Namespace with the union of their labels (none is lost to another\'s copy)', () => {
  const platform = platformWith(() => undefined);
  new TestComponent(platform, 'other', NS, (self) => self.namespaceObject({ team: 'ml' }));
  const namespaces = build(platform).model.objects.filter((o) => o.json.kind === 'Namespace').map((o) => o.json);
  expect(namespaces).toEqual([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { team: 'ml' } } }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS, labels: { team: 'ml' } } }]);
  new TestComponent(platform, 'third', NS, (self) => expect(() => self.namespaceObject({ team: 'data' })).toThrow("p/third: namespace 'test-system' needs label team=data, but component 'other' in the same namespace needs team=ml"));
});
