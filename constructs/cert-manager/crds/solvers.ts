import { secretKeySelector, serviceAccountRef, strings } from './refs';
import { core } from '../../../lib/schema/core';
import { s, Schema } from '../../../lib/schema/dsl';

/**
 * ACME challenge solvers of cert-manager v1.19 (an ACME issuer's `solvers`, a Challenge's
 * `solver`), written for this project with cert-manager's field names, types, enums and
 * required fields. Only a DNS-01 webhook's `config` is open, as upstream: its schema is the
 * webhook's.
 */

/** The named fields of a core type, with their generated schemas (cert-manager embeds subsets). */
function coreFields(name: string, fields: string[]): Record<string, Schema> {
  const props = core(name).properties;
  const missing = fields.filter((f) => !(f in props));
  if (missing.length) throw new Error(`${name} has no field ${missing.join(', ')} (cert-manager's solver pod template expects it)`);
  return Object.fromEntries(fields.map((f) => [f, props[f]]));
}

/** Labels and annotations added to an object cert-manager creates for a challenge. */
const labelsAndAnnotations = (what: string, typeName: string) => s.object({
  annotations: s.stringMap().describe(`Annotations added to the ${what}.`),
  labels: s.stringMap().describe(`Labels added to the ${what}.`),
}).named(typeName);

/** The solver pod's scheduling, identity and security settings: the PodSpec fields cert-manager copies. */
const solverPodSpec = () => s.object({
  nodeSelector: s.stringMap().describe('Node labels the solver pod must match.'),
  affinity: core('V1Affinity').describe('Scheduling constraints of the solver pod.'),
  tolerations: s.array(core('V1Toleration'), { listType: 'atomic' }).describe('Taints the solver pod tolerates.'),
  priorityClassName: s.string().describe('Priority class of the solver pod.'),
  serviceAccountName: s.string().describe('ServiceAccount the solver pod runs as.'),
  imagePullSecrets: s.array(core('V1LocalObjectReference'), { listType: 'atomic' }).describe('Secrets to pull the solver image with.'),
  securityContext: s.object(coreFields('V1PodSecurityContext', [
    'fsGroup', 'fsGroupChangePolicy', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxOptions', 'seccompProfile', 'supplementalGroups', 'sysctls',
  ])).named('ACMEChallengeSolverHTTP01IngressPodSecurityContext').describe('Pod security context of the solver pod (a subset of the PodSecurityContext fields).'),
  resources: s.object({
    limits: s.map(s.quantity()).describe('Upper bounds per resource, e.g. cpu: 100m.'),
    requests: s.map(s.quantity()).describe('Requests per resource; they default to the controller\'s flags.'),
  }).named('ACMEChallengeSolverHTTP01IngressPodResources').describe('Resources of the solver container; they override the controller\'s --acme-http01-solver-resource-* flags.'),
}).named('ACMEChallengeSolverHTTP01IngressPodSpec');

const podTemplate = () => s.object({
  metadata: labelsAndAnnotations('solver pod', 'ACMEChallengeSolverHTTP01IngressPodObjectMeta').describe('Labels and annotations of the solver pod (nothing else of its metadata can be set).'),
  spec: solverPodSpec().describe('Overrides for the solver pod (only these fields).'),
}).named('ACMEChallengeSolverHTTP01IngressPodTemplate');

const serviceType = () => s.string().describe('Type of the solver Service: NodePort (default) or ClusterIP.');

const DNS1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** Gateway API v1 ParentReference: the Gateway (or listener) the solver's HTTPRoute attaches to. */
const parentReference = () => s.object({
  group: s.string({ maxLength: 253, pattern: `^$|${DNS1123_SUBDOMAIN}` }).default('gateway.networking.k8s.io').describe('API group of the parent ("" for the core group).'),
  kind: s.string({ minLength: 1, maxLength: 63, pattern: '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$' }).default('Gateway').describe('Kind of the parent.'),
  name: s.string({ minLength: 1, maxLength: 253 }).required().describe('Name of the parent.'),
  namespace: s.string({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' }).describe('Namespace of the parent (default: the route\'s).'),
  sectionName: s.string({ minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN }).describe('A section of the parent, e.g. a Gateway listener name.'),
  port: s.int32({ minimum: 1, maximum: 65535 }).describe('A port of the parent the route targets.'),
}).named('ParentReference');

const http01 = () => s.object({
  ingress: s.object({
    serviceType: serviceType(),
    ingressClassName: s.string().describe('ingressClassName of the solver Ingress (recommended; not with class or name).'),
    class: s.string().describe('kubernetes.io/ingress.class annotation of the solver Ingress (not with ingressClassName or name).'),
    name: s.string().describe('An existing Ingress to add the challenge path to (not with class or ingressClassName).'),
    podTemplate: podTemplate().describe('Overrides for the solver pods.'),
    ingressTemplate: s.object({
      metadata: labelsAndAnnotations('solver Ingress', 'ACMEChallengeSolverHTTP01IngressObjectMeta').describe('Labels and annotations of the solver Ingress.'),
    }).named('ACMEChallengeSolverHTTP01IngressTemplate').describe('Overrides for the solver Ingress.'),
  }).named('ACMEChallengeSolverHTTP01Ingress').describe('Solve with an Ingress routing the challenge path to a solver pod.'),
  gatewayHTTPRoute: s.object({
    serviceType: serviceType(),
    labels: s.stringMap().describe('Labels of the HTTPRoutes cert-manager creates.'),
    parentRefs: s.array(parentReference(), { listType: 'atomic' }).describe('Gateways the HTTPRoute attaches to.'),
    podTemplate: podTemplate().describe('Overrides for the solver pods.'),
  }).named('ACMEChallengeSolverHTTP01GatewayHTTPRoute').describe('Solve with a Gateway API HTTPRoute to a solver pod.'),
}).named('ACMEChallengeSolverHTTP01');

const dns01 = () => s.object({
  cnameStrategy: s.enum('None', 'Follow').describe('Whether to follow CNAME records to the zone to update (default None).'),
  acmeDNS: s.object({
    host: s.string().required().describe('URL of the acme-dns server.'),
    accountSecretRef: secretKeySelector().required().describe('Secret key holding the acme-dns account JSON.'),
  }).named('ACMEIssuerDNS01ProviderAcmeDNS').describe('Use an acme-dns server.'),
  akamai: s.object({
    serviceConsumerDomain: s.string().required().describe('Akamai EdgeGrid host.'),
    clientTokenSecretRef: secretKeySelector().required().describe('Secret key holding the client token.'),
    clientSecretSecretRef: secretKeySelector().required().describe('Secret key holding the client secret.'),
    accessTokenSecretRef: secretKeySelector().required().describe('Secret key holding the access token.'),
  }).named('ACMEIssuerDNS01ProviderAkamai').describe('Use Akamai Edge DNS.'),
  azureDNS: s.object({
    clientID: s.string().describe('Service principal client id (with clientSecretSecretRef and tenantID).'),
    clientSecretSecretRef: secretKeySelector().describe('Secret key holding the service principal\'s password.'),
    subscriptionID: s.string().required().describe('Azure subscription id.'),
    tenantID: s.string().describe('Service principal tenant id.'),
    resourceGroupName: s.string().required().describe('Resource group of the DNS zone.'),
    hostedZoneName: s.string().describe('Name of the DNS zone.'),
    environment: s.enum('AzurePublicCloud', 'AzureChinaCloud', 'AzureGermanCloud', 'AzureUSGovernmentCloud').describe('Azure cloud (default AzurePublicCloud).'),
    managedIdentity: s.object({
      clientID: s.string().describe('Client id of the managed identity (not with resourceID).'),
      resourceID: s.string().describe('Resource id of the managed identity (not with clientID).'),
      tenantID: s.string().describe('Tenant id of the managed identity (not with resourceID).'),
    }).named('AzureManagedIdentity').describe('Use workload identity or a managed identity (not with the service principal fields).'),
  }).named('ACMEIssuerDNS01ProviderAzureDNS').describe('Use Azure DNS.'),
  cloudDNS: s.object({
    serviceAccountSecretRef: secretKeySelector().describe('Secret key holding a service account JSON key (default: ambient credentials).'),
    project: s.string().required().describe('Google Cloud project of the zone.'),
    hostedZoneName: s.string().describe('Cloud DNS zone to use (default: found automatically).'),
  }).named('ACMEIssuerDNS01ProviderCloudDNS').describe('Use Google Cloud DNS.'),
  cloudflare: s.object({
    email: s.string().describe('Account e-mail, for API key authentication only.'),
    apiKeySecretRef: secretKeySelector().describe('Secret key holding a global API key (or give apiTokenSecretRef).'),
    apiTokenSecretRef: secretKeySelector().describe('Secret key holding an API token (recommended).'),
  }).named('ACMEIssuerDNS01ProviderCloudflare').describe('Use Cloudflare.'),
  digitalocean: s.object({
    tokenSecretRef: secretKeySelector().required().describe('Secret key holding the API token.'),
  }).named('ACMEIssuerDNS01ProviderDigitalOcean').describe('Use DigitalOcean DNS.'),
  rfc2136: s.object({
    nameserver: s.string().required().describe('host:port of the authoritative server (IPv6 hosts in brackets; port optional).'),
    tsigSecretSecretRef: secretKeySelector().describe('Secret key holding the TSIG secret (with tsigKeyName).'),
    tsigKeyName: s.string().describe('TSIG key name (with tsigSecretSecretRef).'),
    tsigAlgorithm: s.string().describe('TSIG algorithm: HMACMD5 (default), HMACSHA1, HMACSHA256 or HMACSHA512.'),
    protocol: s.enum('TCP', 'UDP').describe('Transport of the updates (default UDP).'),
  }).named('ACMEIssuerDNS01ProviderRFC2136').describe('Use RFC 2136 dynamic updates.'),
  route53: s.object({
    auth: s.object({
      kubernetes: s.object({
        serviceAccountRef: serviceAccountRef().required().describe('ServiceAccount whose token is exchanged (audience sts.amazonaws.com unless audiences are given).'),
      }).named('Route53KubernetesAuth').required().describe('Assume the role with a bound ServiceAccount token (AssumeRoleWithWebIdentity).'),
    }).named('Route53Auth').describe('How cert-manager authenticates to AWS.'),
    accessKeyID: s.string().describe('AWS access key id, literally (not with accessKeyIDSecretRef).'),
    accessKeyIDSecretRef: secretKeySelector().describe('Secret key holding the access key id (not with accessKeyID).'),
    secretAccessKeySecretRef: secretKeySelector().describe('Secret key holding the secret access key (default: ambient credentials).'),
    role: s.string().describe('ARN of a role to assume.'),
    hostedZoneID: s.string().describe('Manage only this hosted zone (no zone lookup).'),
    region: s.string().describe('AWS region hint for the credential scope (default: the controller\'s environment).'),
  }).named('ACMEIssuerDNS01ProviderRoute53').describe('Use AWS Route 53.'),
  webhook: s.object({
    groupName: s.string().required().describe('API group the webhook solver serves.'),
    solverName: s.string().required().describe('Name of the solver in that webhook.'),
    config: s.any().describe('Solver configuration, as the webhook defines it (kept as given).'),
  }).named('ACMEIssuerDNS01ProviderWebhook').describe('Use an external DNS-01 webhook solver.'),
}).named('ACMEChallengeSolverDNS01');

/** One way of solving challenges, for the names its selector matches (or all, without one). */
export const acmeChallengeSolver = () => s.object({
  selector: s.object({
    matchLabels: s.stringMap().describe('Labels a Certificate must have for this solver.'),
    dnsNames: strings().describe('Exact DNS names this solver is for (preferred over dnsZones).'),
    dnsZones: strings().describe('DNS zones this solver is for (the most specific zone wins).'),
  }).named('CertificateDNSNameSelector').describe('Which certificates and names use this solver (default: any, at the lowest priority).'),
  http01: http01().describe('Solve HTTP-01 challenges (not for wildcard names).'),
  dns01: dns01().describe('Solve DNS-01 challenges with one DNS provider.'),
}).named('ACMEChallengeSolver');
