import { CRDS } from './crds';
import { podDefaultsParityDeviations } from './parity';
import { POD_DEFAULTS_IMAGES, POD_DEFAULTS_VERSION } from './versions';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import { NetworkPolicy } from '../../lib/network-policy';
import type { Platform } from '../../lib/platform';
import { Rbac, READ_VERBS } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';
import { PROFILE_NAMESPACE_LABEL } from '../profile-controller/namespace-labels';

export interface PodDefaultsWebhookProps extends ComponentProps {
  /** Webhook server replicas (it only serves requests). @default 1 */
  readonly replicas?: number;
  /** @default requests 100m/100Mi, limits 500m/256Mi */
  readonly resources?: ControllerResources;
}

/** Where the server reads its serving certificate (its --tlsCertFile/--tlsKeyFile flags). */
const CERT_DIR = '/etc/webhook/certs';
const WEBHOOK_PORT = 4443;

/**
 * The PodDefault admission webhook: the PodDefault CRD and the server that merges matching
 * PodDefaults into new pods. It intercepts pods only in namespaces labelled as profile
 * namespaces (PROFILE_NAMESPACE_LABEL, set by the profile controller on every tenant
 * namespace), so the platform's own namespaces never depend on it.
 */
export class PodDefaultsWebhook extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return POD_DEFAULTS_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = POD_DEFAULTS_IMAGES;
  public readonly server: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: PodDefaultsWebhookProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1 (the webhook fails closed: with 0 replicas no pod can be created in a profile namespace)`);
    }
    this.addNamespace();
    const [podDefault] = CRDS.map((d) => this.addCrd(d));

    this.server = new Controller(this, 'Server', {
      name: 'poddefaults-webhook-deployment',
      serviceAccountName: 'poddefaults-webhook-service-account',
      containerName: 'poddefaults-webhook',
      image: this.image('webhook'),
      args: [`--tlsCertFile=${CERT_DIR}/tls.crt`, `--tlsKeyFile=${CERT_DIR}/tls.key`],
      // Upstream's full selector (kubeflow/dashboard v2.0.0 overlays), so a Deployment installed
      // from them can be taken over (selectors are immutable).
      selectorLabels: {
        'app': 'poddefaults',
        'app.kubernetes.io/component': 'poddefaults',
        'app.kubernetes.io/managed-by': 'kustomize',
        'app.kubernetes.io/name': 'poddefaults-webhook',
        'app.kubernetes.io/part-of': 'kubeflow-dashboard',
      },
      ports: { webhook: WEBHOOK_PORT },
      webhookPortName: 'https-webhook',
      // As upstream: no sidecar (the API server calls the webhook directly, over its own TLS).
      istioSidecar: false,
      // Upstream's server has no health endpoint and ships no probes.
      probes: false,
      stateless: true,
      replicas,
      runAsUser: 65532,
      resources: props.resources ?? { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      // It lists the PodDefaults of the pod's namespace; upstream grants full control, reading is enough.
      rules: [Rbac.read(podDefault.definition.group, podDefault.definition.plural)],
      watches: [{ group: podDefault.definition.group, resource: podDefault.definition.plural }],
    });
    // Upstream's NetworkPolicy: the server's pods admit only the webhook port (from anywhere:
    // the API server's address differs by cluster).
    new NetworkPolicy(this, 'NetworkPolicy', { name: 'poddefaults', targets: [this.server], ingress: [{ ports: [this.server.webhookPortName] }] });
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.server,
      serviceName: 'poddefaults-webhook-service',
      secretName: 'poddefaults-webhook-certs',
      certificateName: 'poddefaults-webhook-cert',
      certDir: CERT_DIR,
      // The poddefaults policy above admits the webhook port from every source already.
      isolationPolicy: false,
    });
    this.webhookServer.addMutatingWebhook('poddefaults-webhook-mutating-webhook-configuration', {
      name: 'poddefaults-webhook-deployment.kubeflow.org',
      path: '/apply-poddefault',
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1beta1', 'v1'],
      namespaceSelector: { matchLabels: PROFILE_NAMESPACE_LABEL },
    });

    // User roles, aggregated into the Kubeflow roles that profile namespaces bind.
    const group = podDefault.definition.group;
    new AggregatedClusterRole(this, 'AdminRole', {
      name: 'poddefaults-webhook-kubeflow-poddefaults-admin',
      aggregating: true,
      aggregationTarget: 'kubeflow-poddefaults-admin',
      aggregateTo: [KubeflowRole.ADMIN],
    });
    new AggregatedClusterRole(this, 'EditRole', {
      name: 'poddefaults-webhook-kubeflow-poddefaults-edit',
      aggregating: true,
      aggregationTarget: 'kubeflow-poddefaults-edit',
      aggregateTo: [KubeflowRole.EDIT, 'kubeflow-poddefaults-admin'],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'poddefaults-webhook-kubeflow-poddefaults-view',
      aggregateTo: [KubeflowRole.VIEW, 'kubeflow-poddefaults-edit'],
      rules: [{ apiGroups: [group], resources: ['poddefaults'], verbs: READ_VERBS }],
    });
    this.declareParityDeviations(podDefaultsParityDeviations(group));
  }
}
