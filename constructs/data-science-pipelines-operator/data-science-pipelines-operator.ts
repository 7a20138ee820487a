import { k8s } from 'cdk8s-plus-28';
import { stringify } from 'yaml';
import { BUNDLED_CRDS, CRDS, DSPA_GROUP, dspaCrd } from './crds';
import { DSPO_IMAGES } from './versions';
import { Component, ComponentProps, CrdClaim } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { MANAGE_VERBS, PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { WebhookRule } from '../../lib/webhook-server';
import { ARGO_CONTROLLER_RULES } from '../argo-workflows/argo-workflows';
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
}

const NAME = 'data-science-pipelines-operator-controller-manager';
const PARAMS = 'data-science-pipelines-operator-dspo-parameters';
const CONFIG = 'data-science-pipelines-operator-dspo-config';
export const DSPO_WEBHOOK_SERVICE = 'ds-pipelines-webhook';
const PIPELINEVERSION_WEBHOOK = 'pipelineversions.pipelines.kubeflow.org';

const IMAGE_PARAMS: Record<string, keyof typeof DSPO_IMAGES> = {
  IMAGES_APISERVER: 'apiServer',
  IMAGES_PERSISTENCEAGENT: 'persistenceAgent',
  IMAGES_SCHEDULEDWORKFLOW: 'scheduledWorkflow',
  IMAGES_LAUNCHER: 'launcher',
  IMAGES_DRIVER: 'driver',
  IMAGES_ARGO_WORKFLOWCONTROLLER: 'argoWorkflowController',
  IMAGES_ARGO_EXEC: 'argoExec',
  IMAGES_MLMDGRPC: 'mlmdGrpc',
  IMAGES_MLMDENVOY: 'mlmdEnvoy',
  IMAGES_MARIADB: 'mariadb',
};

/**
 * What the manager needs to deploy a pipelines stack per DSPA (upstream's manager-role),
 * as intent. It also holds the Argo controller's permissions, because it grants them to
 * each DSPA's workflow controller (Kubernetes forbids granting what one does not hold).
 * Left out: upstream's grants on ray.io, workload.codeflare.dev, serving.kserve.io,
 * machinelearning.seldon.io, snapshot.storage.k8s.io, image.openshift.io,
 * config.openshift.io and mlflow kinds (for pipeline steps), and batch jobs '*'.
 */
const MANAGER_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps', 'secrets', 'serviceaccounts', 'services', 'persistentvolumeclaims'),
  Rbac.verbs('', ['pods', 'pods/log'], ['delete', 'get', 'list', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.manage('apps', 'deployments'),
  Rbac.manage('batch', 'jobs'),
  Rbac.manage('rbac.authorization.k8s.io', 'roles', 'rolebindings'),
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterroles', 'clusterrolebindings'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.manage('route.openshift.io', 'routes'),
  Rbac.manage('networking.k8s.io', 'networkpolicies'),
  Rbac.manage('monitoring.coreos.com', 'servicemonitors'),
  Rbac.manage(KUBEFLOW_GROUP, 'scheduledworkflows', 'viewers'),
  Rbac.manage(PIPELINES_GROUP, 'pipelines', 'pipelineversions'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  // It creates the PipelineVersion webhook configurations at run time: create cannot be
  // scoped by name; everything else is scoped to those two objects.
  Rbac.verbs('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['create']),
  { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], resourceNames: [PIPELINEVERSION_WEBHOOK], verbs: ['delete', 'get', 'patch', 'update'] },
  ...ARGO_CONTROLLER_RULES,
];

/**
 * Data Science Pipelines Operator (Open Data Hub): the DataSciencePipelinesApplication CRD
 * and the operator that deploys a Kubeflow Pipelines stack per DSPA; the Pipeline,
 * PipelineVersion and ScheduledWorkflow CRDs it shares with Kubeflow Pipelines and the Argo
 * Workflows and Viewer CRDs it bundles, claimed as USES: with Kubeflow Pipelines and Argo in
 * the platform, their owners emit them; alone, it emits its own copies. Its PipelineVersion webhooks are created by the operator at run time, not
 * shipped: declared as runtime webhooks, which the checks and the report account for.
 */
export class DataSciencePipelinesOperator extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = DSPO_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: DataSciencePipelinesOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub');
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} is not allowed; set a whole number >= 1 (leader election keeps one manager active)`);
    }
    const mcr = props.maxConcurrentReconciles ?? 10;
    if (!Number.isInteger(mcr) || mcr < 1) throw new Error(`${this.node.path}: maxConcurrentReconciles ${mcr} is not allowed; set a whole number >= 1`);
    this.addNamespace();
    const dspa = this.addCrd(dspaCrd);
    // Shared with Kubeflow Pipelines and bundled from Argo: their owners emit them when present.
    for (const def of [...CRDS.filter((d) => d !== dspaCrd), ...BUNDLED_CRDS]) this.addCrd(def, { claim: CrdClaim.USES });

    const params: Record<string, string> = { ZAP_LOG_LEVEL: props.logLevel ?? 'info', MAX_CONCURRENT_RECONCILES: String(mcr) };
    for (const [k, key] of Object.entries(IMAGE_PARAMS)) params[k] = this.image(key);
    new k8s.KubeConfigMap(this, 'Parameters', { metadata: { name: PARAMS, namespace: this.namespaceName }, data: params });
    // The manager's config.yaml, read at start and on change through viper (main.go at
    // v2.18.0). Kubernetes expands $(VAR) in args and env only, never in a mounted file, and
    // viper's env override maps Images.LauncherImage to IMAGES_LAUNCHERIMAGE (not our
    // IMAGES_LAUNCHER): the file carries the resolved images under upstream's keys.
    // Images.KubeRBACProxy is a required field: without it the manager exits at start.
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: CONFIG, namespace: this.namespaceName },
      data: { 'config.yaml': stringify(this.managerConfig()) },
    });

    this.controller = new Controller(this, 'ControllerManager', {
      name: NAME,
      image: this.image('operator'),
      command: ['/manager'],
      args: ['--leader-elect', '--zap-log-level=$(ZAP_LOG_LEVEL)', '--MaxConcurrentReconciles=$(MAX_CONCURRENT_RECONCILES)', '--config', '/home/config'],
      env: Object.keys(params).map((k) => ({ name: k, valueFrom: { configMapKeyRef: { name: PARAMS, key: k } } })),
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

  /**
   * config.yaml as v2.18.0 reads it (controllers/config/defaults.go, apiserver.go,
   * workflow_controller.go): the operand images, the metadata of the managed sample
   * pipeline a DSPA may enable, and the operator's own settings, at upstream's defaults.
   */
  private managerConfig(): Record<string, unknown> {
    return {
      Images: {
        ApiServer: this.image('apiServer'),
        PersistenceAgent: this.image('persistenceAgent'),
        ScheduledWorkflow: this.image('scheduledWorkflow'),
        MlmdEnvoy: this.image('mlmdEnvoy'),
        MlmdGRPC: this.image('mlmdGrpc'),
        ArgoExecImage: this.image('argoExec'),
        ArgoWorkflowController: this.image('argoWorkflowController'),
        LauncherImage: this.image('launcher'),
        DriverImage: this.image('driver'),
        KubeRBACProxy: this.image('kubeRbacProxy'),
        MariaDB: this.image('mariadb'),
      },
      // Name and Filepath are required when a DSPA enables the Iris sample pipeline (the
      // file ships in the API server image).
      ManagedPipelinesMetadata: {
        Iris: { Name: '[Demo] iris-training', Filepath: '/samples/iris-pipeline-compiled.yaml', VersionName: '[Demo] iris-training' },
      },
      DSPO: {
        ArgoWorkflowsControllers: JSON.stringify({ managementState: 'Managed' }),
        HealthCheck: { Database: { ConnectionTimeout: '15s' }, ObjectStore: { ConnectionTimeout: '15s' } },
        RequeueTime: '20s',
        PlatformVersion: 'v0.0.0',
        FIPSEnabled: false,
      },
    };
  }
}
