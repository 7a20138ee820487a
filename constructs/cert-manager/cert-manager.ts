import { ApiObject } from 'cdk8s';
import { CERT_MANAGER_GROUP, CRDS } from './crds';
import { CERT_MANAGER_IMAGES, CERT_MANAGER_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { WebhookServer } from '../../lib/webhook-server';

export interface CertManagerProps extends ComponentProps {
  /** Replicas of the controller (leader election keeps one active). @default 1 */
  readonly controllerReplicas?: number;
  /** Replicas of the webhook (stateless). @default 1 */
  readonly webhookReplicas?: number;
  /** Replicas of the CA injector (leader election keeps one active). @default 1 */
  readonly cainjectorReplicas?: number;
  /** At most this many ACME challenges are presented at once (--max-concurrent-challenges). @default 60 */
  readonly maxConcurrentChallenges?: number;
  /** @default the Controller's defaults */
  readonly resources?: ControllerResources;
}

/** The infrastructure name that WebhookServer's cert-manager provider needs. */
export const CERT_MANAGER_INFRASTRUCTURE = 'cert-manager';
export const CERT_MANAGER_WEBHOOK_CA_SECRET = 'cert-manager-webhook-ca';
const INJECT_FROM_SECRET = 'cert-manager.io/inject-ca-from-secret';
const METRICS_REASON = 'v1.19.2 serves Prometheus metrics over plain HTTP on 9402 by default (TLS metrics need a certificate of their own)';
const labels = (component: string) => ({ 'app.kubernetes.io/name': component === 'controller' ? 'cert-manager' : component, 'app.kubernetes.io/instance': 'cert-manager', 'app.kubernetes.io/component': component });

/** The controller's permissions besides its own kinds (upstream's cert-manager-controller-* ClusterRoles, as intent). */
const CONTROLLER_RULES: PolicyRule[] = [
  Rbac.manage('', 'secrets'),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  // ACME HTTP-01 solvers: a pod, a Service and an Ingress per challenge.
  Rbac.manage('', 'pods', 'services'),
  Rbac.manage('networking.k8s.io', 'ingresses'),
  // Kubernetes CertificateSigningRequests signed by cert-manager issuers.
  Rbac.verbs('certificates.k8s.io', ['certificatesigningrequests'], ['get', 'list', 'update', 'watch']),
  Rbac.verbs('certificates.k8s.io', ['certificatesigningrequests/status'], ['patch', 'update']),
  { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['issuers.cert-manager.io/*', 'clusterissuers.cert-manager.io/*'], verbs: ['sign'] },
  // The approver approves CertificateRequests for cert-manager's own issuers.
  { apiGroups: [CERT_MANAGER_GROUP], resources: ['signers'], resourceNames: ['issuers.cert-manager.io/*', 'clusterissuers.cert-manager.io/*'], verbs: ['approve'] },
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];

/** The CA injector's permissions: it writes caBundle into webhook configurations, API services and CRDs. */
const CAINJECTOR_RULES: PolicyRule[] = [
  Rbac.read(CERT_MANAGER_GROUP, 'certificates'),
  Rbac.read('', 'secrets'),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.verbs('admissionregistration.k8s.io', ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('apiregistration.k8s.io', ['apiservices'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('apiextensions.k8s.io', ['customresourcedefinitions'], ['get', 'list', 'patch', 'update', 'watch']),
];

/**
 * cert-manager v1.19.2 as a component of the platform: its six CRDs, the controller, the CA
 * injector and the webhook, which bootstraps its own CA (Secret cert-manager-webhook-ca) and
 * serving certificate in-process while the CA injector copies that CA into the webhook
 * configurations. It is infrastructure: it satisfies the 'cert-manager' need of every
 * WebhookServer using CertificateProvider.certManager(), its objects apply in the
 * infrastructure phases, and every other component's Certificate and Issuer follows its
 * webhook (checks MLP022 and MLP023 prove the order).
 */
export class CertManager extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return CERT_MANAGER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = CERT_MANAGER_IMAGES;
  public readonly controller: Controller;
  public readonly cainjector: Controller;
  public readonly webhook: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: CertManagerProps = {}) {
    super(scope, id, props.namespace ?? 'cert-manager', props);
    for (const key of ['controllerReplicas', 'webhookReplicas', 'cainjectorReplicas'] as const) {
      const v = props[key];
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new Error(`${this.node.path}: ${key} ${v} is not allowed; set a whole number >= 1`);
    }
    const challenges = props.maxConcurrentChallenges ?? 60;
    if (!Number.isInteger(challenges) || challenges < 1) {
      throw new Error(`${this.node.path}: maxConcurrentChallenges ${challenges} is not allowed; set a whole number >= 1`);
    }
    this.providesInfrastructure.push(CERT_MANAGER_INFRASTRUCTURE);
    this.addNamespace();
    const crds = CRDS.map((d) => this.addCrd(d));
    // Leases live in cert-manager's namespace here (upstream: kube-system), so that its
    // RBAC stays in the namespace it owns.
    const election = '--leader-election-namespace=$(POD_NAMESPACE)';

    this.controller = new Controller(this, 'Controller', {
      name: 'cert-manager',
      image: this.image('controller'),
      args: ['--v=2', '--cluster-resource-namespace=$(POD_NAMESPACE)', election, `--acme-http01-solver-image=${this.image('acmesolver')}`, `--max-concurrent-challenges=${challenges}`],
      selectorLabels: labels('controller'),
      // Read-only root as upstream's chart (v1.19.2 values: containerSecurityContext); it writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      ports: { health: 9403 },
      // Upstream probes liveness only; our readiness probe uses the same endpoint.
      probes: { livenessPath: '/livez', readinessPath: '/livez' },
      metrics: ControllerMetrics.insecure(9402, METRICS_REASON, { serviceName: 'cert-manager', portName: 'http-metrics' }),
      replicas: props.controllerReplicas,
      leaderElectionId: 'cert-manager-controller',
      resources: props.resources,
      owns: crds.map((c) => c.definition),
      rules: CONTROLLER_RULES,
      watches: [{ group: '', resource: 'secrets' }, { group: 'networking.k8s.io', resource: 'ingresses' }],
    });

    this.cainjector = new Controller(this, 'CaInjector', {
      name: 'cert-manager-cainjector',
      image: this.image('cainjector'),
      args: ['--v=2', election],
      selectorLabels: labels('cainjector'),
      // Read-only root as upstream's chart (v1.19.2 values: containerSecurityContext); it writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      // Upstream's cainjector has no health endpoint and no probes.
      probes: false,
      metrics: ControllerMetrics.insecure(9402, METRICS_REASON, { serviceName: 'cert-manager-cainjector-metrics', portName: 'http-metrics' }),
      replicas: props.cainjectorReplicas,
      leaderElectionId: 'cert-manager-cainjector-leader-election',
      resources: props.resources,
      rules: CAINJECTOR_RULES,
      watches: [
        { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
        { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
        { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
        { group: CERT_MANAGER_GROUP, resource: 'certificates' },
      ],
    });

    this.webhook = new Controller(this, 'Webhook', {
      name: 'cert-manager-webhook',
      image: this.image('webhook'),
      args: [
        '--v=2',
        '--secure-port=10250',
        '--dynamic-serving-ca-secret-namespace=$(POD_NAMESPACE)',
        `--dynamic-serving-ca-secret-name=${CERT_MANAGER_WEBHOOK_CA_SECRET}`,
        '--dynamic-serving-dns-names=cert-manager-webhook,cert-manager-webhook.$(POD_NAMESPACE),cert-manager-webhook.$(POD_NAMESPACE).svc',
      ],
      selectorLabels: labels('webhook'),
      // Read-only root as upstream's chart (v1.19.2 values: containerSecurityContext); it writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      ports: { health: 6080, webhook: 10250 },
      probes: { livenessPath: '/livez', readinessPath: '/healthz' },
      metrics: ControllerMetrics.insecure(9402, METRICS_REASON, { serviceName: 'cert-manager-webhook-metrics', portName: 'http-metrics' }),
      replicas: props.webhookReplicas,
      resources: props.resources,
      // Authorizes the users behind admission requests it checks (CertificateRequest identity).
      rules: [Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create'])],
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.webhook,
      serviceName: 'cert-manager-webhook',
      secretName: CERT_MANAGER_WEBHOOK_CA_SECRET,
      // The webhook creates its CA and serving certificate itself; it cannot use cert-manager
      // (itself) to get one. It serves from memory: nothing is read from disk.
      selfManaged: { required: true, writesCertDir: true },
    });
    const webhook = {
      name: 'webhook.cert-manager.io',
      matchPolicy: 'Equivalent' as const,
      timeoutSeconds: 30,
    };
    this.webhookServer.addValidatingWebhook('cert-manager-webhook', {
      ...webhook,
      path: '/validate',
      rules: [{ apiGroups: [CERT_MANAGER_GROUP, 'acme.cert-manager.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['*/*'] }],
      namespaceSelector: { matchExpressions: [{ key: 'cert-manager.io/disable-validation', operator: 'NotIn', values: ['true'] }] },
    });
    this.webhookServer.addMutatingWebhook('cert-manager-webhook', {
      ...webhook,
      path: '/mutate',
      rules: [{ apiGroups: [CERT_MANAGER_GROUP], apiVersions: ['v1'], operations: ['CREATE'], resources: ['certificaterequests'] }],
    });
    // The CA injector copies the webhook's CA from its Secret into caBundle.
    for (const o of this.webhookServer.node.findAll()) {
      if (o instanceof ApiObject && (o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration')) {
        o.metadata.addAnnotation(INJECT_FROM_SECRET, `${this.namespaceName}/${CERT_MANAGER_WEBHOOK_CA_SECRET}`);
      }
    }
  }
}
