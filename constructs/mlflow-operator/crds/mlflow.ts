import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const secretRef = () => plainCore('V1SecretKeySelector');
const labelValues = (what: string) => s.stringMap().rule('self.all(key, size(self[key]) <= 63)', `${what} values must be 63 characters or less`);
const egressRule = () => s.object({
  ports: s.array(plainCore('V1NetworkPolicyPort'), { listType: 'atomic' }),
  to: s.array(core('V1NetworkPolicyPeer'), { listType: 'atomic' }),
});
const fileBased = (field: string) => `(self.${field}.startsWith('sqlite://') || self.${field}.startsWith('file://'))`;
const serving = '(has(self.serveArtifacts) && self.serveArtifacts)';
const fromSet = (field: string) => `(size(self.${field}.name) > 0 && size(self.${field}.key) > 0)`;
const singleReplica = '(!has(self.replicas) || self.replicas == 1)';

/**
 * Our own rules for the semantics upstream's MLflow API documents: where metadata and
 * artifacts are stored, which combinations need a volume, which fields exclude each other.
 * Upstream has 25 rules on spec; these are written from its field documentation.
 */
const SPEC_RULES: Array<[string, string]> = [
  [`has(self.defaultArtifactRoot) || ${serving}`, 'defaultArtifactRoot must be set when serveArtifacts is not true'],
  [`!has(self.defaultArtifactRoot) || !self.defaultArtifactRoot.startsWith('file://') || ${serving}`, 'serveArtifacts must be true when defaultArtifactRoot is a file:// path'],
  [`(has(self.backendStoreUri) && size(self.backendStoreUri) > 0) || (has(self.backendStoreUriFrom) && ${fromSet('backendStoreUriFrom')})`, 'set backendStoreUri or backendStoreUriFrom'],
  ['!(has(self.backendStoreUri) && has(self.backendStoreUriFrom))', 'backendStoreUri and backendStoreUriFrom exclude each other'],
  [`!has(self.backendStoreUriFrom) || ${fromSet('backendStoreUriFrom')}`, 'backendStoreUriFrom needs a non-empty name and key'],
  ['!(has(self.registryStoreUri) && has(self.registryStoreUriFrom))', 'registryStoreUri and registryStoreUriFrom exclude each other'],
  [`!has(self.registryStoreUriFrom) || ${fromSet('registryStoreUriFrom')}`, 'registryStoreUriFrom needs a non-empty name and key'],
  ['!(has(self.readReplicaBackendStoreUri) && has(self.readReplicaBackendStoreUriFrom))', 'readReplicaBackendStoreUri and readReplicaBackendStoreUriFrom exclude each other'],
  [`!has(self.readReplicaBackendStoreUriFrom) || ${fromSet('readReplicaBackendStoreUriFrom')}`, 'readReplicaBackendStoreUriFrom needs a non-empty name and key'],
  [`!has(self.readReplicaBackendStoreUri) || !${fileBased('readReplicaBackendStoreUri')}`, 'a read replica backend store must be a database server, not a sqlite:// or file:// store'],
  ['!(has(self.readReplicaBackendStoreUri) || has(self.readReplicaBackendStoreUriFrom)) || has(self.backendStoreUri) || has(self.backendStoreUriFrom)', 'a read replica needs a primary backend store (backendStoreUri or backendStoreUriFrom)'],
  [`!has(self.backendStoreUri) || !${fileBased('backendStoreUri')} || has(self.storage)`, 'storage must be set when backendStoreUri is a sqlite:// or file:// store'],
  [`!has(self.registryStoreUri) || !${fileBased('registryStoreUri')} || has(self.storage)`, 'storage must be set when registryStoreUri is a sqlite:// or file:// store'],
  [`!has(self.backendStoreUri) || !self.backendStoreUri.startsWith('sqlite://') || ${singleReplica}`, 'a sqlite:// backend store supports one replica only'],
  [`!has(self.registryStoreUri) || !self.registryStoreUri.startsWith('sqlite://') || ${singleReplica}`, 'a sqlite:// registry store supports one replica only'],
  ["!has(self.artifactsDestination) || !self.artifactsDestination.startsWith('file://') || has(self.storage)", 'storage must be set when artifactsDestination is a file:// path'],
  [`!has(self.artifactsDestination) || !self.artifactsDestination.startsWith('file://') || ${serving}`, 'serveArtifacts must be true when artifactsDestination is a file:// path'],
  ["!has(self.env) || self.env.all(e, e.name != 'MLFLOW_SERVER_DISABLE_SECURITY_MIDDLEWARE')", 'MLFLOW_SERVER_DISABLE_SECURITY_MIDDLEWARE may not be set'],
  ['!has(self.networkPolicyAdditionalEgressRules) || self.networkPolicyAdditionalEgressRules.all(r, (has(r.ports) && size(r.ports) > 0) || (has(r.to) && size(r.to) > 0))', 'each networkPolicyAdditionalEgressRules entry needs a port or a destination'],
  ['!has(self.networkPolicyEgressRules) || self.networkPolicyEgressRules.all(r, (has(r.ports) && size(r.ports) > 0) || (has(r.to) && size(r.to) > 0))', 'each networkPolicyEgressRules entry needs a port or a destination'],
  ['!has(self.traceArchival) || !has(self.traceArchival.enabled) || !self.traceArchival.enabled || has(self.traceArchival.location)', 'traceArchival.location must be set when trace archival is enabled'],
  ["!has(self.traceArchival) || !has(self.traceArchival.location) || self.traceArchival.location.matches('^[a-z0-9+.-]+://')", 'traceArchival.location must be a URI with a scheme, e.g. s3://bucket/traces'],
  ['!has(self.image) || !has(self.image.image) || size(self.image.image) > 0', 'image.image must not be empty'],
  ['!has(self.serviceAccountName) || size(self.serviceAccountName) > 0', 'serviceAccountName must not be empty'],
];

const spec = SPEC_RULES.reduce((node, [rule, message]) => node.rule(rule, message), s.object({
  affinity: core('V1Affinity'),
  artifactsDestination: s.string().describe('Where a server that serves artifacts stores them (file://, s3://, gs://...).'),
  backendStoreUri: s.string().describe('The metadata store (sqlite://, postgresql://, mysql://...).'),
  backendStoreUriFrom: secretRef().describe('A Secret key holding backendStoreUri (for URIs with credentials).'),
  caBundleConfigMap: s.object({ name: s.string({ minLength: 1 }).required() }).describe('A ConfigMap of extra CA certificates.'),
  defaultArtifactRoot: s.string().describe('The artifact root of runs when the server does not serve artifacts.'),
  env: s.array(core('V1EnvVar')),
  envFrom: s.array(plainCore('V1EnvFromSource')),
  extraAllowedOrigins: s.array(s.string(), { maxItems: 64 }).describe('CORS origins beyond the defaults.'),
  garbageCollection: s.object({
    olderThan: s.string({ minLength: 1, pattern: '^(\\d+(\\.\\d+)?d)?(\\d+(\\.\\d+)?h)?(\\d+(\\.\\d+)?m)?(\\d+(\\.\\d+)?s)?$' }),
    resources: plainCore('V1ResourceRequirements'),
    schedule: s.string({ minLength: 1 }).required().describe('Cron schedule of the clean-up job.'),
  }).describe('A CronJob that purges soft-deleted runs, experiments and models.'),
  image: s.object({
    image: s.string(),
    imagePullPolicy: s.enum('Always', 'IfNotPresent', 'Never'),
  }).describe('The MLflow server image (default: the operator\'s MLFLOW_IMAGE).'),
  migration: s.object({
    mode: s.enum('Automatic', 'Always').default('Automatic'),
    ttlSecondsAfterFinished: s.int32({ minimum: 3600 }),
  }).default({ mode: 'Automatic' }).describe('When the database schema migration job runs.'),
  networkPolicyAdditionalEgressRules: s.array(egressRule(), { maxItems: 32 }),
  networkPolicyEgressRules: s.array(egressRule(), { maxItems: 32 }),
  nodeSelector: labelValues('nodeSelector'),
  podAnnotations: s.stringMap(),
  podLabels: labelValues('podLabels'),
  podSecurityContext: core('V1PodSecurityContext'),
  readReplicaBackendStoreUri: s.string(),
  readReplicaBackendStoreUriFrom: secretRef(),
  registryStoreUri: s.string().describe('The model registry store (defaults to backendStoreUri).'),
  registryStoreUriFrom: secretRef(),
  replicas: s.int32({ minimum: 1 }).default(1),
  resourceClaims: s.array(plainCore('V1PodResourceClaim'), { listType: 'map', listMapKeys: ['name'] }),
  resources: plainCore('V1ResourceRequirements'),
  securityContext: core('V1SecurityContext'),
  serveArtifacts: s.boolean().default(false),
  serviceAccountName: s.string().default('mlflow-sa'),
  storage: core('V1PersistentVolumeClaimSpec').describe('A volume for sqlite:// or file:// stores.'),
  temporaryStorage: s.object({ sizeLimit: s.quantity() }),
  tolerations: s.array(plainCore('V1Toleration')),
  traceArchival: s.object({
    enabled: s.boolean().default(false),
    location: s.string({ maxLength: 2048 }),
    longRetentionAllowlist: s.array(s.string(), { maxItems: 64 }),
    maxTracesPerPass: s.int32({ minimum: 1 }).default(1000),
    resources: plainCore('V1ResourceRequirements'),
    retention: s.string({ maxLength: 16, pattern: '^\\d+[mhd]$' }),
    schedule: s.string({ minLength: 1, maxLength: 256 }).default('0 */6 * * *'),
  }),
  workers: s.int32({ minimum: 1 }).default(1),
  workspaceLabelSelector: plainCore('V1LabelSelector').describe('Namespaces exposed as MLflow workspaces.'),
}).named('MLflowSpec'));

/**
 * mlflow.opendatahub.io/v1 MLflow: one cluster-wide MLflow tracking server that the
 * operator deploys (Deployment, Service, network policy, route, RBAC for workspaces).
 */
export const mlflowCrd: CrdDefinition = {
  group: 'mlflow.opendatahub.io',
  kind: 'MLflow',
  plural: 'mlflows',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Available', type: 'string', jsonPath: ".status.conditions[?(@.type=='Available')].status" },
      { name: 'Progressing', type: 'string', jsonPath: ".status.conditions[?(@.type=='Progressing')].status" },
      { name: 'Version', type: 'string', jsonPath: '.status.version' },
      { name: 'URL', type: 'string', jsonPath: '.status.url' },
    ],
    schema: s.object({
      spec: spec.required(),
      status: s.object({
        address: s.object({ url: s.string({ maxLength: 2048 }) }),
        conditions: metav1Conditions(),
        url: s.string({ maxLength: 2048 }),
        version: s.string({ maxLength: 64 }),
      }).named('MLflowStatus'),
    })
      // The operator runs one MLflow per cluster, named mlflow; its name prefixes the objects it creates.
      .rule("self.metadata.name == 'mlflow'", "the MLflow resource must be named 'mlflow'")
      .rule('self.metadata.name.size() <= 40', 'the MLflow name must be at most 40 characters'),
  }],
};
