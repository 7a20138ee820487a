/**
 * Bad props and bad compositions, each with the exact message it fails with: the construct
 * path, the prop, the value and the fix. Construction errors throw at once; composition
 * errors are collected by buildPlatform (each listed problem is compared).
 */
import { ApiObject, App } from 'cdk8s';
import { GatewayApiInferenceExtension, GatewayApiInferenceExtensionVersion } from '../constructs/gateway-api-inference-extension';
import { KServe } from '../constructs/kserve';
import { Kueue } from '../constructs/kueue';
import { CertificateProvider } from '../lib/certificates';
import { CERT_MANAGER } from '../lib/component';
import { Controller, ControllerMetrics, ControllerProps } from '../lib/controller';
import { Platform, PlatformError, PlatformProps } from '../lib/platform';
import { bindingObject, roleObject } from '../lib/rbac';
import { buildPlatform } from '../lib/synth';
import { WebhookProps, WebhookServer } from '../lib/webhook-server';
import { Workload, WorkloadProps } from '../lib/workload';
import { TestComponent, widgetDef } from './lib/support';

const NS = 'test-system';
const plat = (props: Partial<PlatformProps> = {}) => new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER], ...props });
const comp = (p: Platform = plat(), ns = NS) => new TestComponent(p, 'test', ns, (c) => c.namespaceObject());
const ctl = (c: TestComponent, props: Partial<ControllerProps> = {}) => new Controller(c, 'Manager', { name: 'widget-controller', image: c.image('manager'), selectorLabels: { app: 'w' }, ...props });
const wl = (c: TestComponent, props: Partial<WorkloadProps> = {}) => new Workload(c, 'Ui', { name: 'ui', image: c.image('manager'), selectorLabels: { app: 'ui' }, ...props });
const webhook = (c: TestComponent, w: Partial<WebhookProps>) =>
  new WebhookServer(c, 'W', { controller: ctl(c, { ports: { webhook: 9443 } }), serviceName: 'widget-webhook', secretName: 'widget-tls' })
    .addValidatingWebhook('widget-validator', { name: 'vwidget.example.com', path: '/validate', rules: [], ...w });
/** Builds the platform a case made (composition errors surface here). */
const build = (p: Platform) => buildPlatform(p);
const withComponent = (body: (c: TestComponent) => unknown, props: Partial<PlatformProps> = {}) => () => {
  const p = plat(props);
  body(comp(p));
  return build(p);
};
const QUANTITY_FIX = 'write it like 500m, 2Gi or 1.5';

/** The messages a case fails with: every problem of a PlatformError, else the one error's message. */
function messagesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    return e instanceof PlatformError ? e.problems : [(e as Error).message];
  }
  throw new Error('expected an error, got none');
}

interface BadInput {
  readonly what: string;
  readonly run: () => unknown;
  /** The exact messages, in order. */
  readonly messages: string[];
}

const CASES: BadInput[] = [
  // --- names, namespaces, labels ---------------------------------------------------------------
  { what: 'a platform name that is not a DNS label', run: () => plat({ name: 'My_Platform' }), messages: ["p: name 'My_Platform' must be a lower-case DNS label (it names the folder under dist/)"] },
  { what: 'a component id that is not a DNS label', run: () => new TestComponent(plat(), 'Test Comp', NS), messages: ["p/Test Comp: component id 'Test Comp' must be a lower-case DNS label of at most 63 characters (it names the component's files in dist/ and crdOwners refer to it)"] },
  { what: 'a component namespace with upper case and underscore', run: () => comp(plat(), 'Test_System'), messages: ["p/test: namespace 'Test_System' is not a valid namespace name (lower-case DNS label, at most 63 characters), e.g. 'test-system'"] },
  { what: 'a component namespace of 64 characters', run: () => comp(plat(), 'a'.repeat(64)), messages: [`p/test: namespace '${'a'.repeat(64)}' is not a valid namespace name (lower-case DNS label, at most 63 characters), e.g. '${'a'.repeat(63)}'`] },
  { what: "KServe's namespace prop in upper case", run: () => new KServe(plat(), 'kserve', { namespace: 'KServe' }), messages: ["p/kserve: namespace 'KServe' is not a valid namespace name (lower-case DNS label, at most 63 characters), e.g. 'kserve'"] },
  {
    what: 'a label key with a space on the Namespace',
    run: () => { const p = plat(); new TestComponent(p, 'test', NS, (c) => c.namespaceObject({ 'bad key!': 'x' })); return build(p); },
    messages: ['[MLP001] p/test/Namespace: Namespace test-system: metadata.labels["bad key!"]: label key "bad key!" is not valid: expected a key of an optional DNS subdomain prefix and \'/\', then a name of at most 63 characters (letters, digits, \'-\', \'_\' and \'.\', starting and ending with a letter or digit)'],
  },
  {
    what: 'a Controller label value with a space',
    run: withComponent((c) => ctl(c, { labels: { tier: 'not ok!' } })),
    messages: ['ServiceAccount/Resource: ServiceAccount widget-controller: metadata.labels.tier', 'Deployment: Deployment widget-controller: metadata.labels.tier', 'Deployment: Deployment widget-controller: spec.template.metadata.labels.tier']
      .map((where) => `[MLP001] p/test/Manager/${where}: label value "not ok!" is not valid: expected a label value (empty, or at most 63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter or digit)`),
  },
  {
    what: 'a ConfigMap name with upper case',
    run: withComponent((c) => new ApiObject(c, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', namespace: NS } })),
    messages: ['[MLP001] p/test/A: ConfigMap Bad_Name: metadata.name: "Bad_Name" is not a valid name: expected a DNS subdomain (at most 253 characters: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit)'],
  },
  {
    what: 'an object in a namespace the platform neither creates nor lists',
    run: withComponent((c) => new ApiObject(c, 'Cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'nope' } })),
    messages: ["[MLP011] p/test/Cm: ConfigMap x is in namespace 'nope', which the platform neither creates nor lists in existingNamespaces; add the namespace or list it"],
  },
  {
    what: 'two objects of one kind, namespace and name',
    run: withComponent((c) => {
      new ApiObject(c, 'A', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: NS } });
      new ApiObject(c, 'B', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: NS } });
    }),
    messages: ['[MLP004] p/test/B: ConfigMap test-system/x is also emitted by p/test/A; remove one or rename it'],
  },

  // --- dangling references ------------------------------------------------------------------------
  {
    what: 'an InferencePool naming an endpoint picker that is not in the platform',
    run: () => {
      const p = plat();
      const gie = new GatewayApiInferenceExtension(p, 'gie');
      new ApiObject(gie, 'Raw', {
        apiVersion: 'inference.networking.k8s.io/v1',
        kind: 'InferencePool',
        metadata: { name: 'raw', namespace: 'default' },
        spec: { selector: { matchLabels: { app: 'x' } }, targetPorts: [{ number: 8000 }], endpointPickerRef: { name: 'epp-missing', port: { number: 9002 } } },
      });
      return build(p);
    },
    messages: ["p/gie/Raw: InferencePool 'default/raw' names endpoint picker Service 'epp-missing', which is not in the platform in namespace default; create the pool with addInferencePool (which adds its picker) or fix the name"],
  },
  {
    what: 'a Kueue LocalQueue naming a missing ClusterQueue',
    run: () => { const p = plat(); new Kueue(p, 'kueue', { integrations: ['batch/job'] }).addLocalQueue('lq', { namespace: 'default', clusterQueue: 'missing' }); return build(p); },
    messages: ["p/kueue/LocalQueue-lq: LocalQueue 'default/lq' submits to ClusterQueue 'missing', which is not in the platform; add it with addClusterQueue('missing', ...) or fix the name (cluster queues: none)"],
  },
  {
    what: 'a Kueue ClusterQueue naming a missing ResourceFlavor',
    run: () => {
      const p = plat();
      new Kueue(p, 'kueue', { integrations: ['batch/job'] }).addClusterQueue('cq', { spec: { resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'gpu', resources: [{ name: 'cpu', nominalQuota: 1 as any }] }] }] } as any });
      return build(p);
    },
    messages: ["p/kueue/ClusterQueue-cq: ClusterQueue 'cq' gives quota for ResourceFlavor 'gpu', which is not in the platform; add it with addResourceFlavor('gpu') or fix the name (flavors: none)"],
  },
  { what: 'an image key missing from the versions table', run: () => comp().image('nope'), messages: ["p/test: no image 'nope' in the versions table (has manager)"] },
  {
    what: 'a component needing a kind no component provides',
    run: () => { const p = plat(); new TestComponent(p, 'a', 'a-system', (c) => c.needs({ group: 'example.com', kind: 'Gadget', reason: 'it reconciles gadgets' })); return build(p); },
    messages: ["p/a: component 'a' (TestComponent) requires example.com/Gadget (it reconciles gadgets), but no component of platform 'p' provides it and no prerequisite declares it; add a component that provides it, or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'example.com', kind: 'Gadget' }] }]"],
  },
  {
    what: 'a webhook server without cert-manager in the platform or its prerequisites',
    run: () => { const p = plat({ prerequisites: [] }); webhook(comp(p), {}); return build(p); },
    messages: ["p/test: component 'test' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it"],
  },
  { what: 'a platform with no components', run: () => build(plat()), messages: ["p: platform 'p' has no components"] },

  // --- graph: cycles and CRD owners ------------------------------------------------------------------
  {
    what: 'two components requiring each other\'s kinds',
    run: () => {
      const p = plat();
      new TestComponent(p, 'a', 'a-system', (c) => { c.crd(widgetDef()); c.needs({ group: 'example.com', kind: 'Gadget', reason: 'r' }); });
      new TestComponent(p, 'b', 'b-system', (c) => { c.crd(widgetDef({ kind: 'Gadget', plural: 'gadgets' })); c.needs({ group: 'example.com', kind: 'Widget', reason: 'r' }); });
      return build(p);
    },
    messages: ['p: components depend on each other in a cycle: a -> b -> a; break it by removing a requirement, declaring a kind as a prerequisite, or marking a requirement runtimeOnly where it is needed only at run time'],
  },
  {
    what: 'two components that both own one CRD',
    run: () => { const p = plat(); new TestComponent(p, 'a', 'a-system', (c) => c.crd(widgetDef())); new TestComponent(p, 'b', 'b-system', (c) => c.crd(widgetDef())); return build(p); },
    messages: ["p: CRD widgets.example.com is declared by 'a' (p/a) and 'b' (p/b); choose one owner: platform.resolveCrd('widgets.example.com', <component>) or crdOwners: { 'widgets.example.com': '<component id>' }, or declare it with useCrd(definition, { reason, bundledCopy: true }) in the component that works with the other's copy"],
  },
  {
    what: 'crdOwners naming a component that does not declare the CRD',
    run: () => { const p = plat({ crdOwners: { 'widgets.example.com': 'zzz' } }); new TestComponent(p, 'a', 'a-system', (c) => c.crd(widgetDef())); return build(p); },
    messages: ["p: crdOwners assigns widgets.example.com to 'zzz', which does not declare it (declared by 'a')"],
  },

  // --- versions, images ----------------------------------------------------------------------------
  {
    what: 'an unknown Gateway API Inference Extension version',
    run: () => new GatewayApiInferenceExtension(plat(), 'gie', { version: 'v9.9.9' as GatewayApiInferenceExtensionVersion }),
    messages: ["p/gie: version 'v9.9.9' is not supported; use one of v1.4.0, v1.5.0, v1.6.0"],
  },
  {
    what: "an image override to 'latest'",
    run: () => ctl(comp(plat({ images: { overrides: { 'test/manager': { tag: 'latest' } } } }))),
    messages: ["p: image 'test/manager': tag 'latest' is not allowed; pin a release tag (not 'latest') matching ^[\\w][\\w.-]{0,127}$"],
  },
  {
    what: 'an image override with a malformed tag',
    run: () => ctl(comp(plat({ images: { overrides: { 'test/manager': { tag: 'v1 2' } } } }))),
    messages: ["p: image 'test/manager': tag 'v1 2' is not allowed; pin a release tag (not 'latest') matching ^[\\w][\\w.-]{0,127}$"],
  },
  {
    what: 'an image override with a malformed digest',
    run: () => ctl(comp(plat({ images: { overrides: { 'test/manager': { digest: 'sha256:xyz' } } } }))),
    messages: ["p: image 'test/manager': digest 'sha256:xyz' must look like sha256:<64 hex characters>"],
  },
  {
    what: 'an image override putting the tag into the repository',
    run: () => ctl(comp(plat({ images: { overrides: { 'test/manager': { repository: 'example/m:v1' } } } }))),
    messages: ["p: image 'test/manager': repository 'example/m:v1' must be a repository without tag or digest (e.g. quay.io/org/name); put the tag in 'tag'"],
  },
  {
    what: 'an image override removing the tag',
    run: () => ctl(comp(plat({ images: { overrides: { 'test/manager': { tag: '' } } } }))),
    messages: ["p: image 'test/manager': no tag or digest for example/manager; pin a release tag or a sha256 digest"],
  },
  {
    what: 'a hand-written Deployment with an untagged image',
    run: withComponent((c) => new ApiObject(c, 'D', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: NS },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'd', image: 'example/d', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }, resources: { requests: { cpu: '1m', memory: '1Mi' } } }] },
        },
      },
    })),
    messages: ["[MLP052] p/test/D: Deployment test-system/d: image 'example/d' at spec.template.spec.containers[0].image is not pinned (it has no tag or digest); pin a release tag or a sha256 digest in the component's versions table"],
  },

  // --- oversized objects -------------------------------------------------------------------------------
  {
    what: 'a ConfigMap with more than 1 MiB of data',
    run: withComponent((c) => new ApiObject(c, 'Big', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: NS }, data: { x: 'a'.repeat(1100000) } })),
    messages: ['[MLP001] p/test/Big: ConfigMap big: data: the data takes about 1100000 bytes, more than the 1 MiB allowed; split it into several objects or mount the content from an image or a volume'],
  },

  // --- conflicting options -------------------------------------------------------------------------------
  {
    what: 'KServe presets without the LLMInferenceService controller',
    run: () => new KServe(plat(), 'kserve', { llmInferenceService: false, llmInferenceServiceConfigs: ['x'] }),
    messages: ['p/kserve: llmInferenceServiceConfigs needs llmInferenceService: true (the presets configure LLMInferenceServices); remove one of them'],
  },
  {
    what: 'KServe with the variant autoscaler but without the LLMInferenceService controller',
    run: () => new KServe(plat(), 'kserve', { llmInferenceService: false, workloadVariantAutoscaler: true }),
    messages: ['p/kserve: workloadVariantAutoscaler needs llmInferenceService: true (WVA scales LLMInferenceService workloads); remove one of them'],
  },
  {
    what: 'an unknown KServe serving runtime',
    run: () => new KServe(plat(), 'kserve', { servingRuntimes: ['nope'] }),
    messages: ["p/kserve: servingRuntimes: unknown runtime 'nope'; choose from kserve-tensorflow-serving, kserve-sklearnserver, kserve-mlserver, kserve-xgbserver, kserve-tritonserver, kserve-pmmlserver, kserve-paddleserver, kserve-lgbserver, kserve-torchserve, kserve-huggingfaceserver, kserve-huggingfaceserver-multinode, kserve-autogluonserver, kserve-predictiveserver, kserve-vllmserver"],
  },
  { what: 'a Controller label that contradicts its selector', run: () => ctl(comp(), { labels: { app: 'x' } }), messages: ['p/test/Manager: label app=x conflicts with selector label app=w; the pod labels must match the selector (drop it from labels)'] },
  { what: 'a Controller with empty selector labels', run: () => ctl(comp(), { selectorLabels: {} }), messages: ['p/test/Manager: selectorLabels must not be empty (a Service and the Deployment select pods by them)'] },
  { what: 'a Workload probe with two handlers', run: () => wl(comp(), { livenessProbe: { httpGet: { path: '/', port: 80 }, tcpSocket: { port: 80 } } }), messages: ['p/test/Ui: a probe needs exactly one of httpGet, tcpSocket, grpc, exec (got 2)'] },
  {
    what: 'a Workload Service port targeting a container port it does not have',
    run: () => wl(comp(), { ports: [{ name: 'http', containerPort: 80 }], service: { ports: [{ name: 'x', port: 80, targetPort: 'web' }] } }),
    messages: ["p/test/Ui: Service port x targets 'web', which is not a container port (have http)"],
  },
  { what: 'a reinvocationPolicy on a validating webhook', run: () => webhook(comp(), { reinvocationPolicy: 'IfNeeded' }), messages: ["p/test/W: webhook 'vwidget.example.com': reinvocationPolicy applies to mutating webhooks only; remove it"] },
  { what: 'a webhook path without a leading slash', run: () => webhook(comp(), { path: 'validate' }), messages: ["p/test/W: webhook 'vwidget.example.com': path 'validate' must start with '/'"] },
  { what: 'a webhook name that is not fully qualified', run: () => webhook(comp(), { name: 'validator' }), messages: ["p/test/W: webhook name 'validator' must be fully qualified (a lower-case DNS name of at least three segments, e.g. vwidget.example.com)"] },
  { what: 'a webhook timeout over 30 seconds', run: () => webhook(comp(), { timeoutSeconds: 60 }), messages: ["p/test/W: webhook 'vwidget.example.com': timeoutSeconds 60 must be a whole number from 1 to 30"] },
  {
    what: 'the same webhook name twice in one configuration',
    run: () => {
      const c = comp();
      const w = new WebhookServer(c, 'W', { controller: ctl(c, { ports: { webhook: 9443 } }), serviceName: 's', secretName: 's' });
      w.addValidatingWebhook('v', { name: 'a.example.com', path: '/v', rules: [] });
      w.addValidatingWebhook('v', { name: 'a.example.com', path: '/v', rules: [] });
    },
    messages: ["p/test/W: webhook 'a.example.com' is already in v; webhook names must be unique in a configuration"],
  },
  {
    what: 'a webhook server on a controller without a webhook port',
    run: () => { const c = comp(); new WebhookServer(c, 'W', { controller: ctl(c), serviceName: 's', secretName: 's' }); },
    messages: ["p/test/W: controller 'widget-controller' has no webhook port; set ports.webhook on the Controller (e.g. 9443)"],
  },
  { what: 'a ClusterRoleBinding to a Role', run: () => bindingObject(comp(), 'B', { name: 'b', roleRef: { kind: 'Role', name: 'r' }, serviceAccounts: [] }), messages: ['p/test/B: a ClusterRoleBinding can only reference a ClusterRole (got Role r); set namespace to make a RoleBinding'] },
  { what: 'aggregation on a namespaced Role', run: () => roleObject(comp(), 'R', { name: 'r', namespace: NS, rules: [], aggregateFrom: [{ a: 'b' }] }), messages: ['p/test/R: aggregateFrom applies to ClusterRoles only; drop the namespace or the aggregation'] },
  {
    what: 'an RBAC wildcard without a declared reason',
    run: () => ctl(comp(), { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] }),
    messages: ['p/test/Manager: RBAC rule {"apiGroups":[""],"resources":["pods"],"verbs":["*"]} uses \'*\' in verbs; list the verbs the controller needs, or declare securityExceptions: [{ check: \'wildcardRbac\', reason: \'...\' }] with upstream\'s reason'],
  },
  { what: 'an RBAC rule without verbs', run: () => roleObject(comp(), 'R', { name: 'r', rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] }), messages: ['p/test/R: RBAC rule {"apiGroups":[""],"resources":["pods"],"verbs":[]} has no verbs'] },

  // --- replicas, ports, resources -------------------------------------------------------------------------
  { what: 'negative Controller replicas', run: () => ctl(comp(), { replicas: -1 }), messages: ['p/test/Manager: replicas -1 must be a whole number >= 0 (0 stops the controller)'] },
  { what: 'fractional Workload replicas', run: () => wl(comp(), { replicas: 1.5 }), messages: ['p/test/Ui: replicas 1.5 must be a whole number >= 0 (0 stops the workload)'] },
  { what: 'KServe replicas passed on to its controllers', run: () => new KServe(plat(), 'kserve', { replicas: 1.5 }), messages: ['p/kserve/ControllerManager: replicas 1.5 must be a whole number >= 0 (0 stops the controller)'] },
  { what: 'Kueue replicas passed on to its manager', run: () => new Kueue(plat(), 'kueue', { replicas: -1 }), messages: ['p/kueue/ControllerManager: replicas -1 must be a whole number >= 0 (0 stops the controller)'] },
  { what: 'two Controller replicas without leader election', run: () => ctl(comp(), { replicas: 2 }), messages: ['p/test/Manager: replicas 2 without leaderElectionId: several managers would reconcile at once; set leaderElectionId or replicas: 1'] },
  { what: 'two Workload replicas sharing a ReadWriteOnce claim', run: () => wl(comp(), { replicas: 2, volumeClaims: [{ name: 'd', size: '1Gi', mountPath: '/d' }] }), messages: ['p/test/Ui: replicas 2 with volume claims: ReadWriteOnce claims mount on one pod; use replicas: 1'] },
  { what: 'zero endpoint picker replicas', run: () => new GatewayApiInferenceExtension(plat(), 'gie').addInferencePool('P', { namespace: 'default', name: 'pool', selector: { app: 'x' }, targetPorts: [8000], eppReplicas: 0 }), messages: ['p/gie/PPicker: replicas 0 must be a whole number >= 1'] },
  { what: 'an InferencePool name that is not a DNS label', run: () => new GatewayApiInferenceExtension(plat(), 'gie').addInferencePool('P', { namespace: 'default', name: 'Bad_Pool', selector: { app: 'x' }, targetPorts: [8000] }), messages: ["p/gie/PPicker: poolName 'Bad_Pool' must be a DNS label of at most 59 characters (the picker is named epp-<poolName>)"] },
  { what: 'an InferencePool with an empty selector', run: () => new GatewayApiInferenceExtension(plat(), 'gie').addInferencePool('P', { namespace: 'default', name: 'pool', selector: {}, targetPorts: [8000] }), messages: ["p/gie/P: selector is empty, which would route to every pod in namespace default; give the model server pods' labels (e.g. { app: 'pool' })"] },
  { what: 'a Controller webhook port of 0', run: () => ctl(comp(), { ports: { webhook: 0 } }), messages: ['p/test/Manager: container port webhook-server=0 must be a whole number from 1 to 65535'] },
  { what: 'a Controller extra port above 65535', run: () => ctl(comp(), { ports: { extra: [{ name: 'grpc', containerPort: 70000 }] } }), messages: ['p/test/Manager: container port grpc=70000 must be a whole number from 1 to 65535'] },
  { what: 'a Controller port name that is not an IANA service name', run: () => ctl(comp(), { ports: { extra: [{ name: 'Bad_Port', containerPort: 1 }] } }), messages: ["p/test/Manager: port name 'Bad_Port' must be a lower-case IANA service name of at most 15 characters"] },
  { what: 'two Controller endpoints on one port', run: () => ctl(comp(), { ports: { health: 9443, webhook: 9443 } }), messages: ['p/test/Manager: container ports health=9443, webhook-server=9443 reuse a port number; give each endpoint its own port'] },
  { what: 'metrics on port 70000', run: () => ControllerMetrics.secure(70000), messages: ['ControllerMetrics: port 70000 must be a whole number from 1 to 65535'] },
  { what: 'insecure metrics without a reason', run: () => ControllerMetrics.insecure(8080, ' '), messages: ['ControllerMetrics.insecure: give the reason metrics are served without authentication'] },
  { what: 'a Workload running as root', run: () => wl(comp(), { runAsUser: 0 }), messages: ['p/test/Ui: runAsUser 0 is root, which Pod Security "restricted" forbids; give a non-zero user id'] },
  {
    what: 'a Controller running as root',
    run: withComponent((c) => ctl(c, { runAsUser: 0 })),
    messages: ['[MLP050] p/test/Manager/Deployment: Deployment test-system/widget-controller fails Pod Security "restricted" (runAsNonRoot): container \'manager\' sets runAsUser 0; fix the pod spec, or declare securityExceptions: [{ check: \'runAsNonRoot\', reason: \'...\' }] on the Controller/Workload (declareSecurityExceptions for other objects)'],
  },
  { what: 'a cpu request that is not a quantity', run: () => ctl(comp(), { resources: { requests: { cpu: 'lots', memory: '1Gi' } } }), messages: [`p/test/Manager: resources.requests.cpu 'lots' is not a quantity; ${QUANTITY_FIX}`] },
  { what: 'a cpu request above its limit', run: () => ctl(comp(), { resources: { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '1500m', memory: '1Gi' } } }), messages: ["p/test/Manager: resources: requests.cpu '2' is above limits.cpu '1500m'; raise the limit or lower the request"] },
  { what: 'a memory request above its limit', run: () => wl(comp(), { resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '512Mi' } } }), messages: ["p/test/Ui: resources: requests.memory '1Gi' is above limits.memory '512Mi'; raise the limit or lower the request"] },
  { what: 'a negative memory limit', run: () => wl(comp(), { resources: { limits: { memory: '-1Gi' } } }), messages: ["p/test/Ui: resources.limits.memory '-1Gi' is negative; give a quantity >= 0"] },
  { what: 'a controller with limits and no requests', run: withComponent((c) => ctl(c, { resources: { limits: { cpu: '1', memory: '1Gi' } } })), messages: ["[MLP054] p/test/Manager/Deployment: Deployment test-system/widget-controller: container 'manager' has no cpu or memory request; the scheduler cannot place it by need: set resources.requests (cpu, memory)"] },
  {
    what: 'a claim size that is not a quantity',
    run: withComponent((c) => wl(c, { volumeClaims: [{ name: 'd', size: 'big', mountPath: '/d' }] })),
    messages: ['[MLP001] p/test/Ui/Claim-d: PersistentVolumeClaim d: spec.resources.requests.storage: expected a quantity such as 500m, 2Gi or 1.5, got "big"'],
  },

  // --- certificate providers -------------------------------------------------------------------------------
  { what: 'a self-managed provider falling back to itself', run: () => CertificateProvider.selfManaged({ fallback: CertificateProvider.selfManaged() }), messages: ['CertificateProvider.selfManaged: the fallback must be certManager() or openShiftServiceCa()'] },
  { what: 'an empty ClusterIssuer name', run: () => CertificateProvider.certManager({ clusterIssuer: '' }), messages: ["CertificateProvider.certManager: clusterIssuer '' is not a ClusterIssuer name (a lower-case DNS subdomain); name an existing ClusterIssuer, or leave clusterIssuer out for a self-signed Issuer per namespace"] },
  { what: 'a ClusterIssuer name with a space', run: () => CertificateProvider.certManager({ clusterIssuer: 'Bad Issuer' }), messages: ["CertificateProvider.certManager: clusterIssuer 'Bad Issuer' is not a ClusterIssuer name (a lower-case DNS subdomain); name an existing ClusterIssuer, or leave clusterIssuer out for a self-signed Issuer per namespace"] },
  {
    what: 'a self-managed platform whose cert-manager fallback is not present',
    run: () => { const p = plat({ prerequisites: [], certificates: CertificateProvider.selfManaged() }); webhook(comp(p), {}); return build(p); },
    messages: ["p/test: component 'test' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it"],
  },
];

describe('bad input fails with a message naming the path, the prop, the value and the fix', () => {
  test('there are at least 40 cases, each described once', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map((c) => c.what)).size).toBe(CASES.length);
  });

  test.each(CASES.map((c) => [c.what, c] as const))('fails for %s', (_what, c) => {
    expect(messagesOf(c.run)).toEqual(c.messages);
  });
});

describe('the fixed defects pass when the input is good', () => {
  test('requests equal to limits, and quantities with exponents, are accepted', () => {
    expect(() => ctl(comp(), { resources: { requests: { cpu: '500m', memory: '1e9' }, limits: { cpu: '0.5', memory: '1G' } } })).not.toThrow();
  });

  test('a ClusterIssuer name that is a DNS subdomain is accepted', () => {
    expect(CertificateProvider.certManager({ clusterIssuer: 'internal-ca.example' }).clusterIssuer).toBe('internal-ca.example');
  });

  test('an InferencePool added with addInferencePool names its own picker, which the platform emits', () => {
    const p = plat();
    new GatewayApiInferenceExtension(p, 'gie').addInferencePool('P', { namespace: 'default', name: 'pool', selector: { app: 'x' }, targetPorts: [8000] });
    expect(() => build(p)).not.toThrow();
  });
});
