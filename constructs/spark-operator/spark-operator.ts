import { CRDS } from './crds';
import { sparkOperatorParityDeviations } from './parity';
import { CONTROLLER_RULES, NAMESPACED_EVENT_RULES, WEBHOOK_RULES } from './rbac';
import { SparkJobNamespace } from './spark-job-namespace';
import { SPARK_OPERATOR_IMAGES, SPARK_OPERATOR_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { CustomResourceDefinition } from '../../lib/crd';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { UserRoles } from '../../lib/user-roles';
import { LabelSelector, WebhookRule, WebhookServer } from '../../lib/webhook-server';

export interface SparkOperatorProps extends ComponentProps {
  /**
   * Namespaces where SparkApplications run: the controller and webhook watch only these,
   * the webhooks select only these, and each gets the driver service account and Role.
   * @default ['default'] (upstream's chart default)
   */
  readonly jobNamespaces?: string[];
  /**
   * Watch SparkApplications in every namespace instead (upstream's jobNamespaces: [""]).
   * No driver service account is created then: give applications one per namespace.
   * @default false
   */
  readonly allNamespaces?: boolean;
  /**
   * Create the driver service account, Role and RoleBinding in each job namespace.
   * @default true
   */
  readonly sparkServiceAccounts?: boolean;
  /**
   * The webhook rejects applications whose pods would exceed the namespace's ResourceQuota
   * (--enable-resource-quota-enforcement).
   * @default false
   */
  readonly resourceQuotaEnforcement?: boolean;
  /** Controller replicas (leader election keeps one active). @default 1 */
  readonly controllerReplicas?: number;
  /** Webhook replicas (leader election keeps one rotating the certificate). @default 1 */
  readonly webhookReplicas?: number;
  /** Worker threads of the controller (--controller-threads). @default 10 */
  readonly controllerThreads?: number;
  /** @default requests 100m/128Mi, limits 500m/512Mi */
  readonly controllerResources?: ControllerResources;
  /** @default requests 100m/128Mi, limits 500m/512Mi (upstream's webhook values) */
  readonly webhookResources?: ControllerResources;
  /**
   * Label both pods sidecar.istio.io/inject with this value (kubeflow/manifests' overlay sets
   * "false": the operator runs in the mesh-injected kubeflow namespace without a sidecar).
   * @default no label
   */
  readonly istioSidecar?: boolean;
}

const GROUP = 'sparkoperator.k8s.io';
const NAME = 'spark-operator';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const RESOURCES: ControllerResources = { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } };
/** Both webhook configurations carry this name in upstream's chart (<release>-webhook). */
export const SPARK_WEBHOOK_CONFIGURATION = 'spark-operator-webhook';

const selector = (component: string) => ({
  'app.kubernetes.io/name': NAME,
  'app.kubernetes.io/instance': NAME,
  'app.kubernetes.io/component': component,
});

/** Flags both workloads share (logging, API client limits, metrics). */
const COMMON_FLAGS = [
  '--zap-log-level=info',
  '--zap-encoder=console',
];
/**
 * Spark's own Prometheus endpoint (the operator's metrics server, not controller-runtime's):
 * plain HTTP with no authentication option in v2.5.2; upstream's chart scrapes it through a
 * PodMonitor.
 */
const metrics = (workload: string) => ControllerMetrics.insecure(8080, `the Spark Operator ${workload} serves Prometheus metrics over plain HTTP only (no TLS or auth option in v2.5.2)`, {
  args: ['--enable-metrics=true', '--metrics-bind-address=:8080', '--metrics-endpoint=/metrics', '--metrics-prefix=', '--metrics-labels=app_type'],
});
const API_FLAGS = ['--kube-api-qps=20', '--kube-api-burst=30'];

/**
 * The Kubeflow Spark Operator v2.5.2: SparkApplication, ScheduledSparkApplication and
 * SparkConnect; the controller and the webhook server, two Deployments of one image as
 * upstream's chart deploys them; the webhook's self-rotated certificate; the mutating and
 * validating webhook configurations; driver RBAC in each job namespace; user roles.
 */
export class SparkOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return SPARK_OPERATOR_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = SPARK_OPERATOR_IMAGES;
  public readonly controller: Controller;
  public readonly webhook: Controller;
  public readonly webhookServer: WebhookServer;
  /** Job namespaces, or undefined when the operator watches every namespace. */
  public readonly jobNamespaces?: readonly string[];

  constructor(scope: Platform, id: string, props: SparkOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'spark-operator', props);
    const ns = this.namespaceName;
    if (props.allNamespaces && props.jobNamespaces) {
      throw new Error(`${this.node.path}: jobNamespaces [${props.jobNamespaces.join(', ')}] and allNamespaces: true exclude each other; drop jobNamespaces to watch every namespace, or drop allNamespaces`);
    }
    if (props.jobNamespaces && !props.jobNamespaces.length) {
      throw new Error(`${this.node.path}: jobNamespaces is empty; list the namespaces applications run in, or set allNamespaces: true`);
    }
    for (const n of props.jobNamespaces ?? []) {
      if (!DNS_LABEL.test(n) || n.length > 63) {
        throw new Error(`${this.node.path}: jobNamespaces: '${n}' is not a namespace name; use lower-case DNS labels such as 'spark-jobs'`);
      }
    }
    const threads = props.controllerThreads ?? 10;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new Error(`${this.node.path}: controllerThreads ${threads} must be a whole number >= 1`);
    }
    const jobNamespaces = props.allNamespaces ? undefined : [...new Set(props.jobNamespaces ?? ['default'])];
    this.jobNamespaces = jobNamespaces;
    const namespacesFlag = `--namespaces=${(jobNamespaces ?? []).join(',')}`;
    this.declareParityDeviations(sparkOperatorParityDeviations({ namespace: ns, namespacesFlag, webhookConfiguration: SPARK_WEBHOOK_CONFIGURATION }));
    this.addNamespace();

    const crds = new Map<string, CustomResourceDefinition>(CRDS.map((d) => [d.kind, this.addCrd(d)]));

    // --- controller ------------------------------------------------------------------------
    this.controller = new Controller(this, 'Controller', {
      istioSidecar: props.istioSidecar,
      name: 'spark-operator-controller',
      // Upstream's container names (kustomize config): kubectl logs -c and users' patches refer to them.
      containerName: 'controller',
      image: this.image('operator'),
      args: [
        'controller', 'start',
        ...COMMON_FLAGS,
        namespacesFlag,
        `--controller-threads=${threads}`,
        '--enable-ui-service=true',
        '--leader-election=true',
        '--leader-election-lock-name=spark-operator-controller-lock',
        `--leader-election-lock-namespace=${ns}`,
        '--leader-election-lease-duration=15s',
        '--leader-election-renew-deadline=10s',
        '--leader-election-retry-period=2s',
        '--workqueue-ratelimiter-bucket-qps=50',
        '--workqueue-ratelimiter-bucket-size=500',
        '--workqueue-ratelimiter-max-delay=6h',
        '--driver-pod-creation-grace-period=10s',
        '--max-tracked-executor-per-app=1000',
        ...API_FLAGS,
        '--feature-gates=PartialRestart=false,LoadSparkDefaults=false',
        '--scheduled-spark-application-timestamp-precision=nanos',
      ],
      selectorLabels: selector('controller'),
      ports: { health: 8081 },
      metrics: metrics('controller'),
      replicas: props.controllerReplicas,
      leaderElectionId: 'spark-operator-controller-lock',
      resources: props.controllerResources ?? RESOURCES,
      // Not `owns`: the controller never patches its kinds nor creates the scheduled ones or
      // SparkConnects (users do); CONTROLLER_RULES grants what it does.
      rules: CONTROLLER_RULES,
      namespacedRules: NAMESPACED_EVENT_RULES,
      watches: [{ group: '', resource: 'pods' }, { group: '', resource: 'services' }, { group: '', resource: 'configmaps' }],
      // Read-only root as upstream's chart, with its 1Gi /tmp.
      rootFilesystem: RootFilesystem.readOnly([{ name: 'tmp', mountPath: '/tmp', sizeLimit: '1Gi' }]),
    });

    // --- webhook ---------------------------------------------------------------------------
    this.webhook = new Controller(this, 'Webhook', {
      istioSidecar: props.istioSidecar,
      name: 'spark-operator-webhook',
      containerName: 'webhook',
      image: this.image('operator'),
      args: [
        'webhook', 'start',
        ...COMMON_FLAGS,
        namespacesFlag,
        '--webhook-secret-name=spark-operator-webhook-certs',
        `--webhook-secret-namespace=${ns}`,
        '--webhook-svc-name=spark-operator-webhook-svc',
        `--webhook-svc-namespace=${ns}`,
        '--webhook-port=9443',
        `--mutating-webhook-name=${SPARK_WEBHOOK_CONFIGURATION}`,
        `--validating-webhook-name=${SPARK_WEBHOOK_CONFIGURATION}`,
        ...(props.resourceQuotaEnforcement ? ['--enable-resource-quota-enforcement=true'] : []),
        ...API_FLAGS,
        '--leader-election=true',
        '--leader-election-lock-name=spark-operator-webhook-lock',
        `--leader-election-lock-namespace=${ns}`,
      ],
      selectorLabels: selector('webhook'),
      // Read-only root as upstream's chart; the certificate directory it writes is the
      // WebhookServer's writable emptyDir (writesCertDir).
      rootFilesystem: RootFilesystem.readOnly(),
      ports: { health: 8081, webhook: 9443 },
      metrics: metrics('webhook'),
      replicas: props.webhookReplicas,
      leaderElectionId: 'spark-operator-webhook-lock',
      resources: props.webhookResources ?? RESOURCES,
      rules: WEBHOOK_RULES,
      // It creates its certificate Secret when missing (get and update come with the rotator's Role).
      namespacedRules: [...NAMESPACED_EVENT_RULES, Rbac.verbs('', ['secrets'], ['create'])],
      // Pods are listed and watched through an informer only (upstream grants no get on them).
      watches: [{ group: GROUP, resource: 'sparkapplications' }, { group: GROUP, resource: 'scheduledsparkapplications' }],
    });
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.webhook,
      serviceName: 'spark-operator-webhook-svc',
      secretName: 'spark-operator-webhook-certs',
      certDir: '/etc/k8s-webhook-server/serving-certs',
      // The webhook generates its CA and key pair, keeps them in the Secret, writes the
      // serving pair into certDir and patches caBundle into both configurations. Upstream's
      // --enable-cert-manager mode reads cert-manager's Secret keys (ca.crt), which OpenShift's
      // service CA does not write, so the rotator is the one source that works everywhere.
      selfManaged: { required: true, writesCertDir: true },
      // Where the platform isolates the namespace: the API server reaches the webhook port (kubeflow/manifests' spark-operator-webhook, by its two labels).
      isolationPolicy: { name: 'spark-operator-webhook', selectorKeys: ['app.kubernetes.io/name', 'app.kubernetes.io/component'] },
    });
    this.addWebhooks(jobNamespaces);

    // --- job namespaces and user roles ---------------------------------------------------------
    if (jobNamespaces && (props.sparkServiceAccounts ?? true)) {
      for (const n of jobNamespaces) {
        const exists = n === ns || scope.existingNamespaces.includes(n);
        new SparkJobNamespace(this, `JobNamespace-${n}`, { namespace: n, createNamespace: !exists });
      }
    }
    new UserRoles(this, 'UserRoles', { crds: ['SparkApplication', 'ScheduledSparkApplication'].map((k) => crds.get(k)!.definition) });
  }

  /** The four mutating and three validating webhooks of upstream's chart. */
  private addWebhooks(jobNamespaces: string[] | undefined): void {
    const namespaceSelector: LabelSelector | undefined = jobNamespaces
      ? { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: jobNamespaces }] }
      : undefined;
    const common = { failurePolicy: 'Fail' as const, sideEffects: 'None' as const, admissionReviewVersions: ['v1'], matchPolicy: 'Exact' as const, timeoutSeconds: 10, namespaceSelector };
    const rule = (version: string, plural: string): WebhookRule[] => [{ apiGroups: [GROUP], apiVersions: [version], resources: [plural], operations: ['CREATE', 'UPDATE'] }];
    this.webhookServer.addMutatingWebhook(SPARK_WEBHOOK_CONFIGURATION, {
      ...common,
      name: 'mutate--v1-pod.sparkoperator.k8s.io',
      path: '/mutate--v1-pod',
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      objectSelector: { matchLabels: { 'sparkoperator.k8s.io/launched-by-spark-operator': 'true' } },
      reinvocationPolicy: 'Never',
    });
    const kinds: Array<[string, string, string]> = [
      ['v1beta2', 'sparkapplication', 'sparkapplications'],
      ['v1beta2', 'scheduledsparkapplication', 'scheduledsparkapplications'],
      ['v1alpha1', 'sparkconnect', 'sparkconnects'],
    ];
    for (const [version, kind, plural] of kinds) {
      const suffix = `sparkoperator-k8s-io-${version}-${kind}`;
      this.webhookServer.addMutatingWebhook(SPARK_WEBHOOK_CONFIGURATION, {
        ...common,
        name: `mutate-${suffix}.sparkoperator.k8s.io`,
        path: `/mutate-${suffix}`,
        rules: rule(version, plural),
        reinvocationPolicy: 'Never',
      });
      this.webhookServer.addValidatingWebhook(SPARK_WEBHOOK_CONFIGURATION, {
        ...common,
        name: `validate-${suffix}.sparkoperator.k8s.io`,
        path: `/validate-${suffix}`,
        rules: rule(version, plural),
      });
    }
  }
}
