import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS } from './crds';
import { MODELMESH_PARITY_DEVIATIONS } from './parity';
import { MODELMESH_RUNTIME_IMAGES, MODELMESH_RUNTIMES } from './runtimes';
import { MODELMESH_IMAGES, MODELMESH_VERSION } from './versions';
import { ClusterServingRuntime } from '../../imports/serving.kserve.io';
import { Component, ComponentProps, Prerequisite } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import { NetworkPeer, NetworkPolicy } from '../../lib/network-policy';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';
import { clusterServingRuntimeCrd, inferenceServiceCrd, servingRuntimeCrd } from '../kserve/crds';

/**
 * The etcd ModelMesh keeps its model registry in: a prerequisite, reached through the
 * connection Secret named by `etcdSecretName`, which the platform team provides.
 */
export const MODELMESH_ETCD: Prerequisite = { name: 'etcd', provides: [] };

export interface ModelMeshServingProps extends ComponentProps {
  /** Controller replicas (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** Secret with the etcd connection (key etcd_connection). @default model-serving-etcd */
  readonly etcdSecretName?: string;
  /** Pods per ServingRuntime the controller deploys. @default 2 */
  readonly podsPerRuntime?: number;
  /** Run the REST proxy (KServe V2 REST in front of gRPC) in runtime pods. @default true */
  readonly restProxy?: boolean;
  /**
   * Default ClusterServingRuntimes to install, by name; `false` for none.
   * @default all of MODELMESH_RUNTIMES (triton-2.x, mlserver-1.x, ovms-1.x, torchserve-0.x)
   */
  readonly servingRuntimes?: string[] | false;
  /**
   * Emit the (empty) `storage-config` Secret in the controller's namespace, as upstream's
   * install does. Runtime pods mount it (not optional) and the storage helper reads one
   * storage connection per key from it; without it they never start. `false` when the
   * platform team provides it (with the connections) in another way.
   * @default true
   */
  readonly storageConfigSecret?: boolean;
}

/** The Secret runtime pods mount and the controller reads PVC entries from (v0.12.0's StorageSecretName default). */
export const MODELMESH_STORAGE_CONFIG_SECRET = 'storage-config';

const SELECTOR = { 'control-plane': 'modelmesh-controller' };
const LABELS = {
  'app.kubernetes.io/instance': 'modelmesh-controller',
  'app.kubernetes.io/managed-by': 'modelmesh-controller',
  'app.kubernetes.io/name': 'modelmesh-controller',
};
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * ModelMesh Serving v0.12.0: the Predictor CRD, the modelmesh-controller (which deploys
 * multi-model runtime pods for InferenceServices annotated for ModelMesh and for Predictors),
 * its ServingRuntime validating webhook, RBAC and default configuration.
 *
 * ModelMesh ships copies of KServe's InferenceService, ServingRuntime and
 * ClusterServingRuntime CRDs (KServe v0.12.0 schemas). Here it declares them with
 * useCrd and bundledCopy: with KServe in the platform, KServe's newer schema is emitted; alone, ModelMesh
 * emits KServe's schema as its own copy. The two ServingRuntime webhooks coexist: each
 * controller validates the runtimes it serves.
 */
export class ModelMeshServing extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return MODELMESH_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = { ...MODELMESH_IMAGES, ...MODELMESH_RUNTIME_IMAGES };
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: ModelMeshServingProps = {}) {
    super(scope, id, props.namespace ?? 'modelmesh-serving', props);
    this.declareParityDeviations(MODELMESH_PARITY_DEVIATIONS);
    const etcdSecret = props.etcdSecretName ?? 'model-serving-etcd';
    if (!DNS1123_SUBDOMAIN.test(etcdSecret) || etcdSecret.length > 253) {
      throw new Error(`${this.node.path}: etcdSecretName '${etcdSecret}' is not a Secret name; use a lower-case DNS subdomain such as model-serving-etcd`);
    }
    const wanted = props.servingRuntimes === false ? [] : props.servingRuntimes ?? MODELMESH_RUNTIMES.map((r) => r.name);
    for (const name of wanted) {
      if (!MODELMESH_RUNTIMES.some((r) => r.name === name)) {
        throw new Error(`${this.node.path}: servingRuntimes: unknown runtime '${name}'; choose from ${MODELMESH_RUNTIMES.map((r) => r.name).join(', ')}`);
      }
    }
    const podsPerRuntime = props.podsPerRuntime ?? 2;
    if (!Number.isInteger(podsPerRuntime) || podsPerRuntime < 1) {
      throw new Error(`${this.node.path}: podsPerRuntime ${props.podsPerRuntime} must be a whole number >= 1`);
    }
    this.infrastructure.push('etcd');
    this.addNamespace();
    const ns = this.namespaceName;

    const predictor = this.addCrd(CRDS[0]);
    const shared = [inferenceServiceCrd, servingRuntimeCrd, clusterServingRuntimeCrd].map((d) => this.useCrd(d, {
      reason: `ModelMesh serves ${d.kind}s of KServe's API; upstream's install bundles KServe's v0.12.0 schema`,
      bundledCopy: true,
    }));

    // The system defaults the controller reads from /etc/model-serving/config/default; users
    // override them with a model-serving-config ConfigMap in the same namespace.
    const image = (key: string) => {
      const ref = this.image(key);
      const at = ref.includes('@') ? ref.indexOf('@') : ref.lastIndexOf(':');
      return { name: ref.slice(0, at), ...(ref.includes('@') ? { digest: ref.slice(at + 1) } : { tag: ref.slice(at + 1) }) };
    };
    new k8s.KubeConfigMap(this, 'ConfigDefaults', {
      metadata: { name: 'model-serving-config-defaults', namespace: ns },
      data: {
        'config-defaults.yaml': stringify({
          podsPerRuntime,
          headlessService: true,
          modelMeshImage: image('modelmesh'),
          modelMeshResources: { requests: { cpu: '300m', memory: '448Mi' }, limits: { cpu: '3', memory: '448Mi' } },
          restProxy: {
            enabled: props.restProxy ?? true,
            port: 8008,
            image: image('restProxy'),
            resources: { requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          },
          storageHelperImage: { ...image('runtimeAdapter'), command: ['/opt/app/puller'] },
          storageHelperResources: { requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '2', memory: '512Mi' } },
          serviceAccountName: 'modelmesh',
          metrics: { enabled: true },
          builtInServerTypes: ['triton', 'mlserver', 'ovms', 'torchserve'],
        }, { lineWidth: 0 }),
      },
    });
    // MM-STORAGECONFIG: runtime pods mount this Secret (controllers/modelmesh/runtime.go at
    // v0.12.0, volume not optional), so without it they stay in ContainerCreating. Empty, as
    // upstream's install ships it: users add one storage connection per key; a GitOps apply
    // of the empty Secret does not remove keys it never set.
    if (props.storageConfigSecret ?? true) {
      new k8s.KubeSecret(this, 'StorageConfig', { metadata: { name: MODELMESH_STORAGE_CONFIG_SECRET, namespace: ns }, type: 'Opaque' });
    }
    // The identity of the runtime pods the controller deploys.
    new k8s.KubeServiceAccount(this, 'RuntimeServiceAccount', { metadata: { name: 'modelmesh', namespace: ns } });

    this.controller = new Controller(this, 'Controller', {
      name: 'modelmesh-controller',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--enable-leader-election', '--health-probe-bind-address=:8081'],
      env: [
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'ETCD_SECRET_NAME', value: etcdSecret },
      ],
      selectorLabels: SELECTOR,
      labels: LABELS,
      ports: { health: 8081, webhook: 9443 },
      metrics: ControllerMetrics.insecure(8080, 'modelmesh-controller v0.12.0 serves plain HTTP metrics (no secure serving, and upstream ships no kube-rbac-proxy)', {
        args: ['--metrics-addr=:8080'],
        // The Service name of Open Data Hub's overlay (upstream's default install has none).
        serviceName: 'modelmesh-controller',
      }),
      replicas: props.replicas,
      leaderElectionId: 'modelmesh-controller-leader-lock',
      resources: { requests: { cpu: '50m', memory: '96Mi' }, limits: { cpu: '1', memory: '512Mi' } },
      owns: [predictor, ...shared].map((c) => c.definition),
      rules: [
        Rbac.manage('', 'configmaps', 'secrets', 'services', 'services/finalizers'),
        Rbac.read('', 'endpoints', 'persistentvolumeclaims'),
        Rbac.verbs('', ['namespaces', 'namespaces/finalizers'], ['get', 'list', 'patch', 'update', 'watch']),
        Rbac.manage('apps', 'deployments', 'deployments/finalizers'),
        Rbac.manage('monitoring.coreos.com', 'servicemonitors'),
        Rbac.verbs('autoscaling', ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
        // Upstream grants get and patch on the finalizers too.
        Rbac.verbs('serving.kserve.io', ['inferenceservices/finalizers', 'predictors/finalizers'], ['get', 'patch', 'update']),
      ],
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'services' },
        { group: '', resource: 'secrets' },
        { group: '', resource: 'configmaps' },
        { group: '', resource: 'namespaces' },
      ],
      namespacedRules: [Rbac.manage('', 'configmaps')],
      volumes: [{ name: 'config-defaults', configMap: { name: 'model-serving-config-defaults', defaultMode: 420 } }],
      volumeMounts: [{ name: 'config-defaults', mountPath: '/etc/model-serving/config/default', readOnly: true }],
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: 'modelmesh-webhook-server-service',
      secretName: 'modelmesh-webhook-server-cert',
      certificateName: 'modelmesh-webhook-server-cert',
      port: 9443,
      // Upstream's modelmesh-webhook policy below admits the webhook port from every source already.
      isolationPolicy: false,
    });
    // Upstream v0.12.0's NetworkPolicies (config/default): the controller's pods admit the
    // webhook port; the runtime pods it deploys at run time (labelled modelmesh-service) admit
    // gRPC and the internal port from ModelMesh pods, gRPC and the REST proxy from anywhere,
    // and their metrics port. With these, the controller's own plain-HTTP metrics port is
    // reachable only through the platform's metrics fence. Upstream's third policy,
    // modelmesh-controller, admits 8443, which the controller's pods do not serve at v0.12.0
    // (they declare 9443 alone): it is left out (MLP063 fails a policy for a port no container declares).
    const controllerPods = { matchLabels: { 'app.kubernetes.io/managed-by': 'modelmesh-controller', ...SELECTOR } };
    new NetworkPolicy(this, 'WebhookNetworkPolicy', { name: 'modelmesh-webhook', targets: [this.controller], podSelector: controllerPods, ingress: [{ ports: [9443] }] });
    const managed = { 'app.kubernetes.io/managed-by': 'modelmesh-controller' };
    new NetworkPolicy(this, 'RuntimesNetworkPolicy', {
      name: 'modelmesh-runtimes',
      targets: [{ name: 'the runtime pods modelmesh-controller deploys', selectorLabels: managed, runtimePods: true }],
      podSelector: { matchLabels: managed, matchExpressions: [{ key: 'modelmesh-service', operator: 'Exists' }] },
      ingress: [
        { from: [NetworkPeer.podsInOwnNamespace(managed)], ports: [8033, 8080] },
        { ports: [8033, 8008] },
        { ports: [2112] },
      ],
    });

    for (const rt of MODELMESH_RUNTIMES.filter((r) => wanted.includes(r.name))) {
      new ClusterServingRuntime(this, `Runtime-${rt.name}`, {
        metadata: { name: rt.name, labels: { name: `modelmesh-serving-${rt.name}-SR` }, annotations: rt.annotations },
        spec: rt.spec(this.image(rt.imageKey)),
      });
    }

    // Validates ModelMesh runtimes; KServe's servingruntime.serving.kserve.io configuration
    // validates the same kinds under another name, so both coexist.
    this.webhookServer.addValidatingWebhook('modelmesh-servingruntime.serving.kserve.io', {
      name: 'servingruntime.modelmesh-webhook-server.default',
      path: '/validate-serving-modelmesh-io-v1alpha1-servingruntime',
      rules: [{ apiGroups: ['serving.kserve.io'], apiVersions: ['v1alpha1'], resources: ['clusterservingruntimes', 'servingruntimes'], operations: ['CREATE', 'UPDATE'] }],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
  }
}
