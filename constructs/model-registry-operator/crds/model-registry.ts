import { conditions, resources } from './common';
import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { ObjectSchema, s } from '../../../lib/schema/dsl';

export const GROUP = 'modelregistry.opendatahub.io';

const port = (dflt: number, minimum = 0) => s.int32({ minimum, maximum: 65535 }).default(dflt);
const DOMAIN_PATTERN = '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\\-]{0,61}[a-zA-Z0-9])(\\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\\-]{0,61}[a-zA-Z0-9]))*)?$';
const domain = () => s.string({ maxLength: 253, pattern: DOMAIN_PATTERN }).describe('Route domain; the operator picks one when empty.');
const routeToggle = (dflt?: string) => (dflt ? s.enum('disabled', 'enabled').default(dflt) : s.enum('disabled', 'enabled'));

/** A key of a Secret. */
const secretKey = s.object({ name: s.string().required(), key: s.string().required() }).named('SecretKeyValue');
/** A key of a ConfigMap. */
const configMapKey = s.object({ name: s.string().required(), key: s.string().required() }).named('ConfigMapKeyValue');

const rest = s.object({
  port: port(8080, 1),
  serviceRoute: routeToggle('disabled').describe('Expose the REST service through a Route.'),
  resources: resources(),
  image: s.string().describe('Overrides the REST server image.'),
}).named('RestSpec');

const grpc = s.object({
  port: port(9090),
  resources: resources(),
  image: s.string().describe('Overrides the gRPC server image.'),
}).named('GrpcSpec');

const tlsPairRule = ['has(self.tlsCertificateSecret) == has(self.tlsKeySecret)', 'tlsCertificateSecret and tlsKeySecret go together'] as const;

/** An authenticating proxy in front of the REST service (OAuth proxy or kube-rbac-proxy). */
const authProxy = (name: string) => s.object({
  port: port(8443),
  tlsCertificateSecret: secretKey,
  tlsKeySecret: secretKey,
  serviceRoute: routeToggle('enabled'),
  domain: domain(),
  routePort: port(443),
  image: s.string(),
}).rule(...tlsPairRule).named(name);

const mysql = s.object({
  host: s.string().required(),
  port: port(3306, 1),
  username: s.string().required(),
  passwordSecret: secretKey,
  database: s.string().required(),
  skipDBCreation: s.boolean().default(false),
  sslCertificateSecret: secretKey,
  sslKeySecret: secretKey,
  sslRootCertificateConfigMap: configMapKey,
  sslRootCertificatesConfigMapName: s.string(),
  sslRootCertificateSecret: secretKey,
  sslRootCertificatesSecretName: s.string(),
  sslCipher: s.string(),
  verifyServerCert: s.boolean(),
}).named('MySQLConfig');

const postgresFields = {
  host: s.string(),
  hostAddress: s.string().describe('IP address of the server; wins over host.'),
  port: port(5432, 1),
  username: s.string(),
  passwordSecret: secretKey,
  database: s.string(),
  skipDBCreation: s.boolean().default(false),
  sslMode: s.enum('disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full').default('disable'),
  sslCertificateSecret: secretKey,
  sslKeySecret: secretKey,
  sslPasswordSecret: secretKey,
  sslRootCertificateConfigMap: configMapKey,
  sslRootCertificateSecret: secretKey,
};

// --- v1alpha1 (deprecated) ---------------------------------------------------------------

const tlsMode = s.enum('SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL', 'OPTIONAL_MUTUAL').default('SIMPLE');
const gatewayServer = s.object({
  port: s.int32({ minimum: 0, maximum: 65535 }),
  gatewayRoute: routeToggle(),
  tls: s.object({ mode: tlsMode, credentialName: s.string() }).named('TLSServerSettings'),
}).named('ServerConfig');

const istio = s.object({
  authProvider: s.string(),
  authConfigLabels: s.stringMap(),
  audiences: s.array(s.string()),
  tlsMode: s.string().default('ISTIO_MUTUAL'),
  gateway: s.object({
    domain: domain(),
    istioIngress: s.string(),
    controlPlane: s.string(),
    rest: gatewayServer.required(),
    grpc: gatewayServer.required(),
  }).named('GatewayConfig'),
}).named('IstioConfig');

const v1alpha1Spec = s.object({
  rest: rest.required(),
  grpc: grpc.required(),
  postgres: s.object({ ...postgresFields, database: s.string().required() }).named('V1alpha1PostgresConfig'),
  mysql,
  enable_database_upgrade: s.boolean(),
  downgrade_db_schema_version: s.int64(),
  istio,
  oauthProxy: authProxy('OAuthProxyConfig'),
}).rule('!(has(self.istio) && has(self.oauthProxy))', 'istio and oauthProxy cannot both be set').named('V1alpha1ModelRegistrySpec');

// --- v1beta1 (storage) ---------------------------------------------------------------------

const generated = 'has(self.generateDeployment) && self.generateDeployment';
const v1beta1Postgres = s.object({
  ...postgresFields,
  generateDeployment: s.boolean().describe('The operator deploys a PostgreSQL server for the registry.'),
  image: s.string().describe('Overrides the generated PostgreSQL image.'),
})
  // Our rules for a generated versus an external database (upstream has three rules here).
  .rule(`${generated} || has(self.host) || has(self.hostAddress)`, 'host or hostAddress is required unless generateDeployment is true')
  .rule(`${generated} || has(self.database)`, 'database is required unless generateDeployment is true')
  .rule(`!(${generated}) || (!has(self.host) && !has(self.hostAddress))`, 'host and hostAddress must be unset when generateDeployment is true')
  .named('PostgresConfig');

const v1beta1Spec = s.object({
  rest: rest.required(),
  grpc,
  postgres: v1beta1Postgres,
  mysql,
  enable_database_upgrade: s.boolean(),
  downgrade_db_schema_version: s.int64(),
  oauthProxy: authProxy('OAuthProxyConfig'),
  kubeRBACProxy: authProxy('KubeRBACProxyConfig'),
}).rule('!(has(self.oauthProxy) && has(self.kubeRBACProxy))', 'oauthProxy and kubeRBACProxy cannot both be set').named('ModelRegistrySpec');

const status = s.object({
  hosts: s.array(s.string()),
  hostsStr: s.string(),
  specDefaults: s.string().describe('The defaulted spec the operator deployed, as JSON.'),
  conditions: conditions(),
}).named('ModelRegistryStatus');

const condition = (name: string, type: string, priority?: number): PrinterColumn => ({
  name, type: 'string', jsonPath: `.status.conditions[?(@.type=="${type}")].status`, ...(priority ? { priority } : {}),
});
const available = condition('Available', 'Available');
const hosts: PrinterColumn = { name: 'Hosts', type: 'string', jsonPath: '.status.hostsStr', priority: 2 };
const message: PrinterColumn = { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].message', priority: 2 };

const version = (spec: ObjectSchema) => s.object({ spec, status });

/**
 * modelregistry.opendatahub.io ModelRegistry: one model registry (REST and gRPC services,
 * database, authenticating proxy). v1alpha1 is served but deprecated; v1beta1 is stored;
 * the operator's webhook converts between them.
 */
export const modelRegistryCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ModelRegistry',
  plural: 'modelregistries',
  shortNames: ['mr'],
  scope: CrdScope.NAMESPACED,
  // ODH wires conversion in its overlay; upstream lists the CRD versions here, not
  // ConversionReview versions, and the API server accepts the list as it is.
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1beta1', 'v1alpha1'] },
  versions: [
    {
      name: 'v1alpha1',
      storage: false,
      deprecated: true,
      deprecationWarning: 'modelregistry.opendatahub.io/v1alpha1 ModelRegistry is deprecated; use v1beta1',
      subresources: { status: true },
      printerColumns: [
        available,
        condition('Istio', 'IstioAvailable', 2),
        condition('Gateway', 'GatewayAvailable', 2),
        condition('OAuthProxy', 'OAuthProxyAvailable', 2),
        PrinterColumns.age(),
        hosts,
        message,
      ],
      schema: version(v1alpha1Spec),
    },
    {
      name: 'v1beta1',
      storage: true,
      subresources: { status: true },
      printerColumns: [available, condition('KubeRBACProxy', 'KubeRBACProxyAvailable', 2), PrinterColumns.age(), hosts, message],
      schema: version(v1beta1Spec),
    },
  ],
};
