import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { BUNDLED_CRDS, CRDS, DSPA_GROUP, dspaCrd } from './crds';
import { DSPO_PARITY_DEVIATIONS } from './parity';
import { DSPO_RUNTIME_ROLES } from './runtime-roles';
import { DSPO_IMAGES, DSPO_VERSION, DspoImageKey } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { MANAGE_VERBS, PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { WebhookRule } from '../../lib/webhook-server';
import { addArgoUserRoles, ArgoWorkflows } from '../argo-workflows/argo-workflows';
import { KUBEFLOW_GROUP, PIPELINES_GROUP } from '../kubeflow-pipelines/crds';

export interface DataSciencePipelinesOperatorProps extends ComponentProps {
  /** @default 1 (leader election keeps one active) */
  readonly replicas?: number;
  /** @default requests 200m/400Mi, limits 1 CPU/4Gi (upstream's) */
  readonly resources?: ControllerResources;
  /** MaxConcurrentReconciles of the manager. @default 10 */
  readonly maxConcurrentReconciles?: number;
  /** @default info */
  readonly logLevel?: 'debug' | 'info' | 'error';
  /**
   * The argo-aggregate-to-admin/edit/view ClusterRoles upstream ships with DSPO, so that
   * namespace admins, editors and viewers can work with the Argo workflows of their pipelines.
   * @default true, unless an ArgoWorkflows component added to the platform before this one emits them
   */
  readonly argoUserRoles?: boolean;
}

const NAME = 'data-science-pipelines-operator-controller-manager';
const PARAMS = 'data-science-pipelines-operator-dspo-parameters';
const CONFIG = 'data-science-pipelines-operator-dspo-config';
export const DSPO_WEBHOOK_SERVICE = 'ds-pipelines-webhook';
const PIPELINEVERSION_WEBHOOK = 'pipelineversions.pipelines.kubeflow.org';

/**
 * The image keys of config.yaml (Images.*) as v2.18.0 reads them (controllers/config/defaults.go),
 * each from our images table. ApiServer, PersistenceAgent, ScheduledWorkflow, MariaDB and
 * KubeRBACProxy are required: without one the operator exits at start.
 */
const CONFIG_IMAGES: Record<string, DspoImageKey> = {
  ApiServer: 'apiServer',
  PersistenceAgent: 'persistenceAgent',
  ScheduledWorkflow: 'scheduledWorkflow',
  MlmdEnvoy: 'mlmdEnvoy',
  MlmdGRPC: 'mlmdGrpc',
  ArgoExecImage: 'argoExec',
  ArgoWorkflowController: 'argoWorkflowController',
  LauncherImage: 'launcher',
  DriverImage: 'driver',
  KubeRBACProxy: 'kubeRbacProxy',
  MariaDB: 'mariadb',
};

/**
 * What the manager needs besides the roles it creates per DSPA (DSPO_RUNTIME_ROLES, which the
 * Controller adds as grants): deploying each DSPA's stack, its webhook configurations, and
 * the reviews of its API. Left out of upstream's manager-role: grants on kinds that no role
 * it creates carries and no reconciler of v2.18.0 touches (config.openshift.io, mlflow kinds).
 */
const MANAGER_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'secrets', 'serviceaccounts', 'services', 'persistentvolumeclaims'),
  Rbac.verbs('', ['pods', 'pods/log'], ['delete', 'get', 'list', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.manage('apps', 'deployments'),
  Rbac.manage('batch', 'jobs'),
  Rbac.manage('rbac.authorization.k8s.io', 'roles', 'rolebindings'),
  // manifestival (v0.7.2) updates an existing object whose rendered template differs: the
  // webhook ClusterRole and the ClusterRoleBinding it applies need update too.
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterroles', 'clusterrolebindings'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.manage('route.openshift.io', 'routes'),
  Rbac.manage('networking.k8s.io', 'networkpolicies'),
  Rbac.manage('monitoring.coreos.com', 'servicemonitors'),
  Rbac.manage(KUBEFLOW_GROUP, 'scheduledworkflows', 'viewers'),
  Rbac.manage(PIPELINES_GROUP, 'pipelines', 'pipelineversions'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  // It creates the PipelineVersion webhook configurations at run time: create cannot be
  // scoped by name; everything else is scoped to those two objects. Its manager reads them
  // through an informer limited to that name (main.go's cache options, field selector
  // metadata.name), which the API server authorizes as list and watch on that name.
  Rbac.verbs('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['create']),
  { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], resourceNames: [PIPELINEVERSION_WEBHOOK], verbs: ['delete', 'get', 'list', 'patch', 'update', 'watch'] },
];

/**
 * config.yaml of the run-time ConfigMap, with exactly the keys v2.18.0 reads through viper
 * (controllers/config/defaults.go, apiserver.go, workflow_controller.go): its images, the
 * Iris sample pipeline's metadata (read when a DSPA sets apiServer.enableSamplePipeline),
 * and the operator's timeouts and switches at upstream's defaults. Values are literal: no
 * kustomize variables are left to substitute.
 */
function runtimeConfig(image: (key: DspoImageKey) => string): string {
  return stringify({
    Images: Object.fromEntries(Object.entries(CONFIG_IMAGES).map(([k, key]) => [k, image(key)])),
    ManagedPipelinesMetadata: {
      Iris: {
        Name: '[Demo] iris-training',
        Description: 'Sample: trains a classifier on the Iris data set',
        // Shipped in the API server image.
        Filepath: '/samples/iris-pipeline-compiled.yaml',
        VersionName: '[Demo] iris-training',
      },
    },
    DSPO: {
      // A JSON string the operator parses (workflow_controller.go).
      ArgoWorkflowsControllers: JSON.stringify({ managementState: 'Managed' }),
      ApiServer: { IncludeOwnerReference: true },
      HealthCheck: { Database: { ConnectionTimeout: '15s' }, ObjectStore: { ConnectionTimeout: '15s' } },
      RequeueTime: '20s',
      PlatformVersion: 'v0.0.0',
      FIPSEnabled: false,
    },
  });
}

const isArgoWorkflows = (c: Component): c is ArgoWorkflows => c instanceof ArgoWorkflows;

/**
 * Data Science Pipelines Operator (Open Data Hub): the DataSciencePipelinesApplication CRD
 * and the operator that deploys a Kubeflow Pipelines stack per DSPA; the Pipeline,
 * PipelineVersion and ScheduledWorkflow CRDs it shares with Kubeflow Pipelines and the Argo
 * Workflows and Viewer CRDs it bundles, declared with useCrd and bundledCopy: with Kubeflow Pipelines and Argo in
 * the platform, their owners emit them; alone, it emits its own copies. Its PipelineVersion webhooks are created by the operator at run time, not
 * shipped: declared as runtime webhooks, which the checks and the report account for.
 *
 * Deliberate differences from upstream's install (v2.18.0 config/overlays/odh): the images
 * and settings reach the operator through config.yaml alone, with literal values, instead of
 * also through IMAGES_* and DSPO_* env (several of upstream's env names, e.g.
 * IMAGES_KUBE_RBAC_PROXY, map to no key v2.18.0 reads); its ClusterRole is derived from the
 * roles it creates per DSPA (DSPO_RUNTIME_ROLES) plus what it deploys, so it leaves out
 * upstream's grants no role or reconciler of that tag needs (e.g. deletecollection on
 * workflows, deployments/finalizers, config.openshift.io) and the cluster-wide Argo
 * controller role upstream also binds to it; the cluster-wide Argo controller itself
 * (argo ServiceAccount and roles) belongs to the ArgoWorkflows component, not here.
 */
export class DataSciencePipelinesOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return DSPO_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = DSPO_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: DataSciencePipelinesOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one manager active)`);
    }
    const mcr = props.maxConcurrentReconciles ?? 10;
    if (!Number.isInteger(mcr) || mcr < 1) throw new Error(`${this.node.path}: maxConcurrentReconciles ${mcr} is not allowed; set a whole number >= 1`);
    this.addNamespace();
    const dspa = this.addCrd(dspaCrd);
    // Shared with Kubeflow Pipelines and bundled from Argo: their owners emit them when present.
    for (const def of CRDS.filter((d) => d !== dspaCrd)) this.useCrd(def, { reason: 'the pipeline servers it deploys per DSPA use Kubeflow Pipelines\' kinds; upstream\'s install bundles a copy', bundledCopy: true });
    for (const def of BUNDLED_CRDS) this.useCrd(def, { reason: 'the pipeline stacks it deploys per DSPA use it (Argo Workflows\' kinds, Kubeflow Pipelines\' Viewer); upstream\'s install bundles a copy', bundledCopy: true });

    // The flags' values, as upstream's parameters ConfigMap carries them (the args expand them from env).
    const params: Record<string, string> = { ZAP_LOG_LEVEL: props.logLevel ?? 'info', MAX_CONCURRENT_RECONCILES: String(mcr) };
    new k8s.KubeConfigMap(this, 'Parameters', { metadata: { name: PARAMS, namespace: this.namespaceName }, data: params });
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: CONFIG, namespace: this.namespaceName },
      data: { 'config.yaml': runtimeConfig((key) => this.image(key)) },
    });

    this.controller = new Controller(this, 'ControllerManager', {
      name: NAME,
      image: this.image('operator'),
      command: ['/manager'],
      args: ['--leader-elect', '--zap-log-level=$(ZAP_LOG_LEVEL)', '--MaxConcurrentReconciles=$(MAX_CONCURRENT_RECONCILES)', '--config', '/home/config'],
      env: [
        // Required: the operator exits at start without it.
        { name: 'DSPO_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        ...Object.keys(params).map((k) => ({ name: k, valueFrom: { configMapKeyRef: { name: PARAMS, key: k } } })),
      ],
      selectorLabels: { 'app.kubernetes.io/name': 'data-science-pipelines-operator', 'control-plane': 'controller-manager' },
      ports: { health: 8081 },
      metrics: ControllerMetrics.insecure(8080, 'upstream serves plain-HTTP metrics on :8080 to its ServiceMonitor (data-science-pipelines-operator-service)', {
        serviceName: 'data-science-pipelines-operator-service',
        portName: 'metrics',
      }),
      replicas: props.replicas,
      leaderElectionId: 'f9eb95d5.opendatahub.io',
      resources: props.resources ?? { requests: { cpu: '200m', memory: '400Mi' }, limits: { cpu: '1', memory: '4Gi' } },
      owns: [dspa.definition],
      rules: MANAGER_RULES,
      grants: DSPO_RUNTIME_ROLES,
      securityExceptions: [{
        check: 'wildcardRbac',
        reason: "it creates a pipeline-runner-<dspa> Role per DSPA granting '*' on pods, services, volumes, deployments, replicasets, jobs, seldondeployments and every kubeflow.org kind (v2.18.0's template); the API server lets it grant only what it holds",
      }],
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'services' },
        { group: '', resource: 'secrets' },
        { group: '', resource: 'configmaps' },
        { group: 'argoproj.io', resource: 'workflows' },
      ],
      volumes: [{ name: 'config', configMap: { name: CONFIG } }],
      volumeMounts: [{ name: 'config', mountPath: '/home/config', readOnly: true }],
    });

    // Upstream's ServiceMonitor (config/overlays/odh): Prometheus scrapes the operator's
    // plain-HTTP metrics, which the platform's metrics fence admits from its monitoring
    // namespace. Emitted where the platform serves the kind (the Prometheus Operator).
    this.controller.addServiceMonitor({ name: 'data-science-pipelines-operator-service-monitor', selector: { 'app.kubernetes.io/name': 'data-science-pipelines-operator' } });

    this.declareParityDeviations(DSPO_PARITY_DEVIATIONS);

    const rules: WebhookRule[] = [{ apiGroups: [PIPELINES_GROUP], apiVersions: ['v2beta1'], resources: ['pipelineversions'], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }];
    const when = 'once a DataSciencePipelinesApplication sets spec.apiServer.pipelineStore: kubernetes; removed when none does';
    for (const [type, path] of [['mutating', '/webhooks/mutate-pipelineversion'], ['validating', '/webhooks/validate-pipelineversion']] as const) {
      this.declareRuntimeWebhook({
        type,
        configurationName: PIPELINEVERSION_WEBHOOK,
        name: PIPELINEVERSION_WEBHOOK,
        createdBy: NAME,
        when,
        service: { name: DSPO_WEBHOOK_SERVICE, namespace: this.namespaceName, port: 8443, path },
        rules,
        failurePolicy: 'Fail',
      });
    }

    const argoWithRoles = () => this.platform.components.filter(isArgoWorkflows).filter((a) => a.userRoles);
    const argo = argoWithRoles()[0];
    if (props.argoUserRoles ?? !argo) {
      if (argo) throw new Error(`${this.node.path}: argoUserRoles is true, but component '${argo.componentName}' (ArgoWorkflows) already emits the argo-aggregate-to-admin/edit/view ClusterRoles; leave argoUserRoles unset`);
      addArgoUserRoles(new Construct(this, 'ArgoUserRoles'));
      const late = () => argoWithRoles().map((c) =>
        `${this.node.path}: component '${c.componentName}' (ArgoWorkflows) also emits the argo-aggregate-to-admin/edit/view ClusterRoles, added after this one; add it before DataSciencePipelinesOperator, or set argoUserRoles: false here`);
      this.node.addValidation({ validate: late });
    }

    const all = [...MANAGE_VERBS];
    const prefix = 'data-science-pipelines-operator-';
    roleObject(this, 'AggregateAdminEdit', {
      name: `${prefix}aggregate-dspa-admin-edit`,
      labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
      rules: [Rbac.verbs(DSPA_GROUP, ['datasciencepipelinesapplications', 'datasciencepipelinesapplications/api'], all), Rbac.verbs(PIPELINES_GROUP, ['pipelines', 'pipelineversions'], all)],
    });
    roleObject(this, 'AggregateAdminView', {
      name: `${prefix}aggregate-dspa-admin-view`,
      labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
      rules: [Rbac.read(DSPA_GROUP, 'datasciencepipelinesapplications', 'datasciencepipelinesapplications/api'), Rbac.read(PIPELINES_GROUP, 'pipelines', 'pipelineversions')],
    });
  }
}
