import { CRDS, KUBEFLOW_GROUP } from './crds';
import { TRAINING_OPERATOR_PARITY_DEVIATIONS } from './parity';
import { TRAINING_OPERATOR_IMAGES, TRAINING_OPERATOR_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { CrdDefinition } from '../../lib/crd';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject, RuntimeRole } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';

/** The job kinds training-operator serves, as its --enable-scheme flag names them. */
export type TrainingOperatorScheme = 'tfjob' | 'pytorchjob' | 'mpijob' | 'xgboostjob' | 'paddlejob' | 'jaxjob';

export const TRAINING_OPERATOR_SCHEMES: readonly TrainingOperatorScheme[] = ['tfjob', 'pytorchjob', 'mpijob', 'xgboostjob', 'paddlejob', 'jaxjob'];

export interface TrainingOperatorProps extends ComponentProps {
  /**
   * Job kinds to serve (--enable-scheme): only their CRDs and validating webhooks are
   * installed. @default all six
   */
  readonly schemes?: readonly TrainingOperatorScheme[];
  /** Replicas of the operator (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** @default the Controller's defaults (upstream sets none) */
  readonly resources?: ControllerResources;
  /** Kubeflow's aggregated user roles (kubeflow-training-admin/edit/view). @default true */
  readonly userRoles?: boolean;
}

const NAME = 'training-operator';
const SELECTOR = { 'control-plane': 'kubeflow-training-operator' };
export const TRAINING_OPERATOR_WEBHOOK_SECRET = 'training-operator-webhook-cert';

/**
 * What the operator needs besides the job kinds it owns (upstream's training-operator
 * ClusterRole). Upstream's cluster-wide get/update on validating webhook configurations
 * serves the certificate rotator: the WebhookServer grants that scoped to our configuration.
 */
const OPERATOR_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps'], ['create', 'list', 'update', 'watch']),
  Rbac.manage('', 'events', 'pods'),
  Rbac.verbs('', ['pods/exec'], ['create']),
  Rbac.verbs('', ['secrets'], ['get', 'list', 'update', 'watch']),
  Rbac.verbs('', ['serviceaccounts'], ['create', 'get', 'list', 'watch']),
  Rbac.verbs('', ['services'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.manage('autoscaling', 'horizontalpodautoscalers'),
  // The MPI launcher's Role and RoleBinding (pods/exec into workers).
  Rbac.verbs('rbac.authorization.k8s.io', ['rolebindings', 'roles'], ['create', 'list', 'update', 'watch']),
  Rbac.manage('scheduling.volcano.sh', 'podgroups'),
  Rbac.manage('scheduling.x-k8s.io', 'podgroups'),
];

/**
 * What the MPIJob controller creates per MPIJob at release-1.9 (mpi/mpijob_controller.go
 * newLauncherRole, newLauncherRoleBinding): the launcher's Role, reading pods and exec-ing
 * into the job's workers by name, and its binding to the launcher's ServiceAccount.
 */
export const TRAINING_OPERATOR_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: '<mpijob>-launcher',
    createdFor: 'per MPIJob, for its launcher (mpijob_controller.go newLauncherRole)',
    rules: [
      Rbac.read('', 'pods'),
      { apiGroups: [''], resources: ['pods/exec'], resourceNames: ['<mpijob>-worker-<i>'], verbs: ['create'] },
    ],
  },
  {
    kind: 'RoleBinding',
    name: '<mpijob>-launcher',
    createdFor: 'per MPIJob, binding the launcher\'s ServiceAccount (mpijob_controller.go newLauncherRoleBinding)',
    roleRef: { kind: 'Role', name: '<mpijob>-launcher' },
  },
];

/**
 * Kubeflow Training Operator v1 (branch release-1.9): TFJob, PyTorchJob, MPIJob,
 * XGBoostJob, PaddleJob and JAXJob (kubeflow.org/v1), the operator with its validating
 * webhooks (served with a certificate the operator rotates itself: upstream supports
 * nothing else) and Kubeflow's user roles.
 *
 * @deprecated upstream: Kubeflow Trainer v2 (the `Trainer` component) supersedes the
 * training operator; this component exists so that platforms can keep running v1 jobs
 * while they move to TrainJobs. A platform may carry both: their CRDs, object names and
 * webhooks do not overlap. Its MPIJob is kubeflow.org/v1; the standalone mpi-operator's
 * (which Kueue's MPIJob integration handles) is kubeflow.org/v2beta1 under the same CRD
 * name, so a platform carries one or the other.
 */
export class TrainingOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return TRAINING_OPERATOR_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = TRAINING_OPERATOR_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  /** The schemes (job kinds) served. */
  public readonly schemes: readonly TrainingOperatorScheme[];

  constructor(scope: Platform, id: string, props: TrainingOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one operator active)`);
    }
    this.schemes = [...(props.schemes ?? TRAINING_OPERATOR_SCHEMES)];
    if (!this.schemes.length) throw new Error(`${this.node.path}: schemes is empty; enable at least one of ${TRAINING_OPERATOR_SCHEMES.join(', ')}, or leave the component out`);
    for (const sc of this.schemes) {
      if (!TRAINING_OPERATOR_SCHEMES.includes(sc)) throw new Error(`${this.node.path}: schemes: unknown scheme '${sc}'; choose from ${TRAINING_OPERATOR_SCHEMES.join(', ')}`);
    }
    const dup = this.schemes.find((x, i) => this.schemes.indexOf(x) !== i);
    if (dup) throw new Error(`${this.node.path}: schemes: '${dup}' is listed twice; list each scheme once`);

    this.declareParityDeviations(TRAINING_OPERATOR_PARITY_DEVIATIONS);
    this.addNamespace();
    const all = TRAINING_OPERATOR_SCHEMES.length === this.schemes.length;
    const crds = this.schemes.map((sc) => this.addCrd(crdOf(sc)));

    this.controller = new Controller(this, 'Operator', {
      name: NAME,
      // Upstream's container name: kubectl logs -c and users' patches refer to it.
      containerName: NAME,
      image: this.image('controller'),
      command: ['/manager'],
      args: [
        '--health-probe-bind-address=:8081',
        '--leader-elect',
        '--webhook-server-port=9443',
        `--webhook-service-name=${NAME}`,
        `--webhook-secret-name=${TRAINING_OPERATOR_WEBHOOK_SECRET}`,
        // All schemes are the default; a subset is passed explicitly.
        ...(all ? [] : this.schemes.map((sc) => `--enable-scheme=${sc}`)),
      ],
      env: [{ name: 'MY_POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, { name: 'MY_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      selectorLabels: SELECTOR,
      ports: { health: 8081, webhook: 9443 },
      metrics: ControllerMetrics.insecure(8080, 'release-1.9 serves plain HTTP metrics only (no authentication or TLS flags), scraped through prometheus.io annotations', {
        args: ['--metrics-bind-address=:8080'],
        // Upstream puts the metrics port on the webhook Service (training-operator); here it
        // has its own Service.
        serviceName: `${NAME}-metrics`,
        portName: 'monitoring-port',
        serviceAnnotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics', 'prometheus.io/port': '8080' },
      }),
      replicas: props.replicas,
      leaderElectionId: '1ca428e5.training-operator.kubeflow.org',
      resources: props.resources,
      owns: crds.map((c) => c.definition),
      rules: OPERATOR_RULES,
      grants: TRAINING_OPERATOR_RUNTIME_ROLES,
      watches: [
        { group: '', resource: 'pods' },
        { group: '', resource: 'services' },
        { group: '', resource: 'secrets' },
      ],
      podAnnotations: { 'sidecar.istio.io/inject': 'false' },
      terminationGracePeriodSeconds: 10,
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: NAME,
      secretName: TRAINING_OPERATOR_WEBHOOK_SECRET,
      certificateName: 'training-operator-serving-cert',
      // The operator's cert-controller rotates the certificate; upstream supports nothing else.
      selfManaged: { required: true },
    });
    // MPIJob has no webhook in release-1.9.
    for (const sc of this.schemes.filter((x) => x !== 'mpijob')) {
      this.webhookServer.addValidatingWebhook('validator.training-operator.kubeflow.org', {
        name: `validator.${sc}.training-operator.kubeflow.org`,
        path: `/validate-kubeflow-org-v1-${sc}`,
        rules: [{ apiGroups: [KUBEFLOW_GROUP], apiVersions: ['v1'], resources: [`${sc}s`], operations: ['CREATE', 'UPDATE'] }],
      });
    }

    if (props.userRoles ?? true) this.addUserRoles();
  }

  private addUserRoles(): void {
    const plurals = this.schemes.map((sc) => `${sc}s`);
    const status = Rbac.verbs(KUBEFLOW_GROUP, plurals.map((p) => `${p}/status`), ['get']);
    const label = (k: string) => `rbac.authorization.kubeflow.org/aggregate-to-${k}`;
    roleObject(this, 'AdminRole', {
      name: 'kubeflow-training-admin',
      labels: { [label('kubeflow-admin')]: 'true' },
      rules: [],
      aggregateFrom: [{ [label('kubeflow-training-admin')]: 'true' }],
    });
    roleObject(this, 'EditRole', {
      name: 'kubeflow-training-edit',
      labels: { [label('kubeflow-edit')]: 'true', [label('kubeflow-training-admin')]: 'true' },
      rules: [
        Rbac.manage(KUBEFLOW_GROUP, ...plurals),
        status,
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'delete', 'get', 'list', 'watch']),
        Rbac.read('', 'events'),
      ],
    });
    roleObject(this, 'ViewRole', {
      name: 'kubeflow-training-view',
      labels: { [label('kubeflow-view')]: 'true' },
      rules: [Rbac.read(KUBEFLOW_GROUP, ...plurals), status],
    });
  }
}

function crdOf(scheme: TrainingOperatorScheme): CrdDefinition {
  return CRDS.find((d) => d.plural === `${scheme}s`)!;
}
