import { JsonPatch } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS, TRAINER_GROUP } from './crds';
import { TRAINER_PARITY_DEVIATIONS } from './parity';
import { TRAINER_MANAGER_RULES, TRAINER_OWN_KIND_RULES, TRAINER_USER_ROLES, VIEW_CLUSTER_RUNTIMES_RULES } from './rbac';
import { DEFAULT_CLUSTER_TRAINING_RUNTIMES, DEFAULT_TRAINING_RUNTIME_NAMES, DefaultTrainingRuntimeName, FRAMEWORK_LABEL } from './runtimes';
import { TRAINER_IMAGES, TRAINER_KUBERNETES, TRAINER_VERSION } from './versions';
import { ClusterTrainingRuntime } from '../../imports/trainer.kubeflow.org';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { bindingObject, roleObject } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { WebhookServer } from '../../lib/webhook-server';
import { JobSet } from '../jobset/jobset';

export interface TrainerProps extends ComponentProps {
  /** Replicas of the controller manager (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** @default the Controller's defaults (upstream sets none) */
  readonly resources?: ControllerResources;
  /**
   * Default ClusterTrainingRuntimes to install, by name; `false` for none.
   * @default all of DEFAULT_TRAINING_RUNTIME_NAMES
   */
  readonly runtimes?: readonly DefaultTrainingRuntimeName[] | false;
  /**
   * Kubeflow's aggregated user roles (kubeflow-trainer-admin/edit/view) and read access to
   * ClusterTrainingRuntimes for every authenticated user. @default true
   */
  readonly userRoles?: boolean;
}

const NAME = 'kubeflow-trainer-controller-manager';
/** Upstream's full selector (v2.3.0 manifests), so a Deployment installed from them can be taken over (selectors are immutable). */
const SELECTOR = { 'app.kubernetes.io/name': 'trainer', 'app.kubernetes.io/component': 'manager', 'app.kubernetes.io/part-of': 'kubeflow' };
const CONFIG_FILE = 'controller_manager_config.yaml';
/** The Service in front of the manager: webhooks and the TrainJob status server. */
export const TRAINER_SERVICE = NAME;
export const TRAINER_WEBHOOK_SECRET = 'kubeflow-trainer-webhook-cert';
/** Port of the TrainJob status server (training pods report progress to it). */
export const STATUS_SERVER_PORT = 10443;

/**
 * Kubeflow Trainer v2.3.0: TrainJob, TrainingRuntime and ClusterTrainingRuntime, the
 * controller manager with its Configuration, its defaulting and validating webhooks
 * (served with a certificate the manager rotates itself unless the platform's provider
 * gives one), the TrainJob status server, user roles, the public version ConfigMap and
 * the default ClusterTrainingRuntimes. TrainJobs run as JobSets: the platform needs the
 * JobSet component. PodGroups (scheduler-plugins or Volcano) are created only for runtimes
 * that set podGroupPolicy, so those schedulers are not required (the RBAC is granted, as
 * upstream does); the data-cache overlay (LeaderWorkerSet) is not modelled.
 */
export class Trainer extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return TRAINER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = TRAINER_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  /** The default runtimes installed, by name. */
  public readonly runtimes: readonly DefaultTrainingRuntimeName[];

  constructor(scope: Platform, id: string, props: TrainerProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow-system', props);
    this.requireKubernetes(TRAINER_KUBERNETES);
    this.declareParityDeviations(TRAINER_PARITY_DEVIATIONS);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one manager active)`);
    }
    this.runtimes = props.runtimes === false ? [] : [...(props.runtimes ?? DEFAULT_TRAINING_RUNTIME_NAMES)];
    for (const name of this.runtimes) {
      if (!DEFAULT_TRAINING_RUNTIME_NAMES.includes(name)) {
        throw new Error(`${this.node.path}: runtimes: unknown runtime '${name}'; choose from ${DEFAULT_TRAINING_RUNTIME_NAMES.join(', ')}, or pass false for none`);
      }
    }
    const dup = this.runtimes.find((n, i) => this.runtimes.indexOf(n) !== i);
    if (dup) throw new Error(`${this.node.path}: runtimes: '${dup}' is listed twice; list each runtime once`);

    this.require({ group: 'jobset.x-k8s.io', version: 'v1alpha2', kind: 'JobSet', reason: 'every TrainJob runs as a JobSet', providedBy: JobSet });
    this.addNamespace({ 'app.kubernetes.io/part-of': 'kubeflow' });
    for (const d of CRDS) this.addCrd(d);

    this.controller = new Controller(this, 'ControllerManager', {
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      name: NAME,
      image: this.image('controller'),
      args: [`--config=/${CONFIG_FILE}`, '--zap-log-level=2'],
      selectorLabels: SELECTOR,
      labels: { 'app.kubernetes.io/part-of': 'kubeflow' },
      ports: { health: 8081, webhook: 9443 },
      // Secure metrics (Configuration metrics.secureServing). Upstream serves them on the
      // webhook Service (port monitoring-port); here they get their own Service, since the
      // webhook Service is the WebhookServer's.
      metrics: ControllerMetrics.secure(8443, { serviceName: `${NAME}-metrics`, portName: 'metrics' }),
      replicas: props.replicas,
      leaderElectionId: 'trainer.kubeflow.org',
      resources: props.resources,
      // Not `owns`: the manager never creates or deletes TrainJobs or runtimes (users do) and
      // writes no runtime status; it updates them, adds finalizers and writes TrainJob status.
      rules: [...TRAINER_OWN_KIND_RULES, ...TRAINER_MANAGER_RULES],
      watches: [
        { group: 'jobset.x-k8s.io', resource: 'jobsets' },
        { group: 'node.k8s.io', resource: 'runtimeclasses' },
        { group: '', resource: 'limitranges' },
        { group: '', resource: 'configmaps' },
        { group: '', resource: 'secrets' },
      ],
      volumes: [{ name: 'manager-config', configMap: { name: 'kubeflow-trainer-config' } }],
      volumeMounts: [{ name: 'manager-config', mountPath: `/${CONFIG_FILE}`, subPath: CONFIG_FILE, readOnly: true }],
    });
    // The TrainJob status server: a container port of the manager, exposed on the same
    // Service as the webhooks (training pods reach it by that Service's name).
    this.controller.deployment.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/0/ports/-', { name: 'status-server', containerPort: STATUS_SERVER_PORT, protocol: 'TCP' }));

    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: TRAINER_SERVICE,
      secretName: TRAINER_WEBHOOK_SECRET,
      certificateName: 'kubeflow-trainer-serving-cert',
      // The manager rotates its own certificate (certManagement.enable) unless the platform
      // gives one.
      selfManaged: {},
      // Where the platform isolates the namespace (kubeflow/manifests' trainer-webhook policy).
      isolationPolicy: { name: 'trainer-webhook' },
    });
    this.webhookServer.service.addJsonPatch(JsonPatch.add('/spec/ports/-', { name: 'status-server', port: STATUS_SERVER_PORT, targetPort: k8s.IntOrString.fromString('status-server'), protocol: 'TCP' }));
    this.addWebhooks();

    new k8s.KubeConfigMap(this, 'ManagerConfig', {
      metadata: { name: 'kubeflow-trainer-config', namespace: this.namespaceName },
      data: { [CONFIG_FILE]: stringify(this.configuration(this.webhookServer.selfManaged), { lineWidth: 0 }) },
    });
    this.addPublicConfigMap();
    if (props.userRoles ?? true) this.addUserRoles();

    for (const name of this.runtimes) {
      const rt = DEFAULT_CLUSTER_TRAINING_RUNTIMES.find((r) => r.name === name)!;
      new ClusterTrainingRuntime(this, `Runtime-${rt.name}`, {
        metadata: { name: rt.name, labels: { [FRAMEWORK_LABEL]: rt.framework, ...(rt.labels ?? {}) } },
        spec: rt.spec(this.image(rt.imageKey)),
      });
    }
  }

  /** The manager's Configuration (config.trainer.kubeflow.org/v1alpha1), upstream's values. */
  private configuration(selfManagedCert: boolean): Record<string, unknown> {
    return {
      apiVersion: 'config.trainer.kubeflow.org/v1alpha1',
      kind: 'Configuration',
      health: { healthProbeBindAddress: ':8081', readinessEndpointName: 'readyz', livenessEndpointName: 'healthz' },
      metrics: { bindAddress: ':8443', secureServing: true },
      webhook: { port: 9443 },
      leaderElection: { leaderElect: true, resourceName: 'trainer.kubeflow.org', leaseDuration: '15s', renewDeadline: '10s', retryPeriod: '2s' },
      controller: {
        groupKindConcurrency: {
          'TrainJob.trainer.kubeflow.org': 5,
          'TrainingRuntime.trainer.kubeflow.org': 1,
          'ClusterTrainingRuntime.trainer.kubeflow.org': 1,
        },
      },
      certManagement: { enable: selfManagedCert, webhookServiceName: TRAINER_SERVICE, webhookSecretName: TRAINER_WEBHOOK_SECRET },
      clientConnection: { qps: 50, burst: 100 },
      // v2.3.0's Configuration field is statusServer (pkg/apis/config/v1alpha1); the manager
      // decodes this file strictly (pkg/config/config.go), so any other name stops it at start.
      statusServer: { port: STATUS_SERVER_PORT, qps: 5, burst: 10 },
    };
  }

  private addWebhooks(): void {
    const w = this.webhookServer;
    const rule = (resource: string) => [{ apiGroups: [TRAINER_GROUP], apiVersions: ['v1alpha1'], resources: [resource], operations: ['CREATE' as const, 'UPDATE' as const] }];
    // Runtimes labelled trainer.kubeflow.org/webhook-validation=disabled skip validation.
    const validated = { matchExpressions: [{ key: 'trainer.kubeflow.org/webhook-validation', operator: 'NotIn' as const, values: ['disabled'] }] };
    w.addMutatingWebhook('defaulter.trainer.kubeflow.org', {
      name: 'defaulter.trainjob.trainer.kubeflow.org',
      path: '/mutate-trainer-kubeflow-org-v1alpha1-trainjob',
      rules: rule('trainjobs'),
    });
    w.addValidatingWebhook('validator.trainer.kubeflow.org', {
      name: 'validator.clustertrainingruntime.trainer.kubeflow.org',
      path: '/validate-trainer-kubeflow-org-v1alpha1-clustertrainingruntime',
      rules: rule('clustertrainingruntimes'),
      objectSelector: validated,
    });
    w.addValidatingWebhook('validator.trainer.kubeflow.org', {
      name: 'validator.trainingruntime.trainer.kubeflow.org',
      path: '/validate-trainer-kubeflow-org-v1alpha1-trainingruntime',
      rules: rule('trainingruntimes'),
      objectSelector: validated,
    });
    w.addValidatingWebhook('validator.trainer.kubeflow.org', {
      name: 'validator.trainjob.trainer.kubeflow.org',
      path: '/validate-trainer-kubeflow-org-v1alpha1-trainjob',
      rules: rule('trainjobs'),
    });
  }

  /** kubeflow-trainer-public: the installed version, readable by every authenticated user. */
  private addPublicConfigMap(): void {
    const ns = this.namespaceName;
    const name = 'kubeflow-trainer-public';
    new k8s.KubeConfigMap(this, 'PublicConfigMap', { metadata: { name, namespace: ns }, data: { kubeflow_trainer_version: TRAINER_VERSION } });
    roleObject(this, 'PublicRole', { name, namespace: ns, rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [name], verbs: ['get', 'list', 'watch'] }] });
    bindingObject(this, 'PublicRoleBinding', { name, namespace: ns, roleRef: { kind: 'Role', name }, serviceAccounts: [], groups: ['system:authenticated'] });
  }

  private addUserRoles(): void {
    for (const r of TRAINER_USER_ROLES) {
      roleObject(this, `UserRole-${r.name}`, { name: r.name, labels: r.labels, rules: r.rules, aggregateFrom: r.aggregateFrom ? [{ [r.aggregateFrom]: 'true' }] : undefined });
    }
    const name = 'kubeflow-trainer-view-cluster-runtimes';
    roleObject(this, 'ViewClusterRuntimes', { name, rules: VIEW_CLUSTER_RUNTIMES_RULES });
    bindingObject(this, 'ViewClusterRuntimesBinding', { name, roleRef: { kind: 'ClusterRole', name }, serviceAccounts: [], groups: ['system:authenticated'] });
  }
}
