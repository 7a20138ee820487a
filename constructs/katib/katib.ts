import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { CRDS, KATIB_GROUP } from './crds';
import { KatibDbManager } from './db-manager';
import { KATIB_DEFAULT_TRIAL_KINDS, katibConfigYaml, KatibTrialKind, trialKindGvk } from './katib-config';
import { KATIB_MYSQL_DATABASE, KATIB_MYSQL_SERVICE, KatibMySql } from './mysql';
import { katibParityDeviations } from './parity';
import { katibLabels } from './pod';
import { KatibUi } from './ui';
import { KATIB_IMAGES, KATIB_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { DatabaseEngine, ExternalDatabase, externalDatabaseProblems, referenceExternalDatabaseSecrets, referenceIncludedDatabaseSecret, SecretKeyRef, secretKeyRefProblems } from '../../lib/database';
import { ImageSpec } from '../../lib/images';
import { INGRESS_GATEWAY_NAMESPACE, NetworkPeer, NetworkPolicy } from '../../lib/network-policy';
import { isolationPolicyDeviations } from '../../lib/parity-items';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, ResourceRef, roleObject, RuntimeRole } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';
import { PROFILE_NAMESPACE_LABEL } from '../profile-controller/namespace-labels';
import { Trainer } from '../trainer/trainer';
import { TrainingOperator } from '../training-operator/training-operator';

/**
 * What the suggestion controller creates at v0.19.0 for a Suggestion with early stopping
 * whose Deployment runs as `<suggestion>-<algorithm>` (suggestion_controller.go, composer.go
 * DesiredRBAC): a Role of that name granting every verb on trials and their status, and its
 * RoleBinding. The API server lets it grant `*` only if it holds `*` itself.
 */
export const KATIB_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: '<suggestion>-<algorithm>',
    createdFor: 'per Suggestion with early stopping, for its suggestion service (composer.go DesiredRBAC)',
    rules: [Rbac.verbs(KATIB_GROUP, ['trials', 'trials/status'], ['*'])],
  },
  {
    kind: 'RoleBinding',
    name: '<suggestion>-<algorithm>',
    createdFor: 'per Suggestion with early stopping, binding its ServiceAccount of the same name (composer.go DesiredRBAC)',
    roleRef: { kind: 'Role', name: '<suggestion>-<algorithm>' },
  },
];

/** The MySQL server Katib includes by default. */
export interface KatibMySqlOptions {
  /**
   * The Secret key holding MySQL's root password, in Katib's namespace. `mlplatform apply`
   * generates it when the Secret is missing (one that exists is kept): no password is ever emitted.
   * @default { name: 'katib-mysql-secrets', key: 'MYSQL_ROOT_PASSWORD' } (upstream's Secret and key)
   */
  readonly rootPasswordSecret?: SecretKeyRef;
  /** Size of the data volume. @default 10Gi */
  readonly storage?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

export interface KatibProps extends ComponentProps {
  /**
   * The kinds trials may run as (KatibConfig trialResources). Each kind other than batch
   * Job must be served in the platform: training-operator's by the TrainingOperator
   * component, TrainJob by the Trainer component (or by prerequisites).
   * @default upstream's six: TrainJob, Job, TFJob, PyTorchJob, MPIJob, XGBoostJob
   */
  readonly trialKinds?: readonly KatibTrialKind[];
  /** The included MySQL's settings. Not allowed with externalDatabase. @default the included MySQL with its defaults */
  readonly mysql?: KatibMySqlOptions;
  /** An external MySQL or PostgreSQL server instead of the included MySQL. @default - the included MySQL */
  readonly externalDatabase?: ExternalDatabase;
  /** Leader election (upstream's katib-leader-election install). Required for controllerReplicas > 1. @default false */
  readonly leaderElection?: boolean;
  /** @default 1 */
  readonly controllerReplicas?: number;
  /** @default the Controller's defaults (upstream sets none) */
  readonly resources?: ControllerResources;
  /** The web UI (katib-ui). @default true */
  readonly ui?: boolean;
  /**
   * Serve the UI under /katib/ through this Istio gateway (namespace/name), as
   * kubeflow/manifests' katib-with-kubeflow install (VirtualService, AuthorizationPolicy
   * admitting only the ingress gateway, a sidecar, per-user authorization in the UI). Only a
   * routed UI is linked from the central dashboard.
   * @default none (katib-standalone: the UI is not routed)
   */
  readonly uiGateway?: string;
  /** Kubeflow's aggregated user roles (kubeflow-katib-admin/edit/view). @default true */
  readonly userRoles?: boolean;
}

const NAME = 'katib-controller';
export const KATIB_WEBHOOK_SECRET = 'katib-webhook-cert';
export const KATIB_WEBHOOK_CONFIGURATION = 'katib.kubeflow.org';
/** Namespaces with this label get the metrics-collector sidecar injected into trial pods. */
export const KATIB_METRICS_COLLECTOR_INJECTION_LABEL = 'katib.kubeflow.org/metrics-collector-injection';
const WEBHOOK_PORT = 8443;
const METRICS_PORT = 8080;
const HEALTH_PORT = 18080;
/** KatibConfig's default leaderElectionID (unconfirmed at v0.19.0). */
const LEADER_ELECTION_ID = '3fbc96e9.katib.kubeflow.org';

/**
 * What the controller needs besides its own kinds and the trial kinds (upstream's
 * katib-controller ClusterRole). Upstream's patch/update on Secrets and on webhook
 * configurations serve the certificate generator: the WebhookServer grants those scoped
 * by name when the generator is used.
 */
const CONTROLLER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['services'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch', 'update']),
  Rbac.verbs('', ['serviceaccounts', 'persistentvolumes', 'persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
  Rbac.read('', 'namespaces', 'configmaps', 'secrets'),
  Rbac.verbs('', ['pods', 'pods/status'], ['get']),
  // The suggestion services.
  Rbac.verbs('apps', ['deployments'], ['create', 'delete', 'get', 'list', 'watch']),
  // PBT's and ENAS's suggestion services get a Role and RoleBinding.
  Rbac.verbs('rbac.authorization.k8s.io', ['roles', 'rolebindings'], ['create', 'get', 'list', 'watch']),
  Rbac.verbs('batch', ['jobs', 'cronjobs'], ['create', 'delete', 'get', 'list', 'watch']),
];

/**
 * Katib v0.19.0 (AutoML: hyperparameter tuning, early stopping, neural architecture
 * search): Experiment, Suggestion and Trial (kubeflow.org/v1beta1), the controller with
 * its validating and mutating webhooks (its built-in certificate generator when the
 * platform's provider is self-managed, else cert-manager or OpenShift's service CA as
 * upstream's install variants), katib-db-manager over the included MySQL or an external
 * MySQL/PostgreSQL, the UI, and Kubeflow's user roles.
 */
export class Katib extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return KATIB_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = KATIB_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly dbManager: KatibDbManager;
  public readonly mysql?: KatibMySql;
  public readonly ui?: KatibUi;
  /** The trial kinds enabled. */
  public readonly trialKinds: readonly KatibTrialKind[];

  constructor(scope: Platform, id: string, props: KatibProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    this.trialKinds = [...(props.trialKinds ?? KATIB_DEFAULT_TRIAL_KINDS)];
    this.validate(props);
    const leaderElection = props.leaderElection ?? false;

    if (props.uiGateway !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(props.uiGateway)) {
      throw new Error(`${this.node.path}: uiGateway '${props.uiGateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    }
    if (props.uiGateway !== undefined && props.ui === false) throw new Error(`${this.node.path}: uiGateway '${props.uiGateway}' routes the UI, but ui is false; drop uiGateway or turn the UI on`);
    if ((props.ui ?? true) && props.uiGateway) {
      // Katib's UI (served under /katib/) in the central dashboard: only when it is routed.
      this.addDashboardLinks({
        menu: [{ text: 'Experiments (AutoML)', link: '/katib/', icon: 'kubeflow:katib' }],
        documentation: [{ desc: 'Documentation for Katib, hyperparameter tuning and neural architecture search', link: 'https://www.kubeflow.org/docs/components/katib/', text: 'Katib Documentation' }],
      });
    }
    this.addNamespace();
    const crds = CRDS.map((d) => this.addCrd(d));

    // Trial kinds: created by trials at run time, so they set no apply order.
    const trialRules: PolicyRule[] = [];
    const watches: ResourceRef[] = [{ group: 'apps', resource: 'deployments' }, { group: '', resource: 'services' }];
    for (const k of this.trialKinds) {
      const g = trialKindGvk(k);
      trialRules.push(Rbac.verbs(g.group, [g.plural], ['create', 'delete', 'get', 'list', 'watch']));
      watches.push({ group: g.group, resource: g.plural });
      if (k === KatibTrialKind.JOB) continue;
      this.require({
        group: g.group,
        version: g.version,
        kind: g.kind,
        reason: `Katib trials run as ${g.kind}s (trialKinds)`,
        providedBy: k === KatibTrialKind.TRAINJOB ? Trainer : TrainingOperator,
        runtimeOnly: true,
      });
    }
    if (this.trialKinds.includes(KatibTrialKind.TRAINJOB)) {
      // A TrainJob trial's status is read from the JobSet it runs as.
      trialRules.push(Rbac.read('jobset.x-k8s.io', 'jobsets'));
    }

    this.controller = new Controller(this, 'Controller', {
      name: NAME,
      image: this.image('controller'),
      command: ['./katib-controller'],
      args: ['--katib-config=/katib-config.yaml'],
      env: [{ name: 'KATIB_CORE_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
      selectorLabels: katibLabels('controller'),
      ports: { health: HEALTH_PORT, webhook: WEBHOOK_PORT },
      metrics: ControllerMetrics.insecure(METRICS_PORT, 'v0.19.0 serves plain HTTP metrics only (KatibConfig metricsAddr; no authentication or TLS option)', {
        // Upstream serves metrics through the katib-controller Service with the webhook; here it has its own.
        serviceName: `${NAME}-metrics`,
      }),
      replicas: props.controllerReplicas,
      leaderElectionId: leaderElection ? LEADER_ELECTION_ID : undefined,
      resources: props.resources,
      owns: crds.map((c) => c.definition),
      rules: [...CONTROLLER_RULES, ...trialRules],
      grants: KATIB_RUNTIME_ROLES,
      securityExceptions: [{ check: 'wildcardRbac', reason: "it creates a Role per Suggestion with early stopping granting '*' on trials and trials/status (v0.19.0 composer.go), which the API server lets it grant only if it holds '*' on them" }],
      watches,
      podAnnotations: { 'sidecar.istio.io/inject': 'false' },
      // The image's user is not numeric: upstream sets uid 1000 so that runAsNonRoot can be verified.
      runAsUser: 1000,
      volumes: [{ name: 'katib-config', configMap: { name: 'katib-config' } }],
      volumeMounts: [{ name: 'katib-config', mountPath: '/katib-config.yaml', subPath: 'katib-config.yaml', readOnly: true }],
    });

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: NAME,
      secretName: KATIB_WEBHOOK_SECRET,
      certificateName: KATIB_WEBHOOK_SECRET,
      certDir: '/tmp/cert',
      // KatibConfig init.certGenerator: the controller writes the Secret and patches caBundle.
      selfManaged: {},
      isolationPolicy: { name: 'katib-controller' },
    });
    const experiments = [{ apiGroups: [KATIB_GROUP], apiVersions: ['v1beta1'], resources: ['experiments'], operations: ['CREATE' as const, 'UPDATE' as const] }];
    this.webhookServer.addValidatingWebhook(KATIB_WEBHOOK_CONFIGURATION, { name: 'validator.experiment.katib.kubeflow.org', path: '/validate-experiment', rules: experiments });
    this.webhookServer.addMutatingWebhook(KATIB_WEBHOOK_CONFIGURATION, { name: 'defaulter.experiment.katib.kubeflow.org', path: '/mutate-experiment', rules: experiments });
    this.requireTenantNamespaceLabel({
      key: KATIB_METRICS_COLLECTOR_INJECTION_LABEL,
      value: 'enabled',
      reason: 'Katib injects the metrics collector into trial pods (webhook mutator.pod.katib.kubeflow.org) only in namespaces with it',
    });
    this.webhookServer.addMutatingWebhook(KATIB_WEBHOOK_CONFIGURATION, {
      name: 'mutator.pod.katib.kubeflow.org',
      path: '/mutate-pod',
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      namespaceSelector: { matchLabels: { [KATIB_METRICS_COLLECTOR_INJECTION_LABEL]: 'enabled' } },
      // Pods the controller itself creates are not trial pods.
      matchConditions: [{ name: 'exclude-katib-controller', expression: `request.userInfo.username != "system:serviceaccount:${this.namespaceName}:${NAME}"` }],
    });

    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: 'katib-config', namespace: this.namespaceName },
      data: {
        'katib-config.yaml': katibConfigYaml({
          trialKinds: this.trialKinds,
          certGenerator: this.webhookServer.selfManaged,
          webhookServiceName: NAME,
          webhookSecretName: KATIB_WEBHOOK_SECRET,
          webhookPort: WEBHOOK_PORT,
          metricsPort: METRICS_PORT,
          healthPort: HEALTH_PORT,
          leaderElection,
          leaderElectionId: LEADER_ELECTION_ID,
          image: (key) => this.image(key),
        }),
      },
    });

    let database: ExternalDatabase;
    if (props.externalDatabase) {
      database = props.externalDatabase;
      referenceExternalDatabaseSecrets(this, database, 'Katib\'s database');
    } else {
      const rootPassword = props.mysql?.rootPasswordSecret ?? { name: 'katib-mysql-secrets', key: 'MYSQL_ROOT_PASSWORD' };
      this.mysql = new KatibMySql(this, 'MySql', {
        namespace: this.namespaceName,
        image: this.image('mysql'),
        rootPassword,
        storage: props.mysql?.storage ?? '10Gi',
        storageClassName: props.mysql?.storageClassName,
      });
      database = { engine: DatabaseEngine.MYSQL, host: KATIB_MYSQL_SERVICE, database: KATIB_MYSQL_DATABASE, user: 'root', passwordSecret: rootPassword };
      referenceIncludedDatabaseSecret(this, rootPassword, 'Katib\'s MySQL');
    }
    this.dbManager = new KatibDbManager(this, 'DbManager', { namespace: this.namespaceName, image: this.image('dbManager'), database, replicas: 1 });
    if (props.ui ?? true) {
      if (props.uiGateway) {
        this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the UI is routed through the Istio gateway (uiGateway)' });
        this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the UI admits only the Istio ingress gateway (uiGateway)' });
      }
      this.ui = new KatibUi(this, 'Ui', { namespace: this.namespaceName, image: this.image('ui'), replicas: 1, gateway: props.uiGateway });
    }
    this.addIsolationPolicies();
    if (props.userRoles ?? true) this.addUserRoles();
    this.declareParityDeviations(katibParityDeviations({
      trialKinds: this.trialKinds,
      selfManagedCertificate: this.webhookServer.selfManaged,
      mysql: database.engine === DatabaseEngine.MYSQL,
      ui: !!this.ui,
      routedUi: !!this.ui && !!props.uiGateway,
    }));
  }

  /**
   * What reaches Katib's pods where the platform isolates its namespace (as kubeflow/manifests'
   * common/networkpolicies): trials in tenant namespaces the DB manager (their metrics
   * collectors report there), the gateway the UI; the API server the webhooks (the
   * WebhookServer's katib-controller policy).
   */
  private addIsolationPolicies(): void {
    new NetworkPolicy(this, 'DbManagerIngress', {
      name: 'katib-db-manager',
      targets: [{ name: 'katib-db-manager', selectorLabels: katibLabels('db-manager') }],
      namespaceIsolation: true,
      ingress: [{ from: [NetworkPeer.namespacesLabelled(PROFILE_NAMESPACE_LABEL), NetworkPeer.podsInOwnNamespace()] }],
    });
    if (this.ui) {
      new NetworkPolicy(this, 'UiIngress', {
        name: 'katib-ui',
        targets: [{ name: 'katib-ui', selectorLabels: katibLabels('ui') }],
        namespaceIsolation: true,
        ingress: [{ from: [NetworkPeer.namespace(INGRESS_GATEWAY_NAMESPACE)] }],
      });
    }
    this.declareParityDeviations(isolationPolicyDeviations(['katib-controller', 'katib-db-manager', ...(this.ui ? ['katib-ui'] : [])]));
  }

  private validate(props: KatibProps): void {
    const where = this.node.path;
    const all = Object.values(KatibTrialKind);
    if (!this.trialKinds.length) throw new Error(`${where}: trialKinds is empty; enable at least one of ${all.join(', ')}`);
    for (const k of this.trialKinds) {
      if (!all.includes(k)) throw new Error(`${where}: trialKinds: unknown kind '${k}'; choose from ${all.join(', ')}`);
    }
    const dup = this.trialKinds.find((x, i) => this.trialKinds.indexOf(x) !== i);
    if (dup) throw new Error(`${where}: trialKinds: '${dup}' is listed twice; list each kind once`);
    if (props.externalDatabase && props.mysql) {
      throw new Error(`${where}: both mysql and externalDatabase are set; set mysql to configure the included MySQL, or externalDatabase to use your own server, not both`);
    }
    const problems = props.externalDatabase
      ? externalDatabaseProblems('externalDatabase', props.externalDatabase)
      : props.mysql?.rootPasswordSecret ? secretKeyRefProblems('mysql.rootPasswordSecret', props.mysql.rootPasswordSecret) : [];
    if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
    if (props.mysql?.storage !== undefined && !/^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.test(props.mysql.storage)) {
      throw new Error(`${where}: mysql.storage '${props.mysql.storage}' is not a quantity; give a size such as 10Gi`);
    }
    if (props.controllerReplicas !== undefined && (!Number.isInteger(props.controllerReplicas) || props.controllerReplicas < 1)) {
      throw new Error(`${where}: controllerReplicas ${props.controllerReplicas} is not allowed; set a whole number >= 1`);
    }
    if ((props.controllerReplicas ?? 1) > 1 && !props.leaderElection) {
      throw new Error(`${where}: controllerReplicas ${props.controllerReplicas} needs leaderElection: true (otherwise several controllers reconcile at once)`);
    }
  }

  private addUserRoles(): void {
    const label = (k: string) => `rbac.authorization.kubeflow.org/aggregate-to-${k}`;
    const kinds = ['experiments', 'trials', 'suggestions'];
    roleObject(this, 'AdminRole', {
      name: 'kubeflow-katib-admin',
      labels: { [label('kubeflow-admin')]: 'true' },
      rules: [],
      aggregateFrom: [{ [label('kubeflow-katib-admin')]: 'true' }],
    });
    roleObject(this, 'EditRole', {
      name: 'kubeflow-katib-edit',
      labels: { [label('kubeflow-edit')]: 'true', [label('kubeflow-katib-admin')]: 'true' },
      rules: [
        Rbac.verbs(KATIB_GROUP, kinds, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('', ['pods'], ['list']),
        Rbac.verbs('', ['pods/log'], ['get']),
      ],
    });
    roleObject(this, 'ViewRole', {
      name: 'kubeflow-katib-view',
      labels: { [label('kubeflow-view')]: 'true' },
      rules: [Rbac.read(KATIB_GROUP, ...kinds)],
    });
  }
}
