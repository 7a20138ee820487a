import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { metav1Condition } from '../../../lib/schema/common';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

export const DSPA_GROUP = 'datasciencepipelinesapplications.opendatahub.io';

/** CPU and memory only, as DSPO's own ResourceRequirements type. */
const cpuMemory = () => s.object({ cpu: s.quantity(), memory: s.quantity() }).named('CpuMemory');
const resources = () => s.object({ requests: cpuMemory(), limits: cpuMemory() }).named('ResourceRequirements');
const secretKey = () => s.object({ name: s.string().required(), key: s.string().required() }).named('SecretKeyValue');
const s3Credentials = () => s.object({
  secretName: s.string().required().describe('Secret holding the keys.'),
  accessKey: s.string().required().describe('Key of the access key in the Secret.'),
  secretKey: s.string().required().describe('Key of the secret key in the Secret.'),
}).named('S3CredentialSecret');
const image = () => s.string().describe('Overrides the image the operator deploys.');

const apiServer = s.object({
  deploy: s.boolean().default(true),
  image: image(),
  argoLauncherImage: s.string(),
  argoDriverImage: s.string(),
  resources: resources(),
  enableOauth: s.boolean().default(true).describe('Front the API server with an OAuth proxy (OpenShift).'),
  enableSamplePipeline: s.boolean().default(false),
  cacheEnabled: s.boolean().default(true),
  pipelineStore: s.enum('database', 'kubernetes').default('database').describe('Where pipelines are stored: the database, or Pipeline/PipelineVersion custom resources (which turns on the runtime-created webhooks).'),
  customServerConfigMap: s.object({ name: s.string(), key: s.string() }).named('ScriptConfigMap'),
  customKfpLauncherConfigMap: s.string(),
  cABundle: s.object({ configMapName: s.string().required(), configMapKey: s.string().required() }).named('CABundle'),
  caBundleFileName: s.string(),
  caBundleFileMountPath: s.string(),
  artifactSignedURLExpirySeconds: s.integer().default(60),
  resourceTTL: s.string({ minLength: 2, pattern: '^(?:(\\d+(?:\\.\\d+)?h))?(?:(\\d+(?:\\.\\d+)?m))?(?:(\\d+(?:\\.\\d+)?s))?$' }).describe('How long finished runs are kept, e.g. 24h.'),
  managedPipelines: s.object({
    image: s.string({ maxLength: 1024 }),
    pipelines: s.array(s.object({ name: s.string({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9._-]+$' }).required() }).named('ManagedPipeline'), { minItems: 1 }),
    resources: resources(),
    volumeSizeLimit: s.string({ maxLength: 64 }),
  }).named('ManagedPipelines'),
  workspace: s.object({
    // UNCONFIRMED: upstream has two CEL rules here whose text the inventory does not give;
    // these are ours, for what a workspace claim needs.
    volumeClaimTemplateSpec: core('V1PersistentVolumeClaimSpec').required()
      .rule('has(self.accessModes) && size(self.accessModes) > 0', 'a workspace claim needs accessModes')
      .rule('has(self.resources) && has(self.resources.requests) && \'storage\' in self.resources.requests', 'a workspace claim needs resources.requests.storage'),
  }).named('Workspace'),
}).named('APIServer');

const mariaDB = s.object({
  deploy: s.boolean().default(true),
  image: image(),
  username: s.string({ pattern: '^[a-zA-Z0-9_]+$' }).default('mlpipeline'),
  pipelineDBName: s.string({ pattern: '^[a-zA-Z0-9_]+$' }).default('mlpipeline'),
  passwordSecret: secretKey(),
  pvcSize: s.quantity().default('10Gi'),
  storageClassName: s.string(),
  resources: resources(),
}).named('MariaDB');

const externalDB = s.object({
  host: s.string().required(),
  port: s.string().required(),
  username: s.string().required(),
  pipelineDBName: s.string().required(),
  passwordSecret: secretKey().required(),
}).named('ExternalDB');

const component = (deployDefault: boolean, extra: Record<string, ReturnType<typeof s.string> | ReturnType<typeof s.integer> | ReturnType<typeof s.boolean>> = {}) =>
  ({ deploy: s.boolean().default(deployDefault), image: image(), resources: resources(), ...extra });

const endpoint = () => s.object({ url: s.string(), externalUrl: s.string() }).named('ComponentStatus');

/**
 * DataSciencePipelinesApplication: one Kubeflow Pipelines stack (API server, persistence
 * agent, scheduled workflows, Argo controller, MariaDB or external DB, MinIO or external S3,
 * ML Metadata) that the operator deploys in the DSPA's namespace.
 */
export const dspaCrd: CrdDefinition = {
  group: DSPA_GROUP,
  kind: 'DataSciencePipelinesApplication',
  plural: 'datasciencepipelinesapplications',
  shortNames: ['dspa'],
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        dspVersion: s.string().default('v2'),
        podToPodTLS: s.boolean().default(true),
        apiServer: apiServer.default({ deploy: true }),
        persistenceAgent: s.object(component(true, { numWorkers: s.integer().default(2) })).named('PersistenceAgent').default({ deploy: true }),
        scheduledWorkflow: s.object(component(true, { cronScheduleTimezone: s.string().default('UTC') })).named('ScheduledWorkflow').default({ deploy: true }),
        workflowController: s.object({ ...component(true), argoExecImage: s.string(), customConfig: s.string().describe('ConfigMap replacing the workflow controller configuration.') }).named('WorkflowController'),
        database: s.object({
          mariaDB,
          externalDB,
          disableHealthCheck: s.boolean().default(false),
          customExtraParams: s.string().describe('Extra connection parameters, as JSON.'),
        }).named('Database').default({ mariaDB: { deploy: true } }),
        objectStorage: s.object({
          minio: s.object({
            deploy: s.boolean().default(true),
            image: s.string().required(),
            bucket: s.string().default('mlpipeline'),
            s3CredentialsSecret: s3Credentials(),
            pvcSize: s.quantity().default('10Gi'),
            storageClassName: s.string(),
            resources: resources(),
          }).named('Minio'),
          externalStorage: s.object({
            host: s.string().required(),
            port: s.string(),
            scheme: s.string().required(),
            secure: s.boolean(),
            bucket: s.string().required(),
            basePath: s.string(),
            region: s.string(),
            s3CredentialsSecret: s3Credentials().required(),
          }).named('ExternalStorage'),
          disableHealthCheck: s.boolean().default(false),
          enableExternalRoute: s.boolean().default(false),
        }).required().named('ObjectStorage'),
        mlmd: s.object({
          deploy: s.boolean().default(false),
          envoy: s.object({ image: image(), resources: resources(), deployRoute: s.boolean().default(true) }).named('Envoy'),
          grpc: s.object({ image: image(), resources: resources(), port: s.string() }).named('GRPC'),
        }).named('MLMD'),
        mlflow: s.object({
          integrationMode: s.enum('AUTODETECT', 'DISABLED').default('AUTODETECT'),
          injectUserEnvVars: s.boolean().default(false),
        }).named('MLflow'),
        proxy: s.object({ httpProxy: s.string(), httpsProxy: s.string(), noProxy: s.string() }).named('ProxyConfig'),
      }).named('DSPASpec'),
      status: s.object({
        conditions: s.array(metav1Condition()),
        components: s.object({ apiServer: endpoint(), mlmdProxy: endpoint() }).named('ComponentStatuses'),
      }).named('DSPAStatus'),
    }),
  }],
};
