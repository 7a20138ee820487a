import { metav1Condition } from '../../../lib/schema/common';
import { Properties, s } from '../../../lib/schema/dsl';

export const GROUP = 'maas.opendatahub.io';

/** Conditions as a plain list (upstream does not key them by type). */
export const conditions = () => s.array(metav1Condition());

/** An optional DNS label: empty, or a lower-case DNS-1123 label. */
const OPTIONAL_LABEL = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$';
export const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';

/** The Gateway that publishes a tenant's models (defaults to MaaS's default gateway). */
export const gatewayRef = s.object({
  name: s.string({ maxLength: 63, pattern: OPTIONAL_LABEL }).default('maas-default-gateway'),
  namespace: s.string({ maxLength: 63, pattern: OPTIONAL_LABEL }).default('openshift-ingress'),
}).named('TenantGatewayRef');

export const gatewayName = () => s.string({ maxLength: 63, pattern: OPTIONAL_LABEL });

/** An external OpenID Connect issuer whose tokens the gateway accepts. */
export const oidc = s.object({
  issuerUrl: s.string({ minLength: 9, maxLength: 2048, pattern: '^https://\\S+$' }).required().describe('HTTPS URL of the issuer.'),
  clientId: s.string({ minLength: 1, maxLength: 256, pattern: '^\\S+$' }).required().describe('Audience (client id) tokens must carry.'),
  ttl: s.integer({ minimum: 30 }).default(300).describe('Seconds a validated token is cached.'),
}).named('OIDCConfig');

export const apiKeys = s.object({
  maxExpirationDays: s.int32({ minimum: 1 }).describe('Longest lifetime a user may give an API key.'),
}).named('APIKeysConfig');

/** Sizing of the tenant's payload-processing workload. */
export const payloadProcessing = s.object({
  replicas: s.int32({ minimum: 1, maximum: 100 }).describe('Fixed replica count (turns autoscaling off).'),
  autoscaling: s.object({
    maxReplicas: s.int32({ minimum: 1, maximum: 100 }).default(10),
    targetCPUUtilization: s.int32({ minimum: 1, maximum: 100 }).default(70),
    targetMemoryUtilization: s.int32({ minimum: 1, maximum: 100 }).default(80),
  }).named('PayloadProcessingAutoscaling'),
}).named('PayloadProcessingConfig');

/** Which usage dimensions the gateway records. */
export const telemetry = s.object({
  enabled: s.boolean().default(true),
  metrics: s.object({
    captureGroup: s.boolean().default(false),
    captureModelUsage: s.boolean().default(true),
    captureOrganization: s.boolean().default(true),
    captureUser: s.boolean().default(false),
  }).named('TelemetryMetrics'),
}).named('TelemetryConfig');

/** Groups and users a policy or subscription applies to. */
export const subjects = s.object({
  groups: s.array(s.object({ name: s.string().required() }).named('GroupReference')),
  users: s.array(s.string()),
}).named('SubjectSpec');

/** A MaaSModelRef by name and namespace. */
export const modelRefName = () => s.string({ minLength: 1, maxLength: 63 });

/** Labels and cost attribution attached to usage records. */
export const usageMetadata = s.object({
  organizationId: s.string(),
  costCenter: s.string(),
  labels: s.stringMap(),
}).named('UsageMetadata');

/** Reasons a per-model status entry reports. */
export const STATUS_REASONS = [
  'Reconciled', 'ReconcileFailed', 'PartialFailure', 'Valid', 'NotFound', 'GetFailed', 'Accepted', 'AcceptedEnforced',
  'NotAccepted', 'Enforced', 'NotEnforced', 'BackendNotReady', 'ConditionsNotFound', 'InvalidSpec', 'Unknown',
  'NoPairingFound', 'GovernancePaired', 'GovernanceGap', 'RuntimeHealthy', 'RuntimeHealthFailure',
];

/** Status of one generated policy object (AuthPolicy, TokenRateLimitPolicy) for one model. */
export const policyStatus = (name: string, extra: Properties = {}) => s.object({
  name: s.string({ maxLength: 253 }).required(),
  namespace: s.string({ maxLength: 63 }).required(),
  model: s.string({ minLength: 1, maxLength: 63 }).required(),
  ready: s.boolean().required(),
  reason: s.enum(...STATUS_REASONS),
  message: s.string({ maxLength: 1024 }),
  ...extra,
}).named(name);

/** The Ready condition's status and reason, as upstream's printer columns spell them. */
export const READY_STATUS = '.status.conditions[?(@.type=="Ready")].status';
export const READY_REASON = '.status.conditions[?(@.type=="Ready")].reason';

/** Only one object of the kind may exist, with this name. */
export const singleton = (name: string) => [`self.metadata.name == '${name}'`, `the only accepted name is '${name}'`] as const;
