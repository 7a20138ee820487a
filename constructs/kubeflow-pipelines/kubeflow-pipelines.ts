import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS, KUBEFLOW_GROUP, PIPELINES_GROUP } from './crds';
import { applicationCrd } from './crds/application';
import { METACONTROLLER_CRDS } from './crds/metacontroller';
import { Metacontroller } from './metacontroller';
import { kubeflowPipelinesParityDeviations } from './parity';
import { addPipelinesPolicies } from './policies';
import { PIPELINES_ENABLED_LABEL, PipelinesProfileHook, PipelinesProfileHookProps } from './profile-hook';
import { PipelinesDatabase, PipelinesObjectStore, PipelinesStorage } from './storage';
import { KFP_VERSION, KUBEFLOW_PIPELINES_IMAGES } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import { ISTIO_INJECTION_ENABLED } from '../../lib/istio';
import type { Platform } from '../../lib/platform';
import { bindingObject, MANAGE_VERBS, PolicyRule, Rbac, RbacNeed, roleObject } from '../../lib/rbac';
import { SecretValue } from '../../lib/secrets';
import { WebhookServer } from '../../lib/webhook-server';
import { Workload, WorkloadProps } from '../../lib/workload';
import { ArgoExecutorSettings, ArgoWorkflowDefaults, ArgoWorkflows, S3ArtifactRepository } from '../argo-workflows/argo-workflows';

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

/** How profile namespaces (multi-user) reach the object store. */
export enum TenantObjectStoreAccess {
  /**
   * Each namespace gets its own identity, limited to its prefixes of the bucket (upstream's
   * sync.py, through the included SeaweedFS's IAM API): a tenant cannot read another's artifacts.
   */
  PER_NAMESPACE = 'per-namespace',
  /**
   * Every namespace gets a copy of the admin object store credentials: any tenant can read,
   * change and delete every tenant's artifacts. Only as an explicit choice (e.g. an external
   * object store without an IAM API, in a trusted team).
   */
  SHARED_ADMIN_CREDENTIALS = 'shared-admin-credentials',
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
   * profile namespace, through which the UI reads artifacts. Each one holds that namespace's
   * object store keys. @default false (upstream's: ARTIFACTS_PROXY_ENABLED "false"; the UI
   * then reads artifacts itself)
   */
  readonly artifactServer?: boolean;
  /**
   * Multi-user only: the default pipeline root of runs in profile namespaces (the profile
   * hook writes it into the kfp-launcher ConfigMap of each). With per-namespace object store
   * identities it must lie under the namespace's prefixes, or runs cannot write there.
   * @default - upstream's: minio://<bucket>/private-artifacts/<namespace>/v2/artifacts
   */
  readonly defaultPipelineRoot?: string;
  /**
   * Multi-user only: how profile namespaces reach the object store. Per-namespace identities
   * need the included SeaweedFS; with an external object store, synth fails until you choose
   * SHARED_ADMIN_CREDENTIALS by name.
   * @default TenantObjectStoreAccess.PER_NAMESPACE
   */
  readonly tenantObjectStoreAccess?: TenantObjectStoreAccess;
  /** @default { included: {} } (MySQL with a 20Gi claim) */
  readonly database?: PipelinesDatabase;
  /** @default { included: {} } (SeaweedFS with a 20Gi claim, behind the seaweedfs Service, S3 on port 9000) */
  readonly objectStore?: PipelinesObjectStore;
  /**
   * Secret in the component's namespace, with keys `username` and `password`: with the
   * included database `mlplatform apply` generates it when missing (username root), with an
   * external one the user creates it before applying.
   * @default mysql-secret (upstream's name)
   */
  readonly databaseSecret?: string;
  /**
   * Secret in the component's namespace, with keys `accesskey` and `secretkey`: with the
   * included object store `mlplatform apply` generates it when missing, with an external one
   * the user creates it before applying. @default mlpipeline-minio-artifact (upstream's name)
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
  /**
   * Multi-user only: the request header that carries the authenticated user (the API server
   * and UI read it). @default kubeflow-userid (upstream's; the central dashboard's default)
   */
  readonly userIdHeader?: string;
  /** Multi-user only: the prefix before the user id in that header. @default '' (upstream's) */
  readonly userIdPrefix?: string;
  /**
   * Multi-user only: the Istio Gateway (`<namespace>/<name>`) through which the UI is reached,
   * as upstream's multi-user install: VirtualServices routing /pipeline to the UI and
   * /ml_metadata to the metadata envoy. `false`: none.
   * @default 'kubeflow/kubeflow-gateway'
   */
  readonly istioGateway?: string | false;
}

const KFP_USER = { runAsUser: 1000, runAsGroup: 0 };
/** Audience of the projected tokens the persistence agent and scheduled-workflow controller present to the API server. */
const KFP_TOKEN_AUDIENCE = 'pipelines.kubeflow.org';
/** Where both read those tokens (backend/src/agent/persistence/client/tokenrefresher, scheduledworkflow/main.go at 2.17.0). */
const KFP_TOKEN_DIR = '/var/run/secrets/kubeflow/tokens';
/** The ServiceAccount runs use in profile namespaces (the profile controller creates it there); upstream's multi-user setting. */
const PROFILE_RUNNER_SERVICE_ACCOUNT = 'default-editor';
/** The UI's run-time ConfigMap (viewer pod template), its name and mount as upstream's. */
const UI_CONFIGMAP = 'ml-pipeline-ui-configmap';
const UI_CONFIG_DIR = '/etc/config';
/** Metadata envoy: upstream's ConfigMap name and key, mounted where its args point. */
const ENVOY_CONFIGMAP = 'metadata-envoy-configmap';
const ENVOY_CONFIG_DIR = '/etc/envoy';
const ENVOY_CONFIG_KEY = 'envoy-config.yaml';
const MLMD_PORT = 8080;
const ENVOY_PORT = 9090;
/** ML Metadata's gRPC limits, as upstream passes them (large artifacts lists, long metadata). */
const MLMD_GRPC_CHANNEL_ARGS = 'grpc.max_metadata_size=16384,grpc.max_receive_message_length=104857600,grpc.max_send_message_length=104857600';
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
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

/**
 * The API server's MLflow plugin, which the image's config.json enables at 2.17.0
 * (plugins.mlflow, Kubernetes auth): MLflow authorizes the API server's token on its
 * experiments in the API server's namespace (upstream's ml-pipeline Role), and the plugin
 * trusts the CA bundle mounted from the optional mlflow-tracking-ca ConfigMap.
 */
const API_SERVER_NAMESPACE_RULES: PolicyRule[] = [
  Rbac.verbs('mlflow.kubeflow.org', ['experiments'], ['create', 'get', 'list', 'update']),
];
const MLFLOW_CA_CONFIGMAP = 'mlflow-tracking-ca';
/** Where config.json's plugins.mlflow.tls.caBundlePath (/etc/mlflow-tracking-ca/ca.crt) points. */
const MLFLOW_CA_DIR = '/etc/mlflow-tracking-ca';

/** The scheduled-workflow controller's metrics port (its --metricsPort). */
const SWF_METRICS_PORT = 9090;

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

// The persistence agent's, UI's, cache server's and metadata writer's roles, compared with
// upstream's 2.17.0 renders (parity.mjs): the same triples, except that the cache server gets
// no ConfigMap access (its code at 2.17.0 reads none; upstream's role carries it from the
// cache deployer, which we do not run).
const PERSISTENCE_AGENT_RULES: PolicyRule[] = [
  Rbac.read('argoproj.io', 'workflows'),
  Rbac.read(KUBEFLOW_GROUP, 'scheduledworkflows'),
  Rbac.verbs(PIPELINES_GROUP, ['runs'], ['readArtifact', 'reportMetrics']),
];
/**
 * Multi-user, the API server checks `report` on workflows and scheduledworkflows of
 * pipelines.kubeflow.org by SubjectAccessReview when the agent reports them (no watch shows
 * it): an accessReview, so MLP031 proves the agent holds it. Single-user, IsAuthorized skips
 * the review (resource/resource_manager.go at 2.17.0), but upstream's Role still carries the
 * rule, so it stays in the agent's Role there.
 */
const PERSISTENCE_AGENT_REPORT: RbacNeed = {
  rule: Rbac.verbs(PIPELINES_GROUP, ['workflows', 'scheduledworkflows'], ['report']),
  reason: 'the API server reviews `report` on the workflow or scheduled workflow the agent reports (server/report_server.go canAccessWorkflow at 2.17.0)',
};
const UI_RULES: PolicyRule[] = [
  Rbac.verbs('', ['pods', 'pods/log'], ['get']),
  Rbac.verbs('', ['events'], ['list']),
  Rbac.verbs(KUBEFLOW_GROUP, ['viewers'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.verbs('argoproj.io', ['workflows'], ['get', 'list']),
];
/** Secrets and ConfigMaps the UI reads: in its own namespace only, as upstream's ml-pipeline-ui Role. */
const UI_OWN_NAMESPACE_RULES: PolicyRule[] = [
  Rbac.verbs('', ['secrets', 'configmaps'], ['get', 'list']),
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

/** Single-user: the ServiceAccount every run's pods use (the API server's config.json default at 2.17.0). */
const PIPELINE_RUNNER = 'pipeline-runner';
/** Single-user: the ServiceAccount of the TensorBoard viewers the UI starts (upstream's viewer pod template). */
const VIEWER_SERVICE_ACCOUNT = 'kubeflow-pipelines-viewer';
/**
 * What runs may do in the namespace (upstream's pipeline-runner Role with its '*' verbs
 * listed): the driver reads the launcher ConfigMap, object store Secrets, its pod and
 * workflow and creates/deletes PVCs; Argo's executor reports task results; components may
 * start pods, services, deployments and jobs. Left out: upstream's kubeflow.org '*' and
 * Seldon grants (a pipeline that creates those kinds needs a role of its own).
 */
const PIPELINE_RUNNER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['secrets'], ['get']),
  Rbac.read('', 'configmaps'),
  Rbac.manage('', 'persistentvolumeclaims', 'pods', 'pods/exec', 'pods/log', 'services'),
  Rbac.verbs('snapshot.storage.k8s.io', ['volumesnapshots'], ['create', 'delete', 'get']),
  Rbac.verbs('argoproj.io', ['workflows'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('argoproj.io', ['workflowtaskresults'], ['create', 'patch']),
  Rbac.manage('apps', 'deployments', 'replicasets'),
  Rbac.manage('batch', 'jobs'),
];

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
 *
 * Deliberate differences from upstream's install (checked against its 2.17.0 renders):
 * - values upstream reads from pipeline-install-config at apply time are given directly in
 *   env and flags (that ConfigMap is a kustomize parameter, not read at run time);
 * - MySQL's root password comes from a Secret (generated by `mlplatform apply`, or the user's; upstream: empty password);
 * - no init containers waiting for MySQL or the API server: the servers retry or restart, and
 *   the API server gets upstream's startup probe;
 * - the metadata envoy's admin interface listens on localhost only (upstream: every address);
 * - the viewer controller's deployments/services rules name the groups (upstream: '*');
 * - readOnlyRootFilesystem with an emptyDir at /tmp where the programs write;
 * - no cache deployer: the cache webhook's certificate comes from the platform's provider.
 */
export class KubeflowPipelines extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return KFP_VERSION;
  }

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
  /** The names of its database and object store Secrets (never emitted; see referencedSecrets for who makes them). */
  public readonly userSecrets: string[];

  constructor(scope: Platform, id: string, props: KubeflowPipelinesProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
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
    const artifactServer = props.artifactServer ?? false;
    const store = props.pipelineStore ?? PipelineStore.DATABASE;
    if (!Object.values(PipelineStore).includes(store)) {
      throw new Error(`${this.node.path}: pipelineStore '${store}' is not one of ${Object.values(PipelineStore).join(', ')}; use PipelineStore.DATABASE or PipelineStore.KUBERNETES`);
    }
    this.pipelineStore = store;
    const k8sStore = store === PipelineStore.KUBERNETES;

    // Multi-user: its AuthorizationPolicies guard the user header only in pods with a sidecar,
    // so its namespace injects them, as kubeflow/manifests labels the kubeflow namespace.
    this.addNamespace(multiUser ? { ...ISTIO_INJECTION_ENABLED } : {});
    for (const def of CRDS) this.addCrd(def);
    // Upstream's cluster-scoped install ships kubernetes-sigs' Application CRD as a third-party
    // CRD (no Application object by default): another component may own it.
    this.useCrd(applicationCrd, { reason: 'upstream\'s cluster-scoped install ships kubernetes-sigs\' Application CRD as a third-party CRD', bundledCopy: true });
    // Multi-user provisioning is a metacontroller DecoratorController: its CRDs ship with KFP.
    if (multiUser) for (const def of METACONTROLLER_CRDS) this.addCrd(def);
    for (const [prop, v] of [['artifactServer', props.artifactServer], ['defaultPipelineRoot', props.defaultPipelineRoot], ['tenantObjectStoreAccess', props.tenantObjectStoreAccess]] as const) {
      if (!multiUser && v !== undefined) throw new Error(`${this.node.path}: ${prop} applies to multi-user mode only (the profile hook sets it up per namespace); set multiUser: true or remove it`);
    }
    for (const [prop, v] of [['userIdHeader', props.userIdHeader], ['userIdPrefix', props.userIdPrefix], ['istioGateway', props.istioGateway]] as const) {
      if (!multiUser && v !== undefined) throw new Error(`${this.node.path}: ${prop} applies to multi-user mode only (single-user mode has no user identity or Istio routing); set multiUser: true or remove it`);
    }
    const userIdHeader = props.userIdHeader ?? 'kubeflow-userid';
    if (!HEADER_NAME.test(userIdHeader)) throw new Error(`${this.node.path}: userIdHeader '${userIdHeader}' is not an HTTP header name; give e.g. kubeflow-userid`);
    const userIdPrefix = props.userIdPrefix ?? '';
    const gateway = multiUser ? props.istioGateway ?? 'kubeflow/kubeflow-gateway' : false;
    if (gateway !== false && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gateway)) {
      throw new Error(`${this.node.path}: istioGateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false`);
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

    const tenantAccess = multiUser ? this.tenantObjectStoreAccess(props) : undefined;
    this.declareParityDeviations(kubeflowPipelinesParityDeviations(multiUser, { tenantIdentities: tenantAccess !== 'shared' }));

    this.storage = new PipelinesStorage(this, 'Storage', {
      database: props.database ?? { included: {} },
      objectStore: props.objectStore ?? { included: {} },
      databaseSecret: dbSecret,
      objectStoreSecret: s3Secret,
      mysqlImage: this.image('mysql'),
      seaweedfsImage: this.image('seaweedfs'),
      bucket,
    });
    // The credentials' Secrets: apply generates those of the included servers, the user provides the others.
    const database = props.database ?? { included: {} };
    if ('included' in database) {
      this.referenceSecret({ name: dbSecret, purpose: 'the root credentials of Kubeflow Pipelines\' MySQL', generate: { username: SecretValue.fixed('root'), password: SecretValue.alphanumeric(24) } });
    } else {
      this.referenceSecret({
        name: dbSecret,
        purpose: `the credentials of Kubeflow Pipelines' database at ${database.external.host}`,
        keys: ['username', 'password'],
        userProvided: `kubectl -n ${ns} create secret generic ${dbSecret} --from-literal=username=... --from-literal=password=...`,
      });
    }
    const objectStore = props.objectStore ?? { included: {} };
    if ('included' in objectStore) {
      this.referenceSecret({ name: s3Secret, purpose: 'the admin access key of Kubeflow Pipelines\' SeaweedFS object store', generate: { accesskey: SecretValue.alphanumeric(20), secretkey: SecretValue.alphanumeric(40) } });
    } else {
      this.referenceSecret({
        name: s3Secret,
        purpose: `the access key of Kubeflow Pipelines' object store at ${objectStore.external.host}`,
        keys: ['accesskey', 'secretkey'],
        userProvided: `kubectl -n ${ns} create secret generic ${s3Secret} --from-literal=accesskey=... --from-literal=secretkey=...`,
      });
    }
    const c = this.storage.connection;
    const secretEnv = (name: string, secret: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });
    // The cache server and ML Metadata take the credentials as flags ($(DBCONFIG_USER) in args).
    const dbEnv = [secretEnv('DBCONFIG_USER', dbSecret, 'username'), secretEnv('DBCONFIG_PASSWORD', dbSecret, 'password')];
    const userIdEnv = multiUser ? [{ name: 'KUBEFLOW_USERID_HEADER', value: userIdHeader }, { name: 'KUBEFLOW_USERID_PREFIX', value: userIdPrefix }] : [];
    /** A projected token for the API server (audience pipelines.kubeflow.org), as upstream mounts it. */
    const apiToken = (file: string): Pick<WorkloadProps, 'volumes' | 'volumeMounts'> => ({
      volumes: [{ name: file, projected: { sources: [{ serviceAccountToken: { audience: KFP_TOKEN_AUDIENCE, expirationSeconds: 3600, path: file } }] } }],
      volumeMounts: [{ name: file, mountPath: KFP_TOKEN_DIR, readOnly: true }],
    });
    const podNamespace = { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
    // Single-user: the controllers watch their own namespace; multi-user: every namespace.
    const watched = multiUser ? { name: 'NAMESPACE', value: '' } : { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
    const rbac = (rules: PolicyRule[]): Pick<WorkloadProps, 'rules' | 'namespacedRules'> => (multiUser ? { rules } : { namespacedRules: rules });
    const kfpWorkload = (cid: string, p: WorkloadProps) => new Workload(this, cid, { ...KFP_USER, ...p });

    // Env names are viper keys of the API server's config with '.' as '_' (client_manager.go,
    // common/config.go and argocompiler/container.go at 2.17.0).
    const apiRbac = rbac(k8sStore ? [...API_SERVER_RULES, ...KUBERNETES_STORE_RULES] : API_SERVER_RULES);
    this.apiServer = kfpWorkload('ApiServer', {
      name: 'ml-pipeline',
      containerName: 'ml-pipeline-api-server',
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
        ...userIdEnv,
        // Runs in profile namespaces use the profile's default-editor (config.json's pipeline-runner exists only here).
        ...(multiUser ? [{ name: 'DEFAULTPIPELINERUNNERSERVICEACCOUNT', value: PROFILE_RUNNER_SERVICE_ACCOUNT }] : []),
        // The visualization server a namespaced visualization request goes to (http://<name>.<namespace>:<port>), upstream's values.
        ...(multiUser ? [{ name: 'VISUALIZATIONSERVICE_NAME', value: 'ml-pipeline-visualizationserver' }, { name: 'VISUALIZATIONSERVICE_PORT', value: '8888' }] : []),
        { name: 'DBCONFIG_MYSQLCONFIG_HOST', value: c.dbHost },
        { name: 'DBCONFIG_MYSQLCONFIG_PORT', value: String(c.dbPort) },
        { name: 'DBCONFIG_MYSQLCONFIG_DBNAME', value: 'mlpipeline' },
        secretEnv('DBCONFIG_MYSQLCONFIG_USER', dbSecret, 'username'),
        secretEnv('DBCONFIG_MYSQLCONFIG_PASSWORD', dbSecret, 'password'),
        { name: 'OBJECTSTORECONFIG_HOST', value: c.s3Host },
        { name: 'OBJECTSTORECONFIG_PORT', value: String(c.s3Port) },
        { name: 'OBJECTSTORECONFIG_SECURE', value: String(c.s3Secure) },
        ...(c.s3Region ? [{ name: 'OBJECTSTORECONFIG_REGION', value: c.s3Region }] : []),
        { name: 'OBJECTSTORECONFIG_BUCKETNAME', value: bucket },
        secretEnv('OBJECTSTORECONFIG_ACCESSKEY', s3Secret, 'accesskey'),
        secretEnv('OBJECTSTORECONFIG_SECRETACCESSKEY', s3Secret, 'secretkey'),
        // The v2 driver and launcher of every run (else the compiler's :latest).
        { name: 'V2_DRIVER_IMAGE', value: this.image('driver') },
        { name: 'V2_LAUNCHER_IMAGE', value: this.image('launcher') },
      ],
      ports: [{ name: 'http', containerPort: 8888 }, { name: 'grpc', containerPort: 8887 }],
      // As upstream: a minute to connect to the database and migrate before liveness counts.
      startupProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 0, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 12 },
      livenessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      resources: { requests: { cpu: '250m', memory: '500Mi' } },
      volumes: [{ name: MLFLOW_CA_CONFIGMAP, configMap: { name: MLFLOW_CA_CONFIGMAP, optional: true } }],
      volumeMounts: [{ name: MLFLOW_CA_CONFIGMAP, mountPath: MLFLOW_CA_DIR, readOnly: true }],
      ...apiRbac,
      namespacedRules: [...(apiRbac.namespacedRules ?? []), ...API_SERVER_NAMESPACE_RULES],
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
      // It exits at start without this token (tokenrefresher reads persistenceagent-sa-token).
      ...apiToken('persistenceagent-sa-token'),
      service: false,
      resources: { requests: { cpu: '120m', memory: '500Mi' } },
      ...(multiUser ? { rules: PERSISTENCE_AGENT_RULES, accessReviews: [PERSISTENCE_AGENT_REPORT] } : rbac([...PERSISTENCE_AGENT_RULES, PERSISTENCE_AGENT_REPORT.rule])),
    });

    kfpWorkload('ScheduledWorkflowController', {
      name: 'ml-pipeline-scheduledworkflow',
      image: this.image('scheduledWorkflow'),
      selectorLabels: { app: 'ml-pipeline-scheduledworkflow' },
      env: [
        watched,
        { name: 'CRON_SCHEDULE_TIMEZONE', value: 'UTC' },
        // The image's command passes these as --clientQPS/--clientBurst/--recurringRunResyncIntervalSeconds/
        // --metricsPort (its own defaults 5, 10, 30, 9090): upstream's client rate is twice the image's.
        { name: 'CLIENT_QPS', value: '10' },
        { name: 'CLIENT_BURST', value: '20' },
        { name: 'RESYNC_INTERVAL_SECONDS', value: '30' },
        { name: 'METRICS_PORT', value: String(SWF_METRICS_PORT) },
        // Multi-user: runs it creates carry its own identity in the user header (the image's
        // command passes these as --userIdentityHeader/--userIdentityValue).
        ...(multiUser ? [
          { name: 'NAMESPACE_SELF', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          { name: 'SERVICE_ACCOUNT_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
          { name: 'USER_IDENTITY_HEADER', value: userIdHeader },
          { name: 'USER_IDENTITY_VALUE', value: 'system:serviceaccount:$(NAMESPACE_SELF):$(SERVICE_ACCOUNT_NAME)' },
        ] : []),
      ],
      ...apiToken('scheduledworkflow-sa-token'),
      ports: [{ name: 'http', containerPort: SWF_METRICS_PORT }],
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
      // Upstream's request, rather than the workload default (64Mi).
      resources: { requests: { cpu: '10m', memory: '70Mi' } },
      env: [
        // The host is complete (the UI appends MINIO_NAMESPACE to MINIO_HOST unless it is empty).
        { name: 'MINIO_NAMESPACE', value: '' },
        { name: 'MINIO_HOST', value: c.s3Host },
        { name: 'MINIO_PORT', value: String(c.s3Port) },
        { name: 'MINIO_SSL', value: String(c.s3Secure) },
        secretEnv('MINIO_ACCESS_KEY', s3Secret, 'accesskey'),
        secretEnv('MINIO_SECRET_KEY', s3Secret, 'secretkey'),
        { name: 'ALLOW_CUSTOM_VISUALIZATIONS', value: 'true' },
        { name: 'ARGO_ARCHIVE_LOGS', value: 'true' },
        { name: 'DISABLE_GKE_METADATA', value: 'true' },
        // Its own namespace (the UI's built-in default is kubeflow) and the TensorBoard viewers' pod template.
        { name: 'FRONTEND_SERVER_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'VIEWER_TENSORBOARD_POD_TEMPLATE_SPEC_PATH', value: `${UI_CONFIG_DIR}/viewer-pod-template.json` },
        ...(multiUser ? [
          // Multi-user: authorize every request as the user in the header (frontend/server/configs.ts at 2.17.0).
          { name: 'DEPLOYMENT', value: 'KUBEFLOW' },
          { name: 'ENABLE_AUTHZ', value: 'true' },
          ...userIdEnv,
          { name: 'ARTIFACTS_SERVICE_PROXY_NAME', value: 'ml-pipeline-ui-artifact' },
          { name: 'ARTIFACTS_SERVICE_PROXY_PORT', value: '80' },
          { name: 'ARTIFACTS_SERVICE_PROXY_ENABLED', value: String(artifactServer) },
        ] : []),
      ],
      ports: [{ name: 'http', containerPort: 3000 }],
      service: { ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      livenessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { httpGet: { path: HEALTHZ, port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      volumes: [{ name: 'config-volume', configMap: { name: UI_CONFIGMAP } }],
      volumeMounts: [{ name: 'config-volume', mountPath: UI_CONFIG_DIR, readOnly: true }],
      ...(multiUser ? { rules: UI_RULES, namespacedRules: UI_OWN_NAMESPACE_RULES } : { namespacedRules: [...UI_RULES, ...UI_OWN_NAMESPACE_RULES] }),
    });
    // TensorBoard viewers the UI starts run as the profile's editor (multi-user) or as
    // kubeflow-pipelines-viewer, which needs no API access (single-user).
    new k8s.KubeConfigMap(this, 'UiConfig', {
      metadata: { name: UI_CONFIGMAP, namespace: ns },
      data: { 'viewer-pod-template.json': JSON.stringify({ spec: { serviceAccountName: multiUser ? PROFILE_RUNNER_SERVICE_ACCOUNT : VIEWER_SERVICE_ACCOUNT } }, null, 2) },
    });
    if (!multiUser) {
      new k8s.KubeServiceAccount(this, 'ViewerServiceAccount', { metadata: { name: VIEWER_SERVICE_ACCOUNT, namespace: ns }, automountServiceAccountToken: false });
      // Runs execute in this namespace as pipeline-runner (the API server's default).
      new k8s.KubeServiceAccount(this, 'PipelineRunner', { metadata: { name: PIPELINE_RUNNER, namespace: ns } });
      roleObject(this, 'PipelineRunnerRole', { name: PIPELINE_RUNNER, namespace: ns, rules: PIPELINE_RUNNER_RULES });
      bindingObject(this, 'PipelineRunnerBinding', { name: `${PIPELINE_RUNNER}-binding`, namespace: ns, roleRef: { kind: 'Role', name: PIPELINE_RUNNER }, serviceAccounts: [{ name: PIPELINE_RUNNER, namespace: ns }] });
    }

    kfpWorkload('VisualizationServer', {
      name: 'ml-pipeline-visualizationserver',
      image: this.image('visualizationServer'),
      selectorLabels: { app: 'ml-pipeline-visualizationserver' },
      ports: [{ name: 'http', containerPort: 8888 }],
      // Upstream's probes: an HTTP GET of /, not only a port check.
      livenessProbe: { httpGet: { path: '/', port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { httpGet: { path: '/', port: 'http' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      resources: { requests: { cpu: '30m', memory: '500Mi' } },
    });

    // ML Metadata: the gRPC store server on the shared database, envoy for the UI, and the writer.
    kfpWorkload('MetadataGrpc', {
      name: 'metadata-grpc-deployment',
      containerName: 'container',
      serviceAccountName: 'metadata-grpc-server',
      image: this.image('metadataGrpc'),
      selectorLabels: { component: 'metadata-grpc-server' },
      command: ['/bin/metadata_store_server'],
      // Upstream's flags at 2.17.0 (base/metadata/base/metadata-grpc-deployment.yaml).
      args: [`--grpc_port=${MLMD_PORT}`, '--mysql_config_database=metadb', `--mysql_config_host=${c.dbHost}`, `--mysql_config_port=${c.dbPort}`,
        '--mysql_config_user=$(DBCONFIG_USER)', '--mysql_config_password=$(DBCONFIG_PASSWORD)', '--enable_database_upgrade=true',
        `--grpc_channel_arguments=${MLMD_GRPC_CHANNEL_ARGS}`],
      env: dbEnv,
      ports: [{ name: 'grpc-api', containerPort: MLMD_PORT }],
      service: { name: 'metadata-grpc-service', ports: [{ name: 'grpc-api', port: MLMD_PORT, targetPort: 'grpc-api' }] },
      livenessProbe: { tcpSocket: { port: 'grpc-api' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
      readinessProbe: { tcpSocket: { port: 'grpc-api' }, initialDelaySeconds: 3, periodSeconds: 5, timeoutSeconds: 2 },
    });
    // Where runs' driver and launcher find ML Metadata (argocompiler injects it with envFrom; optional there).
    new k8s.KubeConfigMap(this, 'MetadataGrpcConfig', {
      metadata: { name: 'metadata-grpc-configmap', namespace: ns, labels: { component: 'metadata-grpc-server' } },
      data: { METADATA_GRPC_SERVICE_HOST: 'metadata-grpc-service', METADATA_GRPC_SERVICE_PORT: String(MLMD_PORT) },
    });
    // The envoy image's entrypoint is `envoy -c`: its one argument is the config file, which
    // upstream ships as a ConfigMap read at run time. The config is ours (metadataEnvoyConfig).
    new k8s.KubeConfigMap(this, 'MetadataEnvoyConfig', {
      metadata: { name: ENVOY_CONFIGMAP, namespace: ns, labels: { component: 'metadata-envoy' } },
      data: { [ENVOY_CONFIG_KEY]: metadataEnvoyConfig(`metadata-grpc-service.${ns}`) },
    });
    kfpWorkload('MetadataEnvoy', {
      name: 'metadata-envoy-deployment',
      containerName: 'container',
      image: this.image('metadataEnvoy'),
      selectorLabels: { component: 'metadata-envoy' },
      // As upstream: no Istio sidecar (envoy speaks gRPC-Web to the UI itself).
      istioSidecar: false,
      args: [`${ENVOY_CONFIG_DIR}/${ENVOY_CONFIG_KEY}`],
      ports: [{ name: 'md-envoy', containerPort: ENVOY_PORT }],
      service: { name: 'metadata-envoy-service', ports: [{ name: 'md-envoy', port: ENVOY_PORT, targetPort: 'md-envoy' }] },
      readinessProbe: { tcpSocket: { port: 'md-envoy' } },
      volumes: [{ name: 'envoy-config', configMap: { name: ENVOY_CONFIGMAP } }],
      volumeMounts: [{ name: 'envoy-config', mountPath: ENVOY_CONFIG_DIR, readOnly: true }],
    });
    kfpWorkload('MetadataWriter', {
      name: 'metadata-writer',
      containerName: 'main',
      serviceAccountName: 'kubeflow-pipelines-metadata-writer',
      image: this.image('metadataWriter'),
      selectorLabels: { app: 'metadata-writer' },
      env: [{ ...watched, name: 'NAMESPACE_TO_WATCH' }],
      service: false,
      ...rbac(METADATA_WRITER_RULES),
    });

    if (props.cache ?? true) {
      // The cache server's flags at 2.17.0 (backend/src/cache/main.go); upstream fills the
      // same flags from env and pipeline-install-config, we give the values directly.
      const cache = kfpWorkload('CacheServer', {
        name: 'cache-server',
        containerName: 'server',
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
        // Where the platform isolates the namespace (kubeflow/manifests' cache-server policy).
        isolationPolicy: { name: 'cache-server' },
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
        frontendImage: artifactServer ? this.image('frontend') : undefined,
        objectStoreSecret: s3Secret,
        defaultPipelineRoot: props.defaultPipelineRoot,
        bucket,
        objectStoreAccess: tenantAccess!,
      });
      for (const [key, value] of Object.entries(PIPELINES_ENABLED_LABEL)) {
        this.requireTenantNamespaceLabel({ key, value, reason: 'the Pipelines profile hook gives only namespaces with it their Pipelines objects (artifact server, metadata and object store settings)' });
      }
      this.metacontroller = new Metacontroller(this, 'Metacontroller', { image: this.image('metacontroller'), childRules: this.profileHook.childRules });
    }

    if (gateway !== false) this.addIstioRoutes(gateway);

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
    addPipelinesPolicies(this, { multiUser, tenantIdentities: !!this.profileHook && this.profileHook.objectStoreAccess !== 'shared' });
  }

  /** Upstream's multi-user routes: /pipeline to the UI (which the dashboard links to) and /ml_metadata to the envoy. */
  /** The profile hook's object store access, checked against the object store (KFP-TENANT-S3). */
  private tenantObjectStoreAccess(props: KubeflowPipelinesProps): PipelinesProfileHookProps['objectStoreAccess'] {
    const access = props.tenantObjectStoreAccess ?? TenantObjectStoreAccess.PER_NAMESPACE;
    if (!Object.values(TenantObjectStoreAccess).includes(access)) {
      throw new Error(`${this.node.path}: tenantObjectStoreAccess '${access}' is not one of ${Object.values(TenantObjectStoreAccess).join(', ')}; use TenantObjectStoreAccess.PER_NAMESPACE or TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS`);
    }
    if (access === TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS) return 'shared';
    const store = props.objectStore ?? { included: {} };
    if ('external' in store) {
      throw new Error(
        `${this.node.path}: tenantObjectStoreAccess is per-namespace (the default), but objectStore is external (${store.external.host}): the profile hook can create per-namespace identities only in the included SeaweedFS, ` +
          'so every profile namespace would get a copy of the admin object store credentials and any tenant could read and overwrite every other tenant\'s artifacts. ' +
          'Use objectStore: { included: {} }, or accept the sharing with tenantObjectStoreAccess: TenantObjectStoreAccess.SHARED_ADMIN_CREDENTIALS',
      );
    }
    const host = `seaweedfs.${this.namespaceName}`;
    return { perNamespace: { iamEndpoint: `http://${host}:8111`, s3Endpoint: `http://${host}:8333` } };
  }

  private addIstioRoutes(gateway: string): void {
    const ns = this.namespaceName;
    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the Pipelines UI is routed at /pipeline through the Istio gateway (istioGateway: false turns this off)' });
    const route = (id: string, name: string, prefix: string, host: string, port: number, extra: Record<string, unknown> = {}) => new ApiObject(this, id, {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name, namespace: ns },
      spec: {
        gateways: [gateway],
        hosts: ['*'],
        http: [{ match: [{ uri: { prefix } }], rewrite: { uri: prefix }, route: [{ destination: { host: `${host}.${ns}.svc.cluster.local`, port: { number: port } } }], ...extra }],
      },
    });
    route('UiVirtualService', 'ml-pipeline-ui', '/pipeline', 'ml-pipeline-ui', 80, { timeout: '300s' });
    route('MetadataVirtualService', 'metadata-grpc', '/ml_metadata', 'metadata-envoy-service', ENVOY_PORT);
  }
}

/**
 * Argo Workflows' default artifact repository as KFP's install sets it: the included
 * SeaweedFS (seaweedfs Service, S3 on 9000, plain HTTP), the bucket, and the object store
 * Secret's keys (in multi-user mode the profile hook copies that Secret into each profile
 * namespace), with archived logs and outputs kept under private-artifacts/<namespace>/.
 * Give it to ArgoWorkflows' artifactRepository in a platform that includes both.
 */
export function pipelinesArtifactRepository(props: { readonly namespace?: string; readonly bucket?: string; readonly objectStoreSecret?: string } = {}): S3ArtifactRepository {
  const secret = props.objectStoreSecret ?? 'mlpipeline-minio-artifact';
  return {
    endpoint: `seaweedfs.${props.namespace ?? 'kubeflow'}.svc:9000`,
    bucket: props.bucket ?? 'mlpipeline',
    insecure: true,
    keyFormat: 'private-artifacts/{{workflow.namespace}}/{{workflow.name}}/{{workflow.creationTimestamp.Y}}/{{workflow.creationTimestamp.m}}/{{workflow.creationTimestamp.d}}/{{pod.name}}',
    accessKeySecret: { name: secret, key: 'accesskey' },
    secretKeySecret: { name: secret, key: 'secretkey' },
  };
}

/**
 * The executor settings Kubeflow Pipelines 2.17.0 gives Argo's workflow pods (its install's
 * workflow-controller-configmap `executor`): non-root as uid 65532, no privilege escalation,
 * every capability dropped, the runtime's default seccomp profile.
 */
export function pipelinesExecutorSettings(): ArgoExecutorSettings {
  return {
    imagePullPolicy: 'IfNotPresent',
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 65532,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
  };
}

/**
 * The errors Kubeflow Pipelines 2.17.0's install has Argo's workflow controller retry as
 * transient (its TRANSIENT_ERROR_PATTERN): node shutdown, preemption, eviction, spot
 * reclaims, deleted pods. Go regular expression syntax.
 */
export const PIPELINES_TRANSIENT_ERROR_PATTERN = '(?i)(imminent node shutdown|node is shutting down|preempt|evict|spot|pod deleted)';

/** The workflow defaults of Kubeflow Pipelines 2.17.0's install: finished runs kept an hour, a failed step retried twice on error. */
export function pipelinesWorkflowDefaults(): ArgoWorkflowDefaults {
  return { ttlSecondsAfterFinished: 3600, retry: { limit: 2, retryPolicy: 'OnError' } };
}

/**
 * The metadata envoy's configuration (written here, not taken from upstream): one listener on
 * the envoy port that turns the UI's gRPC-Web calls (with CORS) into HTTP/2 gRPC to the ML
 * Metadata server, and the admin interface on localhost only.
 */
export function metadataEnvoyConfig(mlmdHost: string): string {
  const typed = (type: string) => ({ '@type': `type.googleapis.com/${type}` });
  return stringify({
    admin: { address: { socket_address: { address: '127.0.0.1', port_value: 9901 } } },
    static_resources: {
      listeners: [{
        name: 'grpc-web',
        address: { socket_address: { address: '0.0.0.0', port_value: ENVOY_PORT } },
        filter_chains: [{
          filters: [{
            name: 'envoy.filters.network.http_connection_manager',
            typed_config: {
              ...typed('envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager'),
              stat_prefix: 'metadata',
              codec_type: 'AUTO',
              route_config: {
                name: 'metadata',
                virtual_hosts: [{
                  name: 'metadata',
                  domains: ['*'],
                  routes: [{
                    match: { prefix: '/' },
                    // No deadline of envoy's own: streams last as long as the caller's grpc-timeout.
                    route: { cluster: 'mlmd', max_stream_duration: { grpc_timeout_header_max: '0s' } },
                  }],
                  typed_per_filter_config: {
                    'envoy.filters.http.cors': {
                      ...typed('envoy.extensions.filters.http.cors.v3.CorsPolicy'),
                      allow_origin_string_match: [{ safe_regex: { regex: '.*' } }],
                      allow_methods: 'GET, PUT, DELETE, POST, OPTIONS',
                      allow_headers: 'keep-alive,user-agent,cache-control,content-type,content-transfer-encoding,x-accept-content-transfer-encoding,x-accept-response-streaming,x-user-agent,x-grpc-web,grpc-timeout',
                      expose_headers: 'grpc-status,grpc-message',
                      max_age: '1728000',
                    },
                  },
                }],
              },
              http_filters: [
                { name: 'envoy.filters.http.grpc_web', typed_config: typed('envoy.extensions.filters.http.grpc_web.v3.GrpcWeb') },
                { name: 'envoy.filters.http.cors', typed_config: typed('envoy.extensions.filters.http.cors.v3.Cors') },
                { name: 'envoy.filters.http.router', typed_config: typed('envoy.extensions.filters.http.router.v3.Router') },
              ],
            },
          }],
        }],
      }],
      clusters: [{
        name: 'mlmd',
        type: 'LOGICAL_DNS',
        connect_timeout: '30s',
        lb_policy: 'ROUND_ROBIN',
        typed_extension_protocol_options: {
          'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
            ...typed('envoy.extensions.upstreams.http.v3.HttpProtocolOptions'),
            explicit_http_config: { http2_protocol_options: {} },
          },
        },
        load_assignment: {
          cluster_name: 'mlmd',
          endpoints: [{ lb_endpoints: [{ endpoint: { address: { socket_address: { address: mlmdHost, port_value: MLMD_PORT } } } }] }],
        },
      }],
    },
  });
}
