import { App } from 'cdk8s';
import { CertManager } from '../../../constructs/cert-manager';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { validateCustomResources } from '../../../lib/validation';
import { objectsOf } from '../support/objects';

/**
 * Resources as users write them (after cert-manager's documentation) must be accepted by our
 * CRDs with nothing pruned: validateCustomResources reports every field the schema does not
 * know (the API server would drop it) as well as type, enum and required-field errors.
 */
const p = new Platform(new App(), 'p', { name: 'cert-manager-examples' });
new CertManager(p, 'cert-manager');
const { named } = objectsOf(buildPlatform(p));

const GROUPS: Record<string, string> = {
  Certificate: 'certificates.cert-manager.io',
  CertificateRequest: 'certificaterequests.cert-manager.io',
  Issuer: 'issuers.cert-manager.io',
  ClusterIssuer: 'clusterissuers.cert-manager.io',
  Order: 'orders.acme.cert-manager.io',
  Challenge: 'challenges.acme.cert-manager.io',
};

/** The issues of one object against our CRD for its kind, as `path: message` lines. */
function issues(obj: any): string[] {
  const crd = named('CustomResourceDefinition', GROUPS[obj.kind]);
  return validateCustomResources([obj], crd)[0].map((i) => `${i.path}: ${i.message}`);
}

const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}) });
const cm = (kind: string, name: string, spec: any, extra: any = {}) => ({
  apiVersion: kind === 'Order' || kind === 'Challenge' ? 'acme.cert-manager.io/v1' : 'cert-manager.io/v1',
  kind,
  metadata: meta(name, kind === 'ClusterIssuer' ? undefined : 'apps'),
  spec,
  ...extra,
});
const key = (name: string, k?: string) => ({ name, ...(k ? { key: k } : {}) });

/** The HTTP-01 solver pod template with every field cert-manager copies into the pod. */
const podTemplate = {
  metadata: { labels: { 'app.kubernetes.io/part-of': 'acme' }, annotations: { 'sidecar.istio.io/inject': 'false' } },
  spec: {
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/ingress', operator: 'Exists' }] }],
        },
      },
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{
          weight: 50,
          podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'acme.cert-manager.io/http01-solver': 'true' } } },
        }],
      },
    },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'ingress', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
    priorityClassName: 'system-cluster-critical',
    serviceAccountName: 'acme-solver',
    imagePullSecrets: [{ name: 'quay-mirror' }],
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      fsGroup: 65532,
      fsGroupChangePolicy: 'OnRootMismatch',
      supplementalGroups: [1000],
      seccompProfile: { type: 'RuntimeDefault' },
      seLinuxOptions: { level: 's0:c123,c456' },
      sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }],
    },
    resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
  },
};

const examples: Record<string, any> = {
  'ACME ClusterIssuer: HTTP-01 (Ingress, Gateway API), DNS-01 (Route 53, Cloudflare, webhook), EAB': cm('ClusterIssuer', 'letsencrypt-prod', {
    acme: {
      server: 'https://acme-v02.api.letsencrypt.org/directory',
      email: 'platform@example.com',
      privateKeySecretRef: key('letsencrypt-prod-account'),
      preferredChain: 'ISRG Root X1',
      profile: 'tlsserver',
      externalAccountBinding: { keyID: 'kid-1', keySecretRef: key('eab', 'secret') },
      solvers: [
        {
          http01: {
            ingress: {
              ingressClassName: 'nginx',
              serviceType: 'ClusterIP',
              podTemplate,
              ingressTemplate: { metadata: { annotations: { 'nginx.ingress.kubernetes.io/whitelist-source-range': '0.0.0.0/0' }, labels: { solver: 'http01' } } },
            },
          },
        },
        {
          selector: { matchLabels: { gateway: 'public' } },
          http01: { gatewayHTTPRoute: { parentRefs: [{ name: 'public', namespace: 'gateways', sectionName: 'http', port: 80, kind: 'Gateway' }], labels: { solver: 'gateway' }, podTemplate } },
        },
        {
          selector: { dnsZones: ['example.com'] },
          dns01: {
            cnameStrategy: 'Follow',
            route53: {
              region: 'eu-west-1',
              hostedZoneID: 'Z2ABCDEF123456',
              role: 'arn:aws:iam::123456789012:role/cert-manager-dns',
              auth: { kubernetes: { serviceAccountRef: { name: 'cert-manager-route53', audiences: ['sts.amazonaws.com'] } } },
            },
          },
        },
        {
          selector: { dnsNames: ['*.apps.example.org', 'apps.example.org'] },
          dns01: { cloudflare: { apiTokenSecretRef: key('cloudflare-api-token', 'api-token') } },
        },
        {
          selector: { dnsZones: ['internal.example.net'] },
          dns01: { route53: { accessKeyIDSecretRef: key('aws', 'access-key-id'), secretAccessKeySecretRef: key('aws', 'secret-access-key'), region: 'us-east-1' } },
        },
        {
          selector: { dnsZones: ['example.io'] },
          dns01: { webhook: { groupName: 'acme.example.io', solverName: 'gandi', config: { apiKeySecretRef: { name: 'gandi', key: 'api-token' }, ttl: 300, zones: ['example.io'] } } },
        },
      ],
    },
  }),
  'ACME Issuer: the other DNS-01 providers': cm('Issuer', 'acme-dns-providers', {
    acme: {
      server: 'https://acme-staging-v02.api.letsencrypt.org/directory',
      privateKeySecretRef: key('staging-account'),
      skipTLSVerify: false,
      solvers: [
        { dns01: { acmeDNS: { host: 'https://auth.acme-dns.io', accountSecretRef: key('acme-dns', 'acmedns.json') } } },
        { dns01: { akamai: { serviceConsumerDomain: 'akab-xxxx.luna.akamaiapis.net', clientTokenSecretRef: key('akamai', 'clientToken'), clientSecretSecretRef: key('akamai', 'clientSecret'), accessTokenSecretRef: key('akamai', 'accessToken') } } },
        { dns01: { azureDNS: { subscriptionID: 'sub-1', resourceGroupName: 'dns', hostedZoneName: 'example.com', environment: 'AzurePublicCloud', managedIdentity: { clientID: 'client-1' } } } },
        { dns01: { azureDNS: { clientID: 'c', clientSecretSecretRef: key('azure', 'client-secret'), tenantID: 't', subscriptionID: 's', resourceGroupName: 'rg' } } },
        { dns01: { cloudDNS: { project: 'my-project', hostedZoneName: 'example-com', serviceAccountSecretRef: key('clouddns', 'key.json') } } },
        { dns01: { cloudflare: { email: 'dns@example.com', apiKeySecretRef: key('cloudflare', 'api-key') } } },
        { dns01: { digitalocean: { tokenSecretRef: key('digitalocean', 'access-token') } } },
        { dns01: { rfc2136: { nameserver: '[2001:db8::1]:53', tsigKeyName: 'acme', tsigAlgorithm: 'HMACSHA512', tsigSecretSecretRef: key('tsig', 'secret'), protocol: 'TCP' } } },
      ],
    },
  }),
  'Vault Issuer with Kubernetes auth (bound ServiceAccount token)': cm('Issuer', 'vault', {
    vault: {
      server: 'https://vault.example.com:8200',
      path: 'pki_int/sign/example-dot-com',
      namespace: 'platform',
      serverName: 'vault.example.com',
      caBundleSecretRef: key('vault-ca', 'ca.crt'),
      auth: { kubernetes: { mountPath: '/v1/auth/kubernetes', role: 'cert-manager', serviceAccountRef: { name: 'vault-issuer', audiences: ['vault://apps/vault'] } } },
    },
  }),
  'Vault Issuers with AppRole, token, client certificate and static-token Kubernetes auth': cm('Issuer', 'vault-approle', {
    vault: {
      server: 'https://vault.example.com:8200',
      path: 'pki/sign/apps',
      caBundle: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t',
      clientCertSecretRef: key('vault-mtls', 'tls.crt'),
      clientKeySecretRef: key('vault-mtls', 'tls.key'),
      auth: { appRole: { path: 'approle', roleId: '6a8c6a2f-0000-4c3e-a2c4-1d1f0e6c9b2a', secretRef: key('vault-approle', 'secretId') } },
    },
  }),
  'Vault Issuer with token auth': cm('Issuer', 'vault-token', { vault: { server: 'http://vault:8200', path: 'pki/sign/apps', auth: { tokenSecretRef: key('vault-token', 'token') } } }),
  'Vault Issuer with client-certificate auth': cm('Issuer', 'vault-cert', { vault: { server: 'https://vault:8200', path: 'pki/sign/apps', auth: { clientCertificate: { mountPath: '/v1/auth/cert', name: 'cert-manager', secretName: 'vault-client-tls' } } } }),
  'Vault Issuer with Kubernetes auth (token in a Secret)': cm('Issuer', 'vault-sa-secret', { vault: { server: 'https://vault:8200', path: 'pki/sign/apps', auth: { kubernetes: { role: 'issuer', secretRef: key('issuer-token', 'token') } } } }),
  'CA Issuer': cm('Issuer', 'internal-ca', {
    ca: { secretName: 'internal-ca-key-pair', crlDistributionPoints: ['http://pki.example.com/crl.pem'], ocspServers: ['http://ocsp.example.com'], issuingCertificateURLs: ['http://pki.example.com/ca.crt'] },
  }),
  'self-signed ClusterIssuer': cm('ClusterIssuer', 'selfsigned', { selfSigned: { crlDistributionPoints: ['http://pki.example.com/crl.pem'] } }),
  'Venafi TPP Issuer': cm('Issuer', 'tpp', { venafi: { zone: 'devops\\cert-manager', tpp: { url: 'https://tpp.example.com/vedsdk', credentialsRef: { name: 'tpp-credentials' }, caBundleSecretRef: key('tpp-ca', 'ca.crt') } } }),
  'Venafi Cloud Issuer': cm('Issuer', 'vaas', { venafi: { zone: 'My Application\\My CIT', cloud: { url: 'https://api.venafi.cloud/v1', apiTokenSecretRef: key('vaas', 'apikey') } } }),
  'Certificate with every common field': cm('Certificate', 'web', {
    secretName: 'web-tls',
    issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer', group: 'cert-manager.io' },
    commonName: 'web.apps.example.com',
    dnsNames: ['web.apps.example.com', 'www.example.com'],
    ipAddresses: ['192.0.2.10'],
    uris: ['spiffe://cluster.local/ns/apps/sa/web'],
    emailAddresses: ['web@example.com'],
    subject: { organizations: ['Example'], countries: ['NL'], organizationalUnits: ['Platform'], localities: ['Amsterdam'], provinces: ['NH'], streetAddresses: ['Main 1'], postalCodes: ['1000AA'], serialNumber: '1' },
    duration: '2160h',
    renewBefore: '360h',
    isCA: false,
    usages: ['server auth', 'client auth', 'digital signature', 'key encipherment'],
    privateKey: { algorithm: 'ECDSA', size: 384, encoding: 'PKCS8', rotationPolicy: 'Always' },
    revisionHistoryLimit: 3,
    secretTemplate: { annotations: { 'reflector.v1.k8s.emberstack.com/reflection-allowed': 'true' }, labels: { app: 'web' } },
    keystores: { pkcs12: { create: true, passwordSecretRef: key('web-keystore', 'password'), profile: 'Modern2023' }, jks: { create: true, alias: 'web', password: 'changeit' } },
    additionalOutputFormats: [{ type: 'CombinedPEM' }, { type: 'DER' }],
  }),
  'CA Certificate with name constraints and a literal subject': cm('Certificate', 'intermediate', {
    secretName: 'intermediate-ca',
    issuerRef: { name: 'root-ca' },
    isCA: true,
    literalSubject: 'CN=Example Intermediate,O=Example,C=NL',
    renewBeforePercentage: 25,
    privateKey: { algorithm: 'RSA', size: 4096, encoding: 'PKCS1' },
    signatureAlgorithm: 'SHA512WithRSA',
    encodeUsagesInRequest: false,
    otherNames: [{ oid: '1.3.6.1.4.1.311.20.2.3', utf8Value: 'ca@example.com' }],
    nameConstraints: { critical: true, permitted: { dnsDomains: ['example.com'], ipRanges: ['10.0.0.0/8'] }, excluded: { emailAddresses: ['example.org'], uriDomains: ['example.org'] } },
  }),
  'CertificateRequest': cm('CertificateRequest', 'web-1', {
    request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0=',
    issuerRef: { name: 'internal-ca', kind: 'Issuer', group: 'cert-manager.io' },
    duration: '720h',
    isCA: false,
    usages: ['digital signature', 'key encipherment', 'server auth'],
  }, {
    status: {
      conditions: [{ type: 'Approved', status: 'True', reason: 'cert-manager.io', message: 'Certificate request has been approved by cert-manager.io', lastTransitionTime: '2026-01-10T10:00:00Z' }],
      certificate: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t',
      ca: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t',
    },
  }),
  'Order with its authorizations': cm('Order', 'web-1-2917', {
    request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0=',
    issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer', group: 'cert-manager.io' },
    commonName: 'web.apps.example.com',
    dnsNames: ['web.apps.example.com', '*.apps.example.com'],
  }, {
    status: {
      url: 'https://acme-v02.api.letsencrypt.org/acme/order/1/2',
      finalizeURL: 'https://acme-v02.api.letsencrypt.org/acme/finalize/1/2',
      state: 'pending',
      authorizations: [{
        url: 'https://acme-v02.api.letsencrypt.org/acme/authz-v3/3',
        identifier: 'apps.example.com',
        wildcard: true,
        initialState: 'pending',
        challenges: [{ url: 'https://acme-v02.api.letsencrypt.org/acme/chall-v3/3/a', token: 'tok', type: 'dns-01' }],
      }],
    },
  }),
  'Challenge with the solver copied from the issuer': cm('Challenge', 'web-1-2917-1', {
    url: 'https://acme-v02.api.letsencrypt.org/acme/chall-v3/3/a',
    authorizationURL: 'https://acme-v02.api.letsencrypt.org/acme/authz-v3/3',
    dnsName: 'apps.example.com',
    wildcard: true,
    type: 'DNS-01',
    token: 'tok',
    key: 'k3y',
    solver: { selector: { dnsNames: ['*.apps.example.com'] }, dns01: { cloudflare: { apiTokenSecretRef: key('cloudflare-api-token', 'api-token') } } },
    issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer', group: 'cert-manager.io' },
  }, { status: { processing: true, presented: true, state: 'pending', reason: 'Waiting for DNS-01 challenge propagation' } }),
};

describe('cert-manager examples are accepted with nothing pruned', () => {
  test.each(Object.entries(examples))('%s', (_name, obj) => {
    expect(issues(obj)).toEqual([]);
  });
});

describe('mistakes inside the nested schemas are caught, not pruned', () => {
  const solverIssuer = (solver: any) => cm('Issuer', 'i', { acme: { server: 'https://acme', privateKeySecretRef: key('k'), solvers: [solver] } });
  const cases: Array<[string, any, RegExp]> = [
    ['a misspelled Route 53 field', solverIssuer({ dns01: { route53: { hostedZoneId: 'Z1' } } }), /hostedZoneId/],
    ['a container in the solver pod template (not an upstream field)', solverIssuer({ http01: { ingress: { podTemplate: { spec: { containers: [{ name: 'x' }] } } } } }), /containers/],
    ['a Cloudflare solver with the token under the wrong name', solverIssuer({ dns01: { cloudflare: { apiToken: key('t') } } }), /apiToken/],
    ['a webhook solver without its solverName', solverIssuer({ dns01: { webhook: { groupName: 'acme.example.io' } } }), /solverName/],
    ['an unknown cnameStrategy', solverIssuer({ dns01: { cnameStrategy: 'Always', cloudflare: {} } }), /cnameStrategy/],
    ['an RFC 2136 protocol in lower case', solverIssuer({ dns01: { rfc2136: { nameserver: 'ns:53', protocol: 'tcp' } } }), /protocol/],
    ['a parentRef without a name', solverIssuer({ http01: { gatewayHTTPRoute: { parentRefs: [{ namespace: 'gw' }] } } }), /name/],
    ['a Vault Kubernetes auth without its role', cm('Issuer', 'v', { vault: { server: 's', path: 'p', auth: { kubernetes: { secretRef: key('t') } } } }), /role/],
    ['an unknown Vault auth method', cm('Issuer', 'v', { vault: { server: 's', path: 'p', auth: { aws: { role: 'r' } } } }), /aws/],
    ['a Venafi TPP without credentials', cm('Issuer', 'v', { venafi: { zone: 'z', tpp: { url: 'https://tpp' } } }), /credentialsRef/],
    ['a CertificateRequest listing a usage twice (usages is a set)', cm('CertificateRequest', 'r', { request: 'eA==', issuerRef: { name: 'i' }, usages: ['server auth', 'server auth'] }), /usages/],
    ['an Order authorization challenge without its token', cm('Order', 'o', { request: 'eA==', issuerRef: { name: 'i' } }, { status: { authorizations: [{ url: 'u', challenges: [{ url: 'u', type: 'http-01' }] }] } }), /token/],
  ];
  test.each(cases)('%s', (_name, obj, pattern) => {
    const found = issues(obj);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(pattern);
  });

  test('a webhook solver\'s config is kept as given (open upstream too)', () => {
    const obj = solverIssuer({ dns01: { webhook: { groupName: 'g', solverName: 's', config: { anything: { nested: [1, 'two'] } } } } });
    expect(issues(obj)).toEqual([]);
    const spec = named('CustomResourceDefinition', 'issuers.cert-manager.io').spec.versions[0].schema.openAPIV3Schema.properties.spec;
    const webhook = spec.properties.acme.properties.solvers.items.properties.dns01.properties.webhook;
    expect(webhook.properties.config).toEqual(expect.objectContaining({ 'x-kubernetes-preserve-unknown-fields': true }));
  });
});

describe('open objects', () => {
  /** Paths of every x-kubernetes-preserve-unknown-fields node under a schema. */
  function openPaths(node: any, path: string, out: string[]): string[] {
    if (!node || typeof node !== 'object') return out;
    if (node['x-kubernetes-preserve-unknown-fields']) out.push(path);
    for (const [k, v] of Object.entries<any>(node.properties ?? {})) openPaths(v, `${path}.${k}`, out);
    if (node.items) openPaths(node.items, `${path}[]`, out);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') openPaths(node.additionalProperties, `${path}{}`, out);
    return out;
  }
  test('only the DNS-01 webhook config is open, in every kind that embeds a solver', () => {
    const open = Object.fromEntries(Object.values(GROUPS).map((crd) => [crd, openPaths(named('CustomResourceDefinition', crd).spec.versions[0].schema.openAPIV3Schema, '', [])]));
    expect(open).toEqual({
      'certificates.cert-manager.io': [],
      'certificaterequests.cert-manager.io': [],
      'issuers.cert-manager.io': ['.spec.acme.solvers[].dns01.webhook.config'],
      'clusterissuers.cert-manager.io': ['.spec.acme.solvers[].dns01.webhook.config'],
      'orders.acme.cert-manager.io': [],
      'challenges.acme.cert-manager.io': ['.spec.solver.dns01.webhook.config'],
    });
  });
});
