import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { isolationPolicyDeviations, itemDeviations, networkPolicyDeviation, valueDeviation } from '../../lib/parity-items';

type Status = 'missing' | 'extra' | 'differs';
const C = DeviationCategory;
const F = FactKind;

const whole = (kind: FactKind, object: string, status: Status, category: DeviationCategory, reason: string): ParityDeviation => ({ fact: { kind, object, status }, category, reason });
const verbs = (prefix: string, vs: readonly string[]) => vs.map((v) => `${prefix}|${v}`);
const CRUD = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

const API = 'Deployment/ml-pipeline container ml-pipeline-api-server';
const CACHE = 'Deployment/cache-server container server';
const MLMD = 'Deployment/metadata-grpc-deployment container container';
const HOOK = 'Deployment/kubeflow-pipelines-profile-controller container profile-controller';
const SWF = 'Deployment/ml-pipeline-scheduledworkflow container ml-pipeline-scheduledworkflow';
const UI = 'Deployment/ml-pipeline-ui container ml-pipeline-ui';
const ENVOY = 'Deployment/metadata-envoy-deployment container container';

const LITERAL_VALUES = 'the construct writes the values (the database host, port and name of its connection, the webhook port) into the flags directly, where upstream\'s expand env sourced from pipeline-install-config, a kustomize parameter ConfigMap.';
const INSTALL_CONFIG = 'pipeline-install-config is a kustomize parameter ConfigMap that upstream\'s workloads reference for env values; the construct gives those values directly, so no program reads the ConfigMap.';
const INIT = 'no init containers waiting for MySQL, ML Metadata or the API server: the servers retry their connections or restart, and the API server has a startup probe (upstream\'s too).';
const SELECTOR = 'each Service selects its backend by the one label only that workload\'s pods carry (app or component); upstream\'s extra labels are common to every Pipelines pod and select nothing more.';
const HOOK_SCRIPT = 'the profile hook is this project\'s own Node.js script (profile-hook-script.ts), run by metacontroller as upstream\'s Python one is; it creates each profile namespace\'s SeaweedFS identity through the IAM API and writes the kfp-launcher ConfigMap as upstream\'s does, and reads the env the construct gives it (settings upstream takes from pipeline-install-config are written directly; no bucket lifecycle policy, no artifact-repositories ConfigMap: Argo\'s global artifact repository already keys logs by namespace).';
const DEFAULTS = 'upstream passes the value the program at 2.17.0 uses when the variable is unset or empty (checked in its source), so leaving it out changes nothing.';
const ARGO = 'the workflow controller and its ConfigMap are the ArgoWorkflows component\'s, which the kubeflow platform runs next to Pipelines (with the artifact repository of Pipelines\' object store).';

/**
 * Kubeflow Pipelines' differences from upstream's multi-user install at 2.17.0
 * (env/platform-agnostic-multi-user), each checked against the programs at that tag.
 */
export function kubeflowPipelinesParityDeviations(multiUser: boolean, o: { readonly tenantIdentities: boolean } = { tenantIdentities: true }): ParityDeviation[] {
  const common: ParityDeviation[] = [
    // Values from pipeline-install-config, given directly.
    whole(F.CONFIGMAP, 'pipeline-install-config', 'missing', C.PLATFORM_INTEGRATION, INSTALL_CONFIG),
    ...itemDeviations({ kind: F.ARG, object: CACHE, status: 'missing' }, ['--db_driver=$(DBCONFIG_DRIVER)', '--db_host=$(DBCONFIG_HOST_NAME)', '--db_name=$(DBCONFIG_DB_NAME)', '--db_port=$(DBCONFIG_PORT)', '--listen_port=$(WEBHOOK_PORT)'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ARG, object: CACHE, status: 'extra' }, ['--db_driver=mysql', '--db_host=mysql', '--db_name=cachedb', '--db_port=3306', '--listen_port=8443'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ENV, object: CACHE, status: 'missing' }, ['DBCONFIG_DB_NAME', 'DBCONFIG_DRIVER', 'DBCONFIG_HOST_NAME', 'DBCONFIG_PORT', 'WEBHOOK_PORT'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ARG, object: MLMD, status: 'missing' }, ['--mysql_config_database=$(MYSQL_DATABASE)', '--mysql_config_host=$(MYSQL_HOST)', '--mysql_config_port=$(MYSQL_PORT)'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ARG, object: MLMD, status: 'extra' }, ['--mysql_config_database=metadb', '--mysql_config_host=mysql', '--mysql_config_port=3306'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ENV, object: MLMD, status: 'missing' }, ['MYSQL_DATABASE', 'MYSQL_HOST', 'MYSQL_PORT'], C.PLATFORM_INTEGRATION, LITERAL_VALUES),
    ...itemDeviations({ kind: F.ARG, object: CACHE, status: 'extra' }, ['--tls_cert_filename=tls.crt', '--tls_key_filename=tls.key'], C.PLATFORM_INTEGRATION,
      'the cache webhook\'s key pair comes from the platform\'s certificate provider as a kubernetes.io/tls Secret (tls.crt, tls.key), not from the cache deployer, so the server is told those file names.'),
    // Cache server env at the program's defaults.
    ...itemDeviations({ kind: F.ENV, object: CACHE, status: 'missing' }, ['CACHE_IMAGE', 'CACHE_NODE_RESTRICTIONS', 'DEFAULT_CACHE_STALENESS', 'MAXIMUM_CACHE_STALENESS'], C.NOT_INSTALLED,
      'upstream sets ghcr.io/containerd/busybox, false and empty stalenesses, which are exactly what the cache server at 2.17.0 uses when these are unset (server/mutation.go, watcher.go).'),
    // The API server.
    ...itemDeviations({ kind: F.ENV, object: API, status: 'missing' }, ['DBCONFIG_USER', 'DBCONFIG_PASSWORD', 'DBCONFIG_DBNAME', 'DBCONFIG_HOST', 'DBCONFIG_PORT', 'DB_DRIVER_NAME'], C.NOT_INSTALLED,
      'no setting of the API server at 2.17.0 reads these names (it reads DBConfig.MySQLConfig.*, given as DBCONFIG_MYSQLCONFIG_*, and DBDriverName from its config.json, mysql).'),
    ...itemDeviations({ kind: F.ENV, object: API, status: 'missing' }, ['DBCONFIG_CONMAXLIFETIME', 'AUTO_UPDATE_PIPELINE_DEFAULT_VERSION', 'BLOCK_V1_PIPELINES', 'V1_ALLOWED_NAMESPACES', 'CLUSTER_DOMAIN', 'COMPILED_PIPELINE_SPEC_PATCH',
      'DEFAULT_SECURITY_CONTEXT_HOST_USERS', 'DEFAULT_SECURITY_CONTEXT_RUN_AS_GROUP', 'DEFAULT_SECURITY_CONTEXT_RUN_AS_NON_ROOT', 'DEFAULT_SECURITY_CONTEXT_RUN_AS_USER'], C.NOT_INSTALLED,
    `${DEFAULTS} (120s from config.json, true, false, empty, cluster.local, {} and empty security-context defaults in common/config.go)`),
    ...itemDeviations({ kind: F.ENV, object: API, status: 'missing' }, ['LOG_LEVEL', 'PIPELINE_LOG_LEVEL', 'PUBLISH_LOGS'], C.NOT_INSTALLED,
      'upstream\'s values are the defaults at 2.17.0: the API server logs at info without a level, and the compiler passes PIPELINE_LOG_LEVEL and PUBLISH_LOGS to drivers and launchers only when set, whose flags default to 1 and true (argocompiler/container.go, cmd/driver, cmd/launcher-v2).'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/ml-pipeline-persistenceagent container ml-pipeline-persistenceagent', status: 'missing' }, ['LOG_LEVEL'], C.NOT_INSTALLED,
      'the persistence agent image sets LOG_LEVEL=info itself (Dockerfile.persistenceagent at 2.17.0), the value upstream gives.'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/ml-pipeline-scheduledworkflow container ml-pipeline-scheduledworkflow', status: 'missing' }, ['LOG_LEVEL'], C.NOT_INSTALLED,
      'the scheduled-workflow image sets LOG_LEVEL=info itself (Dockerfile.scheduledworkflow at 2.17.0), the value upstream gives.'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/ml-pipeline-ui container ml-pipeline-ui', status: 'missing' }, ['ARTIFACT_NAMESPACE_KEY_PREFIX', 'ARTIFACT_NAMESPACE_OWNERSHIP_MODE', 'CLUSTER_DOMAIN'], C.NOT_INSTALLED,
      'upstream references optional keys of pipeline-install-config that its ConfigMap does not carry, so these variables are unset in upstream\'s UI too.'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/ml-pipeline-ui container ml-pipeline-ui', status: 'extra' }, ['MINIO_HOST', 'MINIO_PORT', 'MINIO_SSL'], C.PLATFORM_INTEGRATION,
      'the UI is given the object store\'s host, port and scheme of the configured store (included SeaweedFS or external S3), where upstream relies on the UI\'s built-in seaweedfs host in its own namespace (frontend/server/configs.ts at 2.17.0), which fits only the included store.'),
    ...itemDeviations({ kind: F.PORT, object: 'Deployment/metadata-envoy-deployment container container', status: 'missing' }, ['9901/TCP'], C.HARDENING,
      'the metadata Envoy\'s admin interface listens on 127.0.0.1 only, so it is not a container port other pods can reach.'),
    ...itemDeviations({ kind: F.PORT, object: 'Deployment/seaweedfs container seaweedfs', status: 'extra' }, ['18888/TCP'], C.HARDENING,
      'the filer gRPC port SeaweedFS serves (upstream\'s seaweedfs Service targets 18888 too) is declared as a named container port, which the Service targets by name.'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/mysql container mysql', status: 'missing' }, ['MYSQL_ALLOW_EMPTY_PASSWORD'], C.HARDENING,
      'MySQL\'s root password comes from the user\'s database Secret, not an empty password.'),
    ...itemDeviations({ kind: F.ENV, object: 'Deployment/mysql container mysql', status: 'extra' }, ['MYSQL_ROOT_PASSWORD'], C.HARDENING,
      'MySQL\'s root password comes from the user\'s database Secret, not an empty password.'),
    ...itemDeviations({ kind: F.PROBE, object: 'Deployment/mysql container mysql', status: 'extra' }, ['readiness'], C.HARDENING,
      'a TCP readiness probe on 3306, so that the mysql Service sends the API server and metadata server connections only once MySQL accepts them; upstream has none (and, as upstream, no liveness probe restarts it while it initializes).'),
    // Init containers.
    ...itemDeviations({ kind: F.CONTAINER, object: 'Deployment/ml-pipeline', status: 'missing' }, ['init:wait-for-database', 'init:wait-for-metadata-grpc'], C.NOT_INSTALLED, INIT),
    ...itemDeviations({ kind: F.CONTAINER, object: 'Deployment/metadata-grpc-deployment', status: 'missing' }, ['init:wait-for-database'], C.NOT_INSTALLED, INIT),
    ...itemDeviations({ kind: F.CONTAINER, object: 'Deployment/metadata-writer', status: 'missing' }, ['init:wait-for-metadata-grpc'], C.NOT_INSTALLED, INIT),
    ...itemDeviations({ kind: F.CONTAINER, object: 'Deployment/ml-pipeline-persistenceagent', status: 'missing' }, ['init:wait-for-ml-pipeline'], C.NOT_INSTALLED, INIT),
    ...itemDeviations({ kind: F.CONTAINER, object: 'Deployment/ml-pipeline-scheduledworkflow', status: 'missing' }, ['init:wait-for-ml-pipeline'], C.NOT_INSTALLED, INIT),
    // Selectors.
    ...['cache-server', 'ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-visualizationserver'].flatMap((svc) =>
      itemDeviations({ kind: F.SERVICE_SELECTOR, object: svc, status: 'missing' }, ['app.kubernetes.io/component', 'app.kubernetes.io/name', 'application-crd-id'], C.PLATFORM_INTEGRATION, SELECTOR)),
    ...['metadata-envoy-service', 'metadata-grpc-service', 'mysql', 'seaweedfs'].flatMap((svc) =>
      itemDeviations({ kind: F.SERVICE_SELECTOR, object: svc, status: 'missing' }, ['application-crd-id'], C.PLATFORM_INTEGRATION, SELECTOR)),
    // RBAC.
    ...itemDeviations({ kind: F.RBAC, object: 'Deployment/cache-server', status: 'missing' }, ['|configmaps|get'], C.SCOPED_RBAC,
      'the cache server at 2.17.0 reads no ConfigMap; upstream\'s role carries the grant for the cache deployer, which is not installed.'),
    ...itemDeviations({ kind: F.RBAC, object: 'Deployment/ml-pipeline-viewer-crd', status: 'missing' }, [...verbs('*|deployments', CRUD), ...verbs('*|services', CRUD)], C.SCOPED_RBAC,
      'the viewer controller at 2.17.0 manages apps/v1 Deployments and core Services only, so its grants name those groups instead of \'*\'.'),
    ...itemDeviations({ kind: F.RBAC, object: 'Deployment/ml-pipeline-viewer-crd', status: 'extra' }, [...verbs('apps|deployments', CRUD), ...verbs('|services', CRUD)], C.SCOPED_RBAC,
      'the viewer controller at 2.17.0 manages apps/v1 Deployments and core Services only, so its grants name those groups instead of \'*\'.'),
    // Not installed.
    whole(F.WORKLOAD, 'Deployment/cache-deployer-deployment', 'missing', C.PLATFORM_INTEGRATION,
      'no cache deployer: the cache webhook\'s certificate comes from the platform\'s certificate provider and its MutatingWebhookConfiguration is shipped, not created at run time.'),
    whole(F.WEBHOOK, 'mutating cache-server.kubeflow.svc', 'extra', C.PLATFORM_INTEGRATION,
      'the cache webhook configuration upstream\'s cache deployer creates at run time is shipped with the component instead (the cache deployer is not installed).'),
    whole(F.WORKLOAD, 'Deployment/workflow-controller', 'missing', C.PLATFORM_INTEGRATION, ARGO),
    whole(F.CONFIGMAP, 'workflow-controller-configmap', 'missing', C.PLATFORM_INTEGRATION, ARGO),
    whole(F.CONFIGMAP, 'kubeflow-pipelines-public', 'missing', C.NOT_INSTALLED,
      'a ConfigMap holding only the Pipelines version string for a public-read Role; no Pipelines program reads it.'),
    whole(F.CONFIGMAP, 'kfp-launcher', 'missing', C.NOT_INSTALLED,
      'upstream\'s kfp-launcher in the Pipelines namespace has an empty defaultPipelineRoot, which the launcher treats as unset: runs there use the launcher\'s built-in root either way' +
        (multiUser ? '; runs in profile namespaces read the kfp-launcher the profile hook writes in each (upstream\'s minio://<bucket>/private-artifacts/<namespace>/v2/artifacts unless defaultPipelineRoot is set).' : '.')),
  ];
  if (!multiUser) return common;
  const policies: ParityDeviation[] = [
    ...isolationPolicyDeviations(['cache-server', 'metadata-grpc-server', 'metatada-envoy', 'ml-pipeline', 'ml-pipeline-ui']),
    networkPolicyDeviation('minio', 'missing', C.NOT_INSTALLED,
      'kubeflow/manifests v1.11.0\'s policy for MinIO, which Pipelines 2.17.0 replaced with SeaweedFS; the seaweedfs policy 2.17.0 ships admits the same sources to the object store.'),
    networkPolicyDeviation('seaweedfs', 'extra', C.PLATFORM_INTEGRATION,
      'Pipelines 2.17.0\'s own policy for its object store (SeaweedFS), in place of kubeflow/manifests\' minio.'),
    ...(o.tenantIdentities ? [{
      fact: { kind: F.NETWORK_POLICY_RULE, object: 'NetworkPolicy/seaweedfs', item: 'ingress from pods app=kubeflow-pipelines-profile-controller to 8111/TCP', status: 'extra' as const },
      category: C.PLATFORM_INTEGRATION,
      reason: 'the profile hook creates each tenant\'s object store identity through SeaweedFS\'s IAM API (port 8111), which the policy must then admit from the hook\'s pods.',
    }] : []),
  ];
  return [
    ...policies,
    ...common,
    whole(F.CONFIGMAP, 'pipeline-api-server-config', 'missing', C.PLATFORM_INTEGRATION,
      'the four settings upstream passes to the API server through envFrom this ConfigMap (MULTIUSER, DEFAULTPIPELINERUNNERSERVICEACCOUNT, VISUALIZATIONSERVICE_NAME, VISUALIZATIONSERVICE_PORT) are given as env directly.'),
    ...itemDeviations({ kind: F.ENV, object: API, status: 'extra' }, ['MULTIUSER', 'DEFAULTPIPELINERUNNERSERVICEACCOUNT', 'VISUALIZATIONSERVICE_NAME', 'VISUALIZATIONSERVICE_PORT'], C.PLATFORM_INTEGRATION,
      'the four settings upstream passes to the API server through envFrom pipeline-api-server-config are given as env directly, with upstream\'s values (true, default-editor, ml-pipeline-visualizationserver, 8888).'),
    ...itemDeviations({ kind: F.RBAC, object: 'Deployment/ml-pipeline', status: 'differs' }, ['|configmaps|get', '|secrets|get'], C.PLATFORM_INTEGRATION,
      'multi-user, the API server reads kfp-launcher and kfp-mlflow-credentials in every profile namespace through its ClusterRole (by name, as upstream\'s), which covers the same grant upstream repeats in a Role of its namespace.'),
    // The profile hook.
    ...itemDeviations({ kind: F.SERVICE_SELECTOR, object: 'kubeflow-pipelines-profile-controller', status: 'missing' }, ['app.kubernetes.io/component', 'app.kubernetes.io/name', 'application-crd-id'], C.PLATFORM_INTEGRATION, SELECTOR),
    { fact: { kind: F.COMMAND, object: HOOK, status: 'differs', upstream: '["python","/hooks/sync.py"]' }, category: C.PLATFORM_INTEGRATION, reason: HOOK_SCRIPT },
    whole(F.CONFIGMAP, 'kubeflow-pipelines-profile-controller-env', 'missing', C.PLATFORM_INTEGRATION, HOOK_SCRIPT),
    ...itemDeviations({ kind: F.CONFIGMAP_KEY, object: 'kubeflow-pipelines-profile-controller-code', status: 'missing' }, ['sync.py'], C.PLATFORM_INTEGRATION, HOOK_SCRIPT),
    ...itemDeviations({ kind: F.CONFIGMAP_KEY, object: 'kubeflow-pipelines-profile-controller-code', status: 'extra' }, ['sync.js'], C.PLATFORM_INTEGRATION, HOOK_SCRIPT),
    ...itemDeviations({ kind: F.ENV, object: HOOK, status: 'missing' }, ['ARTIFACTS_PROXY_ENABLED', 'ARTIFACT_RETENTION_DAYS', 'KFP_DEFAULT_PIPELINE_ROOT', 'KFP_VERSION', 'OBJECT_STORE_HOST',
      ...(o.tenantIdentities ? [] : ['AWS_ENDPOINT_URL', 'AWS_REGION', 'S3_ENDPOINT_URL'])], C.PLATFORM_INTEGRATION, HOOK_SCRIPT),
    ...itemDeviations({ kind: F.ENV, object: HOOK, status: 'extra' }, ['BUCKET', 'FRONTEND_IMAGE', 'KFP_NAMESPACE', 'OBJECT_STORE_ISOLATION', 'PORT'], C.PLATFORM_INTEGRATION, HOOK_SCRIPT),
    ...itemDeviations({ kind: F.RBAC, object: 'StatefulSet/metacontroller', status: 'missing' }, [...verbs('networking.istio.io|destinationrules', CRUD), ...verbs('security.istio.io|authorizationpolicies', CRUD)], C.SCOPED_RBAC,
      'metacontroller gets what the hooks of this platform return as children; the profile hook returns no Istio DestinationRule or AuthorizationPolicy.'),
    // Values upstream takes from pipeline-install-config, written in.
    ...([
      [API, 'DBCONFIG_MYSQLCONFIG_DBNAME', 'pipelineDb'], [API, 'DBCONFIG_MYSQLCONFIG_HOST', 'mysqlHost'], [API, 'DBCONFIG_MYSQLCONFIG_PORT', 'mysqlPort'],
      [API, 'KUBEFLOW_USERID_HEADER', 'USERID_HEADER'], [API, 'KUBEFLOW_USERID_PREFIX', 'USERID_PREFIX'], [API, 'OBJECTSTORECONFIG_BUCKETNAME', 'bucketName'],
      [SWF, 'CRON_SCHEDULE_TIMEZONE', 'cronScheduleTimezone'], [SWF, 'USER_IDENTITY_HEADER', 'USERID_HEADER'],
      [UI, 'ARTIFACTS_SERVICE_PROXY_ENABLED', 'ARTIFACTS_PROXY_ENABLED'], [UI, 'KUBEFLOW_USERID_HEADER', 'USERID_HEADER'], [UI, 'KUBEFLOW_USERID_PREFIX', 'USERID_PREFIX'],
    ] as const).map(([object, item, key]) => valueDeviation({ kind: F.ENV, object, item }, `configMapKeyRef pipeline-install-config/${key}`, C.PLATFORM_INTEGRATION, INSTALL_CONFIG)),
    valueDeviation({ kind: F.ENV, object: UI, item: 'MINIO_NAMESPACE' }, 'fieldRef metadata.namespace', C.PLATFORM_INTEGRATION,
      'MINIO_HOST is the object store\'s complete host name (the platform\'s, in any namespace); the UI appends MINIO_NAMESPACE to it unless empty.'),
    {
      fact: { kind: F.ENV_FROM, object: API, item: 'configMap:pipeline-api-server-config', status: 'missing' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'the two settings upstream passes to the API server through envFrom pipeline-api-server-config are given as env directly, with upstream\'s values (true, default-editor).',
    },
    { fact: { kind: F.ENV_FROM, object: HOOK, item: 'configMap:kubeflow-pipelines-profile-controller-env', status: 'missing' }, category: C.PLATFORM_INTEGRATION, reason: HOOK_SCRIPT },
    ...itemDeviations({ kind: F.PROBE, object: HOOK, status: 'extra' }, ['liveness', 'readiness'], C.HARDENING,
      'the project\'s hook script answers GET /healthz (profile-hook-script.ts), so the kubelet restarts a hung hook server and the Service sends metacontroller only to a started one.'),
    {
      fact: { kind: F.PROBE, object: ENVOY, item: 'readiness', status: 'extra' },
      category: C.HARDENING,
      reason: 'the metadata Envoy is ready once its listener accepts connections, so that its Service routes only to a started proxy.',
    },
  ];
}
