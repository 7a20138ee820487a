import { CRDS, KUBEFLOW_GROUP, PIPELINES_GROUP } from './crds';
import { applicationCrd } from './crds/application';
import { METACONTROLLER_CRDS } from './crds/metacontroller';
import { Metacontroller } from './metacontroller';
import { PIPELINES_ENABLED_LABEL, PipelinesProfileHook } from './profile-hook';
import { PipelinesDatabase, PipelinesObjectStore, PipelinesStorage } from './storage';
import { KUBEFLOW_PIPELINES_IMAGES } from './versions';
import { Component, ComponentProps, CrdClaim } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { MANAGE_VERBS, PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';
import { Workload, WorkloadProps } from '../../lib/workload';
import { ArgoWorkflows } from '../argo-workflows/argo-workflows';

/** Where the API server keeps pipelines and pipeline versions. */
export enum PipelineStore {
  /** In its database, as upstream's default (platform-agnostic) install. */
  DATABASE = 'database',
  /**
   * As Pipeline and PipelineVersion custom resources (upstream's "Kubernetes-native" envs):
   * the API server gets RBAC on them and serves the PipelineVersion validating and
   * mutating webhooks on the ml-pipeline Service, port 8443.
   */
  KUBERNETES = 'kubernetes',
}

export interface KubeflowPipelinesProps extends ComponentProps {
  /** Where pipelines are stored. @default PipelineStore.DATABASE (upstream's default install) */
  readonly pipelineStore?: PipelineStore;
  /**
   * Multi-user mode (Kubeflow profiles): the controllers watch every namespace and get
   * ClusterRoles, the API server and UI authorize per user, and metacontroller (its CRDs
   * and StatefulSet) runs the profile hook that gives every namespace labelled
   * pipelines.kubeflow.org/enabled=true its Pipelines objects. @default false
   */
  readonly multiUser?: boolean;
  /**
   * Multi-user only: run the per-namespace artifact server (ml-pipeline-ui-artifact) in each
   * profile namespace, through which the UI reads artifacts. @default true
   */
  readonly artifactServer?: boolean;
  /**
   * Multi-user only: the default pipeline root of runs in profile namespaces (the profile
   * hook writes it into a kfp-launcher ConfigMap in each), e.g. s3://mlpipeline/v2/artifacts.
   * @default - none (the launcher's built-in default)
   */
  readonly defaultPipelineRoot?: string;
  /** @default { included: {} } (MySQL with a 20Gi claim) */
  readonly database?: PipelinesDatabase;
  /** @default { included: {} } (SeaweedFS with a 20Gi claim, behind minio-service:9000) */
  readonly objectStore?: PipelinesObjectStore;
  /**
   * Secret in the component's namespace, with keys `username` and `password`, that the
   * user creates before applying (with the included database, username must be root).
   * @default mysql-secret (upstream's name)
   */
  readonly databaseSecret?: string;
  /**
   * Secret in the component's namespace, with keys `accesskey` and `secretkey`, that the
   * user creates before applying. @default mlpipeline-minio-artifact (upstream's name)
   */
  readonly objectStoreSecret?: string;
  /** Bucket of pipeline artifacts. @default mlpipeline */
  readonly bucket?: string;
  /** The cache server and its pod-mutating webhook (step caching). @default true */
  readonly cache?: boolean;
  /** Replicas of the API server. @default 1 */
  readonly apiServerReplicas?: number;
  /** Replicas of the UI. @default 1 */
  readonly uiReplicas?: number;
}

const KFP_USER = { runAsUser: 1000, runAsGroup: 0 };
const HEALTHZ = '/apis/v1beta1/healthz';
const SECRET_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** The API server's permissions (upstream's ml-pipeline role). */
const API_SERVER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods', 'pods/log'], ['delete', 'get', 'list']),
  Rbac.manage('argoproj.io', 'workflows'),
  Rbac.verbs(KUBEFLOW_GROUP, ['scheduledworkflows'], ['create', 'delete', 'get', 'list', 'patch', 'update']),
  Rbac.verbs(KUBEFLOW_GROUP, ['scheduledworkflows/finalizers'], ['update']),
  Rbac.read(PIPELINES_GROUP, 'pipelines'),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  { apiGroups: [''], resources: ['configmaps'], resourceNames: ['kfp-launcher'], verbs: ['get'] },
  { apiGroups: [''], resources: ['secrets'], resourceNames: ['kfp-mlflow-credentials'], verbs: ['get'] },
];

const SCHEDULED_WORKFLOW_RULES: PolicyRule[] = [
  Rbac.manage('argoproj.io', 'workflows'),
  Rbac.verbs(PIPELINES_GROUP, ['runs'], ['create']),
  Rbac.manage(KUBEFLOW_GROUP, 'scheduledworkflows', 'scheduledworkflows/finalizers'),
  Rbac.verbs('', ['events'], ['create', 'patch']),
];

/** Upstream grants deployments and services in every API group ('*'); we name the groups. */
const VIEWER_RULES: PolicyRule[] = [
  Rbac.manage('apps', 'deployments'),
  Rbac.manage('', 'services'),
  Rbac.manage(KUBEFLOW_GROUP, 'viewers', 'viewers/finalizers'),
];

// UNCONFIRMED (the inventory lists no rules for these): the persistence agent's,
// UI's, cache server's and metadata writer's roles, from what each one does.
const PERSISTENCE_AGENT_RULES: PolicyRule[] = [
  Rbac.read('argoproj.io', 'workflows'),
  Rbac.read(KUBEFLOW_GROUP, 'scheduledworkflows'),
  Rbac.verbs(PIPELINES_GROUP, ['runs'], ['readArtifact', 'reportMetrics']),
];
const UI_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods', 'pods/log'], ['get']),
  Rbac.verbs('', ['events'], ['list']),
  Rbac.verbs('', ['secrets'], ['get']),
  Rbac.verbs(KUBEFLOW_GROUP, ['viewers'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.verbs('argoproj.io', ['workflows'], ['get', 'list']),
];
const CACHE_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('argoproj.io', ['workflows'], ['get', 'list', 'patch', 'update', 'watch']),
];
const METADATA_WRITER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['configmaps'], ['get']),
  Rbac.verbs('argoproj.io', ['workflows'], ['get', 'list', 'patch', 'update', 'watch']),
];

const ALL_VERBS = [...MANAGE_VERBS, 'deletecollection'];

/** What the API server needs on top when it stores pipelines as custom resources (upstream's k8s-native role patch). */
const KUBERNETES_STORE_RULES: PolicyRule[] = [
  Rbac.manage(PIPELINES_GROUP, 'pipelines', 'pipelines/finalizers'),
  Rbac.manage(PIPELINES_GROUP, 'pipelineversions', 'pipelineversions/status', 'pipelineversions/finalizers'),
];

/** The API server's webhook port (container and Service), upstream's k8s-native envs. */
const API_WEBHOOK_PORT = 8443;
/** The PipelineVersion webhook configurations' name, and their webhooks' (both upstream's). */
export const PIPELINEVERSION_WEBHOOK = 'pipelineversions.pipelines.kubeflow.org';

/**
 * Kubeflow Pipelines 2.17.0: the API server, persistence agent, scheduled-workflow and
 * viewer controllers, UI, visualization server, cache server with its pod webhook, ML
 * Metadata (gRPC server, envoy, writer), the ScheduledWorkflow, Viewer, Pipeline and
 * PipelineVersion CRDs, the kubeflow-pipelines-edit/view aggregation roles, and its
 * database and object store (included or external; credentials only by Secret reference).
 * Runs on Argo Workflows (the ArgoWorkflows component).
 */
export class KubeflowPipelines extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = KUBEFLOW_PIPELINES_IMAGES;
  public readonly apiServer: Workload;
  public readonly storage: PipelinesStorage;
  public readonly cacheWebhookServer?: WebhookServer;
  /** The API server's PipelineVersion webhooks (PipelineStore.KUBERNETES only). */
  public readonly apiWebhookServer?: WebhookServer;
  public readonly pipelineStore: PipelineStore;
  /** Multi-user only: metacontroller and the profile hook it calls. */
  public readonly metacontroller?: Metacontroller;
  public readonly profileHook?: PipelinesProfileHook;
  /** Secrets the user creates in the namespace before applying (names; never emitted). */
  public readonly userSecrets: string[];

  constructor(scope: Platform, id: string, props: KubeflowPipelinesProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow');
    const ns = this.namespaceName;
    for (const [prop, v] of [['apiServerReplicas', props.apiServerReplicas], ['uiReplicas', props.uiReplicas]] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new Error(`${this.node.path}: ${prop} ${v} is not allowed; set a whole number >= 1`);
    }
    const dbSecret = props.databaseSecret ?? 'mysql-secret';
    const s3Secret = props.objectStoreSecret ?? 'mlpipeline-minio-artifact';
    for (const [prop, v] of [['databaseSecret', dbSecret], ['objectStoreSecret', s3Secret]] as const) {
      if (!SECRET_NAME.test(v) || v.length > 253) throw new Error(`${this.node.path}: ${prop} '${v}' is not a valid Secret name (lower-case DNS subdomain)`);
    }
    const bucket = props.bucket ?? 'mlpipeline';
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new Error(`${this.node.path}: bucket '${bucket}' is not a valid S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)`);
    this.userSecrets = [dbSecret, s3Secret];
    const multiUser = props.multiUser ?? false;
    const store = props.pipelineStore ?? PipelineStore.DATABASE;
    if (!Object.values(PipelineStore).includes(store)) {
      throw new Error(`${this.node.path}: pipelineStore '${store}' is not one of ${Object.values(PipelineStore).join(', ')}; use PipelineStore.DATABASE or PipelineStore.KUBERNETES`);
    }
    this.pipelineStore = store;
    const k8sStore = store === PipelineStore.KUBERNETES;

    this.addNamespace();
    for (const def of CRDS) this.addCrd(def);
    // Upstream's cluster-scoped install ships kubernetes-sigs' Application CRD as a third-party
    // CRD (no Application object by default): another component may own it.
    this.addCrd(applicationCrd, { claim: CrdClaim.USES });
    // Multi-user provisioning is a metacontroller DecoratorController: its CRDs ship with KFP.
    if (multiUser) for (const def of METACONTROLLER_CRDS) this.addCrd(def);
    for (const [prop, v] of [['artifactServer', props.artifactServer], ['defaultPipelineRoot', props.defaultPipelineRoot]] as const) {
      if (!multiUser && v !== undefined) throw new Error(`${this.node.path}: ${prop} applies to multi-user mode only (the profile hook sets it up per namespace); set multiUser: true or remove it`);
    }
    this.require({ group: 'argoproj.io', kind: 'Workflow', reason: 'every pipeline run is an Argo Workflow that the API server and scheduled-workflow controller create', providedBy: ArgoWorkflows });
    // The pages of the pipelines UI (served under /pipeline/) in the central dashboard.
    this.addDashboardLinks({
      menu: [{
        text: 'Pipelines',
        icon: 'kubeflow:pipeline-centered',
        items: ['Pipelines:pipelines', 'Experiments:experiments', 'Runs:runs', 'Recurring Runs:recurringruns', 'Artifacts:artifacts', 'Executions:executions']
          .map((e) => e.split(':')).map(([text, page]) => ({ text, link: `/pipeline/#/${page}` })),
      }],
      quick: [{ desc: 'Pipelines', link: '/pipeline/#/runs', text: 'View Pipeline Runs' }],
      documentation: [{ desc: 'Documentation for Kubeflow Pipelines', link: 'https://www.kubeflow.org/docs/components/pipelines/', text: 'Kubeflow Pipelines Documentation' }],
    });

    this.storage = new PipelinesStorage(this, 'Storage', {
      database: props.database ?? { included: {} },
      objectStore: props.objectStore ?? { included: {} },
      databaseSecret: dbSecret,
      objectStoreSecret: s3Secret,
      mysqlImage: this.image('mysql'),
      seaweedfsImage: this.image('seaweedfs'),
    });
    const c = this.storage.connection;
    const secretEnv = (name: string, secret: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });
    const dbEnv = [secretEnv('DBCONFIG_USER', dbSecret, 'username'), secretEnv('DBCONFIG_PASSWORD', dbSecret, 'password')];
    const podNamespace = { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
    // Single-user: the controllers watch their own namespace; multi-user: every namespace.
    const watched = multiUser ? { name: 'NAMESPACE', value: '' } : { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
    const rbac = (rules: PolicyRule[]): Pick<WorkloadProps, 'rules' | 'namespacedRules'> => (multiUser ? { rules } : { namespacedRules: rules });
    const kfpWorkload = (cid: string, p: WorkloadProps) => new Workload(this, cid, { ...KFP_USER, ...p });

    // UNCONFIRMED: the environment variable names (viper keys of the API server's config).
    this.apiServer = kfpWorkload('ApiServer', {
      name: 'ml-pipeline',
      image: this.image('apiServer'),
      selectorLabels: { app: 'ml-pipeline' },
      // The Kubernetes store is a flag of the API server, which then serves webhooks with the mounted key pair.
      ...(k8sStore ? {
        command: ['/bin/apiserver'],
        args: ['--config=/config', '--sampleconfig=/config/sample_config.json', '-logtostderr=true',
          '--webhookTLSCertPath=/etc/webhook/certs/tls.crt', '--webhookTLSKeyPath=/etc/webhook/certs/tls.key', '--pipelinesStoreKubernetes=true'],
        webhookPort: API_WEBHOOK_PORT,
        webhookPortName: 'webhook',
      } : {}),
      replicas: props.apiServerReplicas,
      env: [
        podNamespace,
        { name: 'MULTIUSER', value: String(multiUser) },
        { name: 'DBCONFIG_MYSQLCONFIG_HOST', value: c.dbHost },
        { name: 'DBCONFIG_MYSQLCONFIG_PORT', value: String(c.dbPort) },
        ...dbEnv,
        { name: 'OBJECTSTORECONFIG_HOST', value: c.s3Host },
        { name: 'OBJECTSTORECONFIG_PORT', value: String(c.s3Port) },
        { name: 'OBJECTSTORECONFIG_SECURE', value: String(c.s3Secure) },
        ...(c.s3Region ? [{ name: 'OBJECTSTORECONFIG_REGION', value: c.s3Region }] : []),
        { name: 'OBJECTSTORECONFIG_BUCKETNAME', value: bucket },
        secretEnv('OBJECTSTORECONFIG_ACCESSKEY', s3Secret, 'accesskey'),
        secretEnv('OBJECTSTORECONFIG_SECRETACCESSKEY', s3Secret, 'secretkey'),
      ],
      ports: [{ name: 'http', containerPort: 8888 }, { name: 'grpc', containerPort: 8887 }],
      livenessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      resources: { requests: { cpu: '250m', memory: '500Mi' } },
      ...rbac(k8sStore ? [...API_SERVER_RULES, ...KUBERNETES_STORE_RULES] : API_SERVER_RULES),
    });
    if (k8sStore) {
      // As upstream's k8s-native envs: the webhooks on the ml-pipeline Service's port 8443
      // (Certificate and Secret kfp-api-webhook-cert), from the platform's certificate provider.
      this.apiWebhookServer = new WebhookServer(this, 'ApiWebhook', {
        controller: this.apiServer,
        serviceName: 'ml-pipeline',
        sharedService: this.apiServer.service,
        port: API_WEBHOOK_PORT,
        secretName: 'kfp-api-webhook-cert',
        certificateName: 'kfp-api-webhook-cert',
        certDir: '/etc/webhook/certs',
      });
      const pipelineVersions = [{ apiGroups: [PIPELINES_GROUP], apiVersions: ['v2beta1'], resources: ['pipelineversions'], operations: ['CREATE' as const, 'UPDATE' as const], scope: 'Namespaced' as const }];
      this.apiWebhookServer.addValidatingWebhook(PIPELINEVERSION_WEBHOOK, { name: PIPELINEVERSION_WEBHOOK, path: '/webhooks/validate-pipelineversion', failurePolicy: 'Fail', rules: pipelineVersions });
      this.apiWebhookServer.addMutatingWebhook(PIPELINEVERSION_WEBHOOK, { name: PIPELINEVERSION_WEBHOOK, path: '/webhooks/mutate-pipelineversion', failurePolicy: 'Fail', rules: pipelineVersions });
    }

    kfpWorkload('PersistenceAgent', {
      name: 'ml-pipeline-persistenceagent',
      image: this.image('persistenceAgent'),
      selectorLabels: { app: 'ml-pipeline-persistenceagent' },
      env: [watched, { name: 'TTL_SECONDS_AFTER_WORKFLOW_FINISH', value: '86400' }, { name: 'NUM_WORKERS', value: '2' }],
      service: false,
      resources: { requests: { cpu: '120m', memory: '500Mi' } },
      ...rbac(PERSISTENCE_AGENT_RULES),
    });

    kfpWorkload('ScheduledWorkflowController', {
      name: 'ml-pipeline-scheduledworkflow',
      image: this.image('scheduledWorkflow'),
      selectorLabels: { app: 'ml-pipeline-scheduledworkflow' },
      env: [watched, { name: 'CRON_SCHEDULE_TIMEZONE', value: 'UTC' }],
      ports: [{ name: 'http', containerPort: 9090 }],
      service: false,
      ...rbac(SCHEDULED_WORKFLOW_RULES),
    });

    kfpWorkload('ViewerCrdController', {
      name: 'ml-pipeline-viewer-crd',
      serviceAccountName: 'ml-pipeline-viewer-crd-service-account',
      image: this.image('viewerController'),
      selectorLabels: { app: 'ml-pipeline-viewer-crd' },
      env: [watched, { name: 'MAX_NUM_VIEWERS', value: '50' }],
      service: false,
      ...rbac(VIEWER_RULES),
    });

    kfpWorkload('Ui', {
      name: 'ml-pipeline-ui',
      image: this.image('frontend'),
      selectorLabels: { app: 'ml-pipeline-ui' },
      replicas: props.uiReplicas,
      env: [
        { name: 'MINIO_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'MINIO_HOST', value: c.s3Host },
        { name: 'MINIO_PORT', value: String(c.s3Port) },
        { name: 'MINIO_SSL', value: String(c.s3Secure) },
        secretEnv('MINIO_ACCESS_KEY', s3Secret, 'accesskey'),
        secretEnv('MINIO_SECRET_KEY', s3Secret, 'secretkey'),
        { name: 'ALLOW_CUSTOM_VISUALIZATIONS', value: 'true' },
        { name: 'ARGO_ARCHIVE_LOGS', value: 'true' },
        { name: 'DISABLE_GKE_METADATA', value: 'true' },
        { name: 'KUBEFLOW_USERID_HEADER', value: 'kubeflow-userid' },
        { name: 'KUBEFLOW_USERID_PREFIX', value: '' },
      ],
      ports: [{ name: 'http', containerPort: 3000 }],
      service: { ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      livenessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      ...rbac(UI_RULES),
    });

    kfpWorkload('VisualizationServer', {
      name: 'ml-pipeline-visualizationserver',
      image: this.image('visualizationServer'),
      selectorLabels: { app: 'ml-pipeline-visualizationserver' },
      ports: [{ name: 'http', containerPort: 8888 }],
      livenessProbe: { tcpSocket: { port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5 },
      readinessProbe: { tcpSocket: { port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5 },
      resources: { requests: { cpu: '30m', memory: '500Mi' } },
    });

    // ML Metadata: the gRPC store server on the shared database, envoy for the UI, and the writer.
    kfpWorkload('MetadataGrpc', {
      name: 'metadata-grpc-deployment',
      image: this.image('metadataGrpc'),
      selectorLabels: { component: 'metadata-grpc-server' },
      command: ['/bin/metadata_store_server'],
      // UNCONFIRMED: the flags of upstream's metadata-grpc-deployment.
      args: ['--grpc_port=8080', `--mysql_config_host=${c.dbHost}`, `--mysql_config_port=${c.dbPort}`, '--mysql_config_database=metadb',
        '--mysql_config_user=$(DBCONFIG_USER)', '--mysql_config_password=$(DBCONFIG_PASSWORD)', '--enable_database_upgrade=true'],
      env: dbEnv,
      ports: [{ name: 'grpc-api', containerPort: 8080 }],
      service: { name: 'metadata-grpc-service', ports: [{ name: 'grpc-api', port: 8080, targetPort: 'grpc-api' }] },
      livenessProbe: { tcpSocket: { port: 'grpc-api' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { tcpSocket: { port: 'grpc-api' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
    });
    kfpWorkload('MetadataEnvoy', {
      name: 'metadata-envoy-deployment',
      image: this.image('metadataEnvoy'),
      selectorLabels: { component: 'metadata-envoy' },
      ports: [{ name: 'md-envoy', containerPort: 9090 }, { name: 'envoy-admin', containerPort: 9901 }],
      service: { name: 'metadata-envoy-service', ports: [{ name: 'md-envoy', port: 9090, targetPort: 'md-envoy' }] },
      readinessProbe: { tcpSocket: { port: 'md-envoy' } },
    });
    kfpWorkload('MetadataWriter', {
      name: 'metadata-writer',
      serviceAccountName: 'kubeflow-pipelines-metadata-writer',
      image: this.image('metadataWriter'),
      selectorLabels: { app: 'metadata-writer' },
      env: [{ ...watched, name: 'NAMESPACE_TO_WATCH' }],
      service: false,
      ...rbac(METADATA_WRITER_RULES),
    });

    if (props.cache ?? true) {
      // UNCONFIRMED: the cache server's flags (upstream passes them through env/config).
      const cache = kfpWorkload('CacheServer', {
        name: 'cache-server',
        serviceAccountName: 'kubeflow-pipelines-cache',
        image: this.image('cacheServer'),
        selectorLabels: { app: 'cache-server' },
        args: ['--db_driver=mysql', `--db_host=${c.dbHost}`, `--db_port=${c.dbPort}`, '--db_name=cachedb', '--db_user=$(DBCONFIG_USER)', '--db_password=$(DBCONFIG_PASSWORD)',
          '--namespace_to_watch=$(NAMESPACE_TO_WATCH)', '--listen_port=8443', '--tls_cert_filename=tls.crt', '--tls_key_filename=tls.key'],
        env: [...dbEnv, { ...watched, name: 'NAMESPACE_TO_WATCH' }],
        webhookPort: 8443,
        webhookPortName: 'webhook-api',
        service: false,
        ...rbac(CACHE_RULES),
      });
      // Upstream's cert-manager env ships this configuration (Certificate kfp-cache-cert,
      // Secret webhook-server-tls); without cert-manager its cache-deployer creates it at run
      // time. We ship it, with the platform's certificate provider.
      this.cacheWebhookServer = new WebhookServer(this, 'CacheWebhook', {
        controller: cache,
        serviceName: 'cache-server',
        secretName: 'webhook-server-tls',
        certificateName: 'kfp-cache-cert',
        certDir: '/etc/webhook/certs',
      });
      this.cacheWebhookServer.addMutatingWebhook(`cache-webhook-${ns}`, {
        name: `cache-server.${ns}.svc`,
        path: '/mutate',
        failurePolicy: 'Ignore',
        // Caching is an optimization: pods run uncached when the server is down (upstream's
        // Ignore), and a platform that wants every pod to pass the cache may choose Fail.
        failurePolicyOverridable: true,
        sideEffects: 'None',
        admissionReviewVersions: ['v1beta1'],
        timeoutSeconds: 5,
        objectSelector: { matchLabels: { 'pipelines.kubeflow.org/cache_enabled': 'true' } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      });
    }

    if (multiUser) {
      this.profileHook = new PipelinesProfileHook(this, 'ProfileHookServer', {
        runtimeImage: this.image('profileHookRuntime'),
        frontendImage: props.artifactServer ?? true ? this.image('frontend') : undefined,
        objectStoreSecret: s3Secret,
        defaultPipelineRoot: props.defaultPipelineRoot,
      });
      for (const [key, value] of Object.entries(PIPELINES_ENABLED_LABEL)) {
        this.requireTenantNamespaceLabel({ key, value, reason: 'the Pipelines profile hook gives only namespaces with it their Pipelines objects (artifact server, metadata and object store settings)' });
      }
      this.metacontroller = new Metacontroller(this, 'Metacontroller', { image: this.image('metacontroller'), childRules: this.profileHook.childRules });
    }

    // Aggregation roles: users get pipelines rights through kubeflow-edit/kubeflow-view.
    const kf = (name: string) => `rbac.authorization.kubeflow.org/aggregate-to-${name}`;
    roleObject(this, 'EditRole', { name: 'kubeflow-pipelines-edit', labels: { [kf('kubeflow-edit')]: 'true' }, aggregateFrom: [{ [kf('kubeflow-pipelines-edit')]: 'true' }], rules: [] });
    roleObject(this, 'ViewRole', {
      name: 'kubeflow-pipelines-view',
      labels: { [kf('kubeflow-pipelines-edit')]: 'true', [kf('kubeflow-view')]: 'true' },
      aggregateFrom: [{ [kf('kubeflow-pipelines-view')]: 'true' }],
      rules: [],
    });
    roleObject(this, 'AggregateToEdit', {
      name: 'aggregate-to-kubeflow-pipelines-edit',
      labels: { [kf('kubeflow-pipelines-edit')]: 'true' },
      rules: [
        Rbac.verbs(PIPELINES_GROUP, ['pipelines', 'pipelineversions'], ['create', 'delete', 'update']),
        Rbac.verbs(PIPELINES_GROUP, ['experiments'], ['archive', 'create', 'delete', 'unarchive']),
        Rbac.verbs(PIPELINES_GROUP, ['runs'], ['archive', 'create', 'delete', 'readArtifact', 'reportMetrics', 'retry', 'terminate', 'unarchive']),
        Rbac.verbs(PIPELINES_GROUP, ['jobs'], ['create', 'delete', 'disable', 'enable']),
        // Upstream: '*' verbs; we list them.
        Rbac.verbs(KUBEFLOW_GROUP, ['scheduledworkflows'], ALL_VERBS),
        Rbac.verbs('argoproj.io', ['cronworkflows', 'cronworkflows/finalizers', 'workflows', 'workflows/finalizers', 'workfloweventbindings', 'workflowtemplates', 'workflowtaskresults'], ALL_VERBS),
      ],
    });
    roleObject(this, 'AggregateToView', {
      name: 'aggregate-to-kubeflow-pipelines-view',
      labels: { [kf('kubeflow-pipelines-view')]: 'true' },
      rules: [
        Rbac.verbs(PIPELINES_GROUP, ['pipelines', 'pipelineversions', 'experiments', 'jobs'], ['get', 'list']),
        Rbac.verbs(PIPELINES_GROUP, ['runs'], ['get', 'list', 'readArtifact']),
        Rbac.verbs(KUBEFLOW_GROUP, ['viewers'], ['create', 'delete', 'get']),
        Rbac.verbs(PIPELINES_GROUP, ['visualizations'], ['create']),
      ],
    });
  }
}
