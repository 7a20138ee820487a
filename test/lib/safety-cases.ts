/**
 * Cases that make each safety rule (MLP050-MLP064) fire, as data: run by
 * safety-checks.test.ts and counted by checks.test.ts's "every rule is fired" test.
 */
import { ApiObject } from 'cdk8s';
import { RESTRICTED_CONTAINER, RESTRICTED_POD, TestComponent, widgetDef } from './support';
import { CERT_MANAGER } from '../../lib/component';
import { Controller, ControllerProps } from '../../lib/controller';
import { CrdDefinition } from '../../lib/crd';
import { declareMeshAuthentication } from '../../lib/istio';
import { AuthorizationPolicy, NetworkPolicy } from '../../lib/network-policy';
import type { PlatformProps } from '../../lib/platform';
import { ISTIO } from '../../lib/prerequisites';
import { s } from '../../lib/schema/dsl';
import { WebhookServer } from '../../lib/webhook-server';

export const NS = 'test-system';
export const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };
export const POD_RULE = [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE' as const] }];
/** A webhook on pods that leaves its own backend's pods alone (so MLP022 does not fire). */
export const NOT_OWN_PODS = { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'NotIn' as const, values: ['widget-controller'] }] };

export interface SafetyCase {
  readonly rule: string;
  readonly what: string;
  readonly body: (c: TestComponent) => void;
  /** The exact problems buildPlatform reports (errors). */
  readonly expected: string[];
  /** The exact warnings of a build that succeeds. */
  readonly warnings?: string[];
  /** The platform's props (e.g. Istio among its prerequisites). @default - cert-manager only */
  readonly platform?: Partial<PlatformProps>;
}

export function manager(c: TestComponent, props: Partial<ControllerProps> = {}): Controller {
  return new Controller(c, 'Manager', { name: 'widget-controller', image: c.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 }, ...props });
}

export function server(c: TestComponent, ctl: Controller = manager(c)): WebhookServer {
  return new WebhookServer(c, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
}

/** A Deployment written by hand, its pod spec as given (pods labelled app=<name> plus `labels`). */
export function rawDeployment(c: TestComponent, name: string, podSpec: Record<string, unknown>, labels: Record<string, string> = {}): ApiObject {
  return new ApiObject(c, `Deploy-${name}`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name, ...labels } }, spec: podSpec } },
  });
}

/** A restricted container with an image. */
export const container = (name: string, image: string, extra: Record<string, unknown> = {}) => ({ name, image, ...RESTRICTED_CONTAINER, ...extra });

/** A Widget CRD whose schema is over 256 KiB: 600 fields with long descriptions. */
export function largeWidgetDef(): CrdDefinition {
  const base = widgetDef();
  const fields: Record<string, any> = {};
  for (let i = 0; i < 600; i++) fields[`field${String(i).padStart(3, '0')}`] = s.string().describe(`Field number ${i}. ${'A long description that pads the schema. '.repeat(12)}`);
  return { ...base, versions: [{ ...base.versions[0], schema: s.object({ spec: s.object(fields) }) }] };
}

const FIX_050 = (check: string) => `fix the pod spec, or declare securityExceptions: [{ check: '${check}', reason: '...' }] on the Controller/Workload (declareSecurityExceptions for other objects)`;

export const SAFETY_CASES: SafetyCase[] = [
  {
    rule: 'MLP050',
    what: 'a controller that mounts a hostPath volume without a declared exception',
    body: (c) => {
      manager(c, { ports: {}, volumes: [{ name: 'host', hostPath: { path: '/var/lib/widgets' } }], volumeMounts: [{ name: 'host', mountPath: '/data' }] });
    },
    expected: [`[MLP050] p/test/Manager/Deployment: Deployment test-system/widget-controller fails Pod Security "restricted" (hostPath): hostPath volume 'host' (/var/lib/widgets); ${FIX_050('hostPath')}`],
  },
  {
    rule: 'MLP050',
    what: 'a hand-written Deployment on the host network with a privileged root container and an init container without seccomp',
    body: (c) => {
      rawDeployment(c, 'agent', {
        hostNetwork: true,
        initContainers: [{ name: 'init', image: 'example/init:v1', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true }, resources: RESTRICTED_CONTAINER.resources }],
        containers: [{ name: 'agent', image: 'example/agent:v1', securityContext: { privileged: true, runAsUser: 0, capabilities: { add: ['NET_ADMIN'] } }, resources: RESTRICTED_CONTAINER.resources, ports: [{ containerPort: 80, hostPort: 80 }] }],
        volumes: [{ name: 'nfs', nfs: { server: 'nfs.example.com', path: '/x' } }],
      });
    },
    expected: [
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (hostNetwork): hostNetwork: true; ${FIX_050('hostNetwork')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (volumeTypes): nfs volume 'nfs'; ${FIX_050('volumeTypes')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (seccompProfile): container 'init' has no seccompProfile (pod or container); container 'agent' has no seccompProfile (pod or container); ${FIX_050('seccompProfile')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (privileged): container 'agent' is privileged; ${FIX_050('privileged')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (allowPrivilegeEscalation): container 'agent' does not set allowPrivilegeEscalation: false; ${FIX_050('allowPrivilegeEscalation')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (capabilities): container 'agent' does not drop ALL capabilities; container 'agent' adds NET_ADMIN; ${FIX_050('capabilities')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (runAsNonRoot): container 'agent' may run as root (runAsNonRoot not true); container 'agent' sets runAsUser 0; ${FIX_050('runAsNonRoot')}`,
      `[MLP050] p/test/Deploy-agent: Deployment test-system/agent fails Pod Security "restricted" (hostPorts): container 'agent' uses hostPort 80; ${FIX_050('hostPorts')}`,
    ],
  },
  {
    rule: 'MLP051',
    what: "a hand-written ClusterRole with '*' verbs and resources",
    body: (c) => {
      new ApiObject(c, 'Admin', {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'widget-admin' },
        rules: [{ apiGroups: ['example.com'], resources: ['*'], verbs: ['*'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      });
    },
    expected: [
      '[MLP051] p/test/Admin: ClusterRole widget-admin grants \'*\' in verbs, resources ({"apiGroups":["example.com"],"resources":["*"],"verbs":["*"]}); ' +
        'list what the role needs, or declare securityExceptions: [{ check: \'wildcardRbac\', reason: \'...\' }] with upstream\'s reason',
    ],
  },
  {
    rule: 'MLP052',
    what: 'images with latest, no tag or a malformed digest in a Deployment, a custom resource and a ConfigMap',
    body: (c) => {
      c.crd(widgetDef({ versions: [{ ...widgetDef().versions[0], schema: s.object({ spec: s.object({ containers: s.array(s.object({ name: s.string(), image: s.string() })) }) }) }] }));
      rawDeployment(c, 'app', {
        securityContext: RESTRICTED_POD,
        initContainers: [container('init', 'example/init')],
        containers: [container('app', 'registry.example.com:5000/app:latest'), container('ok', 'example/ok@sha256:' + 'a'.repeat(64))],
      });
      new ApiObject(c, 'Runtime', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'runtime', namespace: NS }, spec: { containers: [{ name: 'server', image: 'example/server@sha256:abc' }] } });
      new ApiObject(c, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'widget-config', namespace: NS }, data: { agent: '{"image": "example/agent:latest"}', pinned: '{"image": "example/x", "defaultImageVersion": "v1"}', text: 'image: example/y' } });
    },
    expected: [
      "[MLP052] p/test/Config: ConfigMap test-system/widget-config: image 'example/agent:latest' at data.agent.image is not pinned (its tag is latest); pin a release tag or a sha256 digest in the component's versions table",
      "[MLP052] p/test/Deploy-app: Deployment test-system/app: image 'registry.example.com:5000/app:latest' at spec.template.spec.containers[0].image is not pinned (its tag is latest); pin a release tag or a sha256 digest in the component's versions table",
      "[MLP052] p/test/Deploy-app: Deployment test-system/app: image 'example/init' at spec.template.spec.initContainers[0].image is not pinned (it has no tag or digest); pin a release tag or a sha256 digest in the component's versions table",
      "[MLP052] p/test/Runtime: Widget test-system/runtime: image 'example/server@sha256:abc' at spec.containers[0].image is not pinned (digest 'sha256:abc' is not sha256:<64 hex characters>); pin a release tag or a sha256 digest in the component's versions table",
    ],
  },
  {
    rule: 'MLP053',
    what: 'a fail-closed pod webhook that reaches kube-system and its own namespace',
    body: (c) => {
      server(c).addMutatingWebhook('pod-defaulter', { name: 'pods.example.com', path: '/mutate', rules: POD_RULE, objectSelector: NOT_OWN_PODS });
    },
    expected: [
      '[MLP053] p/test/Webhooks/Mutating-pod-defaulter: fail-closed webhook pods.example.com of MutatingWebhookConfiguration pod-defaulter intercepts pods in namespace kube-system and namespace test-system: ' +
        "while its backend is down nothing matching can be created there; exclude them with namespaceSelector: excludingNamespaces(['kube-system', 'test-system']) (lib/webhook-server.ts), " +
        "or declare securityExceptions: [{ check: 'webhookNamespaces', reason: '...' }] on the webhook",
    ],
  },
  {
    rule: 'MLP054',
    what: 'a controller with limits but no requests, and a hand-written Deployment without resources',
    body: (c) => {
      manager(c, { ports: {}, resources: { limits: { cpu: '1', memory: '1Gi' } } });
      rawDeployment(c, 'app', { securityContext: RESTRICTED_POD, containers: [{ ...container('app', 'example/app:v1'), resources: { requests: { memory: '64Mi' } } }] });
    },
    expected: [
      "[MLP054] p/test/Manager/Deployment: Deployment test-system/widget-controller: container 'manager' has no cpu or memory request; the scheduler cannot place it by need: set resources.requests (cpu, memory)",
      "[MLP054] p/test/Deploy-app: Deployment test-system/app: container 'app' has no cpu request; the scheduler cannot place it by need: set resources.requests (cpu)",
    ],
  },
  {
    rule: 'MLP056',
    what: 'a Secret over 1.5 MiB (a ConfigMap under the limit passes)',
    body: (c) => {
      new ApiObject(c, 'Huge', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'huge', namespace: NS }, stringData: { blob: 'b'.repeat(1600000) } });
      new ApiObject(c, 'Fits', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fits', namespace: NS }, data: { model: 'a'.repeat(1000000) } });
    },
    expected: [
      '[MLP001] p/test/Huge: Secret huge: data: the data takes about 1600000 bytes, more than the 1 MiB allowed; split it into several objects or mount the content from an image or a volume',
      '[MLP056] p/test/Huge: Secret test-system/huge is 1600113 bytes, over the 1572864 etcd stores per object; split it (e.g. several ConfigMaps) or mount the content from an image or a volume',
    ],
  },
  {
    rule: 'MLP060',
    what: 'a NetworkPolicy whose selector also takes another workload\'s pods (a shared control-plane label)',
    body: (c) => {
      const ctl = manager(c, { ports: {}, selectorLabels: { ...SELECTOR, 'control-plane': 'controller-manager' } });
      rawDeployment(c, 'other', { securityContext: RESTRICTED_POD, containers: [container('other', 'example/other:v1')] }, { 'control-plane': 'controller-manager' });
      new NetworkPolicy(c, 'Policy', { name: 'widget', targets: [ctl], podSelector: { matchLabels: { 'control-plane': 'controller-manager' } }, ingress: [{ ports: [8081] }] });
    },
    expected: [
      "[MLP060] p/test/Policy/Resource: NetworkPolicy test-system/widget selects the pods of Deployment other (p/test/Deploy-other), which it does not name as a target; narrow its selector with a label only its targets' pods carry",
    ],
  },
  {
    rule: 'MLP063',
    what: 'a NetworkPolicy for pods no workload runs (kubeflow/manifests\' minio policy beside a SeaweedFS store)',
    body: (c) => {
      manager(c, { ports: {} });
      new ApiObject(c, 'Policy', {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'minio', namespace: NS },
        spec: { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['minio'] }] }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
      });
    },
    expected: [
      '[MLP063] p/test/Policy: NetworkPolicy test-system/minio selects {"matchExpressions":[{"key":"app","operator":"In","values":["minio"]}]}, which matches the pods of no workload in namespace test-system: it isolates nothing it is meant for. Select by the pod labels of the workload it protects (its selector labels), or leave the policy out',
    ],
  },
  {
    rule: 'MLP063',
    what: 'a NetworkPolicy admitting a port its pods do not serve (upstream ModelMesh\'s 8443 on a controller serving 9443)',
    body: (c) => {
      const ctl = manager(c);
      new NetworkPolicy(c, 'Policy', { name: 'widget', targets: [ctl], ingress: [{ ports: [8443] }, { ports: ['webhook-server'] }] });
    },
    expected: [
      '[MLP063] p/test/Policy/Resource: NetworkPolicy test-system/widget ingress[0] admits port 8443/TCP, which no container of the pods it selects (Deployment widget-controller) declares (their ports: health=8081/TCP, webhook-server=9443/TCP); name a port they serve',
    ],
  },
  {
    rule: 'MLP064',
    what: 'a webhook whose backend sits in an isolated namespace with no policy opening its port to the API server',
    body: (c) => {
      c.platform.isolateNamespace(NS);
      c.crd(widgetDef());
      new WebhookServer(c, 'Webhooks', { controller: manager(c), serviceName: 'widget-webhook', secretName: 'widget-webhook-tls', isolationPolicy: false }).addMutatingWebhook('widget-defaulter', { name: 'widgets.example.com', path: '/mutate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] });
    },
    expected: [
      '[MLP064] p/test/Webhooks/Mutating-widget-defaulter: webhook widgets.example.com of MutatingWebhookConfiguration widget-defaulter: its backend Deployment test-system/widget-controller is isolated by NetworkPolicy default-allow-same-namespace, none of which admits port 9443 (webhook-server) from every source; '
        + 'the API server calls webhooks from outside the pod network, so every call would fail (failurePolicy Fail). Add a policy over its pods admitting that port with no \'from\' (NetworkPolicyProps.namespaceIsolation, as kubeflow/manifests\' webhook policies)',
    ],
  },
  {
    rule: 'MLP061',
    what: 'an Istio AuthorizationPolicy selecting pods that get no sidecar (the namespace does not inject)',
    platform: { prerequisites: [CERT_MANAGER, ISTIO] },
    body: (c) => {
      const ctl = manager(c, { ports: {} });
      new AuthorizationPolicy(c, 'Policy', { name: 'widget', targets: [ctl], rules: [{ from: [{ namespaces: [NS] }] }] });
    },
    expected: [
      '[MLP061] p/test/Policy/Resource: AuthorizationPolicy test-system/widget selects the pods of Deployment widget-controller (p/test/Manager/Deployment), which get no Istio sidecar ' +
        '(namespace test-system has no istio-injection=enabled or istio.io/rev label and the pod template does not ask for one), so Istio does not enforce the policy there; ' +
        'label namespace test-system istio-injection=enabled (customization namespaces.labels) or the pod template sidecar.istio.io/inject: "true"',
    ],
  },
  {
    rule: 'MLP062',
    what: 'a workload that trusts a header Istio guards, with neither Istio nor a NetworkPolicy in front of it',
    body: (c) => {
      const ctl = manager(c, { ports: {} });
      declareMeshAuthentication(c, { target: ctl, trusts: 'the user named in the x-user header' });
    },
    expected: [
      '[MLP062] p/test/Manager/Deployment: Deployment widget-controller (p/test/Manager/Deployment) in namespace test-system trusts the user named in the x-user header, ' +
        'which only Istio keeps callers from forging, but no AuthorizationPolicy selects its pods, and no NetworkPolicy restricts who reaches it: any pod can impersonate anyone. ' +
        'Give its pods a sidecar (label namespace test-system istio-injection=enabled (customization namespaces.labels) or the pod template sidecar.istio.io/inject: "true") under an AuthorizationPolicy, ' +
        'or add a NetworkPolicy admitting only trusted callers',
    ],
  },
  {
    rule: 'MLP041',
    what: 'a Deployment reading a Secret nothing emits or declares (a warning: synth succeeds; test/lib/referenced-secrets.test.ts)',
    body: (c) => {
      rawDeployment(c, 'reader', { securityContext: RESTRICTED_POD, containers: [container('main', 'example.com/reader:v1.0.0', { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] })] });
    },
    expected: [],
    warnings: ['Deployment test-system/reader reads Secret test-system/db (env X of container main), which the output does not contain and no component declares: pods wait until it exists; '
      + 'declare it with referenceSecret (generated by mlplatform apply, or user-provided with a hint), or mark the reference optional'],
  },
  {
    rule: 'MLP055',
    what: 'a CRD over 256 KiB (a warning: synth succeeds)',
    body: (c) => {
      c.crd(largeWidgetDef());
    },
    expected: [],
    warnings: [
      /* filled in by the test from the CRD's size */
    ],
  },
];
