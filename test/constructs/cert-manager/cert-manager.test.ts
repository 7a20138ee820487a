import { App } from 'cdk8s';
import { CertManager, CertManagerProps, CRDS } from '../../../constructs/cert-manager';
import { Katib, KatibTrialKind } from '../../../constructs/katib';
import { CertificateProvider } from '../../../lib/certificates';
import { Phase } from '../../../lib/phases';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { validateCustomResources } from '../../../lib/validation';
import { pinnable } from '../../platforms/helpers';
import { objectsOf } from '../support/objects';

function platform(props: CertManagerProps = {}) {
  const p = new Platform(new App(), 'p', { name: 'cert-manager-only' });
  const cm = new CertManager(p, 'cert-manager', props);
  return { p, cm };
}

const built = buildPlatform(platform().p);
const { ofKind, named, container, can } = objectsOf(built);

describe('cert-manager CRDs', () => {
  test('CM-SHORTNAMES: six v1 kinds in two groups, names, scopes, short names (iss, ciss included) and categories as v1.19.2\'s markers', () => {
    expect(ofKind('CustomResourceDefinition').map((c) => [c.metadata.name, c.spec.scope, c.spec.names.shortNames, c.spec.names.categories])).toEqual([
      ['certificaterequests.cert-manager.io', 'Namespaced', ['cr', 'crs'], ['cert-manager']],
      ['certificates.cert-manager.io', 'Namespaced', ['cert', 'certs'], ['cert-manager']],
      ['challenges.acme.cert-manager.io', 'Namespaced', undefined, ['cert-manager', 'cert-manager-acme']],
      ['clusterissuers.cert-manager.io', 'Cluster', ['ciss'], ['cert-manager']],
      ['issuers.cert-manager.io', 'Namespaced', ['iss'], ['cert-manager']],
      ['orders.acme.cert-manager.io', 'Namespaced', undefined, ['cert-manager', 'cert-manager-acme']],
    ]);
    for (const c of ofKind('CustomResourceDefinition')) {
      expect(c.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1', true, true]]);
      const root = c.spec.versions[0].schema.openAPIV3Schema;
      expect(root.required).toEqual(['spec']);
      expect(root.properties.spec['x-kubernetes-preserve-unknown-fields']).toBeUndefined();
      expect(root.properties.status.type).toBe('object');
    }
    expect(named('CustomResourceDefinition', 'certificates.cert-manager.io').spec.versions[0].additionalPrinterColumns.map((x: any) => x.name))
      .toEqual(['Ready', 'Secret', 'Issuer', 'Status', 'Age']);
    expect(CRDS).toHaveLength(6);
  });
});

describe('cert-manager CRD schemas', () => {
  const schemaOf = (crd: string) => named('CustomResourceDefinition', crd).spec.versions[0].schema.openAPIV3Schema;
  const fields = (crd: string, path: string[]) => Object.keys(path.reduce((n: any, k) => (k === '[]' ? n.items : n.properties[k]), schemaOf(crd)).properties).sort();
  const check = (crd: string, objs: any[]) => validateCustomResources(objs, named('CustomResourceDefinition', crd)).map((issues) => issues.map((i) => `${i.path}: ${i.message}`));

  test('every field of spec and status at the top levels', () => {
    expect(fields('certificates.cert-manager.io', ['spec'])).toEqual([
      'additionalOutputFormats', 'commonName', 'dnsNames', 'duration', 'emailAddresses', 'encodeUsagesInRequest', 'ipAddresses', 'isCA', 'issuerRef', 'keystores', 'literalSubject',
      'nameConstraints', 'otherNames', 'privateKey', 'renewBefore', 'renewBeforePercentage', 'revisionHistoryLimit', 'secretName', 'secretTemplate', 'signatureAlgorithm', 'subject', 'uris', 'usages',
    ]);
    expect(fields('certificates.cert-manager.io', ['status'])).toEqual(['conditions', 'failedIssuanceAttempts', 'lastFailureTime', 'nextPrivateKeySecretName', 'notAfter', 'notBefore', 'renewalTime', 'revision']);
    for (const crd of ['issuers.cert-manager.io', 'clusterissuers.cert-manager.io']) {
      expect(fields(crd, ['spec'])).toEqual(['acme', 'ca', 'selfSigned', 'vault', 'venafi']);
      expect(fields(crd, ['spec', 'acme'])).toEqual(['caBundle', 'disableAccountKeyGeneration', 'email', 'enableDurationFeature', 'externalAccountBinding', 'preferredChain', 'privateKeySecretRef', 'profile', 'server', 'skipTLSVerify', 'solvers']);
      expect(fields(crd, ['status'])).toEqual(['acme', 'conditions']);
    }
    expect(fields('certificaterequests.cert-manager.io', ['spec'])).toEqual(['duration', 'extra', 'groups', 'isCA', 'issuerRef', 'request', 'uid', 'usages', 'username']);
    expect(fields('orders.acme.cert-manager.io', ['status'])).toEqual(['authorizations', 'certificate', 'failureTime', 'finalizeURL', 'reason', 'state', 'url']);
    expect(fields('challenges.acme.cert-manager.io', ['spec'])).toEqual(['authorizationURL', 'dnsName', 'issuerRef', 'key', 'solver', 'token', 'type', 'url', 'wildcard']);
    expect(schemaOf('certificates.cert-manager.io').properties.status.properties.conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
  });

  test('the nested issuer and solver fields are cert-manager v1.19\'s', () => {
    const issuer = (path: string[]) => fields('issuers.cert-manager.io', ['spec', ...path]);
    const solver = ['acme', 'solvers', '[]'];
    expect(issuer(solver)).toEqual(['dns01', 'http01', 'selector']);
    expect(issuer([...solver, 'selector'])).toEqual(['dnsNames', 'dnsZones', 'matchLabels']);
    expect(issuer([...solver, 'dns01'])).toEqual(['acmeDNS', 'akamai', 'azureDNS', 'cloudDNS', 'cloudflare', 'cnameStrategy', 'digitalocean', 'rfc2136', 'route53', 'webhook']);
    expect(issuer([...solver, 'dns01', 'route53'])).toEqual(['accessKeyID', 'accessKeyIDSecretRef', 'auth', 'hostedZoneID', 'region', 'role', 'secretAccessKeySecretRef']);
    expect(issuer([...solver, 'dns01', 'azureDNS'])).toEqual(['clientID', 'clientSecretSecretRef', 'environment', 'hostedZoneName', 'managedIdentity', 'resourceGroupName', 'subscriptionID', 'tenantID']);
    expect(issuer([...solver, 'dns01', 'rfc2136'])).toEqual(['nameserver', 'protocol', 'tsigAlgorithm', 'tsigKeyName', 'tsigSecretSecretRef']);
    expect(issuer([...solver, 'http01'])).toEqual(['gatewayHTTPRoute', 'ingress']);
    expect(issuer([...solver, 'http01', 'ingress'])).toEqual(['class', 'ingressClassName', 'ingressTemplate', 'name', 'podTemplate', 'serviceType']);
    expect(issuer([...solver, 'http01', 'gatewayHTTPRoute'])).toEqual(['labels', 'parentRefs', 'podTemplate', 'serviceType']);
    expect(issuer([...solver, 'http01', 'ingress', 'podTemplate', 'spec'])).toEqual([
      'affinity', 'imagePullSecrets', 'nodeSelector', 'priorityClassName', 'resources', 'securityContext', 'serviceAccountName', 'tolerations',
    ]);
    expect(issuer([...solver, 'http01', 'ingress', 'podTemplate', 'spec', 'securityContext'])).toEqual([
      'fsGroup', 'fsGroupChangePolicy', 'runAsGroup', 'runAsNonRoot', 'runAsUser', 'seLinuxOptions', 'seccompProfile', 'supplementalGroups', 'sysctls',
    ]);
    // Pod template parts reuse the generated core types.
    const podSpec = schemaOf('issuers.cert-manager.io').properties.spec.properties.acme.properties.solvers.items.properties.http01.properties.ingress.properties.podTemplate.properties.spec;
    expect(Object.keys(podSpec.properties.affinity.properties).sort()).toEqual(['nodeAffinity', 'podAffinity', 'podAntiAffinity']);
    expect(podSpec.properties.tolerations.items.properties.tolerationSeconds).toEqual({ type: 'integer', format: 'int64' });
    expect(issuer(['vault', 'auth'])).toEqual(['appRole', 'clientCertificate', 'kubernetes', 'tokenSecretRef']);
    expect(issuer(['vault', 'auth', 'kubernetes'])).toEqual(['mountPath', 'role', 'secretRef', 'serviceAccountRef']);
    expect(issuer(['venafi', 'tpp'])).toEqual(['caBundle', 'caBundleSecretRef', 'credentialsRef', 'url']);
    expect(fields('challenges.acme.cert-manager.io', ['spec', 'solver'])).toEqual(['dns01', 'http01', 'selector']);
    expect(fields('orders.acme.cert-manager.io', ['status', 'authorizations', '[]'])).toEqual(['challenges', 'identifier', 'initialState', 'url', 'wildcard']);
  });

  test('the Certificates and Issuers platforms emit validate; mistakes are caught, not pruned', () => {
    const cert = (spec: any) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'c', namespace: 'n' }, spec });
    const good = { commonName: 'svc.ns.svc', dnsNames: ['svc.ns.svc'], issuerRef: { kind: 'Issuer', name: 'selfsigned-issuer' }, secretName: 'tls', privateKey: { algorithm: 'ECDSA', size: 256 } };
    expect(check('certificates.cert-manager.io', [
      cert(good), cert({ ...good, dnsName: ['x'] }), cert({ ...good, issuerRef: { kind: 'Issuer' } }), cert({ ...good, privateKey: { algorithm: 'DSA' } }), cert({ dnsNames: ['x'], issuerRef: { name: 'i' } }),
    ]).map((x) => x.length > 0)).toEqual([false, true, true, true, true]);
    const issuer = (spec: any) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'i', namespace: 'n' }, spec });
    expect(check('issuers.cert-manager.io', [
      issuer({ selfSigned: {} }), issuer({ ca: { secretName: 'ca' } }), issuer({ acme: { server: 'https://acme', privateKeySecretRef: { name: 'k' }, solvers: [{ http01: { ingress: {} } }] } }),
      issuer({ ca: {} }), issuer({ selfsigned: {} }),
    ]).map((x) => x.length > 0)).toEqual([false, false, false, true, true]);
  });
});

describe('CertManager component', () => {
  test('synthesizes alone with no prerequisites: it is the cert-manager infrastructure', () => {
    expect(built.model.platform.prerequisites).toEqual([]);
    expect(built.model.components[0].providesInfrastructure).toEqual(['cert-manager']);
    expect(built.model.components[0].requires).toEqual([]);
  });

  test('controller, cainjector and webhook images and flags', () => {
    expect(container('cert-manager').image).toBe('quay.io/jetstack/cert-manager-controller:v1.19.2');
    expect(container('cert-manager').args).toEqual(expect.arrayContaining([
      '--cluster-resource-namespace=$(POD_NAMESPACE)', '--leader-election-namespace=$(POD_NAMESPACE)',
      '--acme-http01-solver-image=quay.io/jetstack/cert-manager-acmesolver:v1.19.2', '--max-concurrent-challenges=60',
    ]));
    expect(container('cert-manager').livenessProbe.httpGet.path).toBe('/livez');
    expect(container('cert-manager-cainjector').image).toBe('quay.io/jetstack/cert-manager-cainjector:v1.19.2');
    expect(container('cert-manager-cainjector')).not.toHaveProperty('livenessProbe');
    const w = container('cert-manager-webhook');
    expect(w.image).toBe('quay.io/jetstack/cert-manager-webhook:v1.19.2');
    expect(w.args).toEqual(expect.arrayContaining([
      '--secure-port=10250', '--dynamic-serving-ca-secret-name=cert-manager-webhook-ca',
      '--dynamic-serving-dns-names=cert-manager-webhook,cert-manager-webhook.$(POD_NAMESPACE),cert-manager-webhook.$(POD_NAMESPACE).svc',
    ]));
    expect(w.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
  });

  test('webhooks: validate every cert-manager kind, mutate CertificateRequests; CA injected from the webhook\'s own Secret', () => {
    const v = named('ValidatingWebhookConfiguration', 'cert-manager-webhook');
    expect(v.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from-secret': 'cert-manager/cert-manager-webhook-ca' });
    expect(v.webhooks[0]).toMatchObject({
      name: 'webhook.cert-manager.io',
      failurePolicy: 'Fail',
      sideEffects: 'None',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 30,
      clientConfig: { service: { name: 'cert-manager-webhook', namespace: 'cert-manager', path: '/validate', port: 443 } },
      rules: [{ apiGroups: ['cert-manager.io', 'acme.cert-manager.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['*/*'] }],
      namespaceSelector: { matchExpressions: [{ key: 'cert-manager.io/disable-validation', operator: 'NotIn', values: ['true'] }] },
    });
    const m = named('MutatingWebhookConfiguration', 'cert-manager-webhook');
    expect(m.webhooks[0]).toMatchObject({ clientConfig: { service: { path: '/mutate' } }, rules: [{ apiGroups: ['cert-manager.io'], resources: ['certificaterequests'], operations: ['CREATE'] }] });
    expect(named('Secret', 'cert-manager-webhook-ca').metadata.namespace).toBe('cert-manager');
    expect(ofKind('Certificate')).toEqual([]);
  });

  test('RBAC: controller owns the six kinds and runs ACME solvers; cainjector patches webhook configurations and CRDs', () => {
    expect(can('ClusterRole', 'cert-manager-role', 'acme.cert-manager.io', 'challenges/status', 'update')).toBe(true);
    expect(can('ClusterRole', 'cert-manager-role', 'networking.k8s.io', 'ingresses', 'create')).toBe(true);
    expect(can('ClusterRole', 'cert-manager-role', 'cert-manager.io', 'signers', 'approve', 'issuers.cert-manager.io/*')).toBe(true);
    expect(can('ClusterRole', 'cert-manager-cainjector-role', 'admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'patch')).toBe(true);
    expect(can('ClusterRole', 'cert-manager-cainjector-role', 'apiextensions.k8s.io', 'customresourcedefinitions', 'update')).toBe(true);
    expect(can('ClusterRole', 'cert-manager-cainjector-role', '', 'secrets', 'update')).toBe(false);
    expect(can('ClusterRole', 'cert-manager-webhook-role', 'authorization.k8s.io', 'subjectaccessreviews', 'create')).toBe(true);
    expect(can('Role', 'cert-manager-webhook-cert-rotator', '', 'secrets', 'update', 'cert-manager-webhook-ca')).toBe(true);
  });

  test('its objects apply in the infrastructure phases', () => {
    const phase = (kind: string, name: string) => built.model.objects.find((o) => o.json.kind === kind && o.json.metadata.name === name)!.phase;
    expect(phase('CustomResourceDefinition', 'certificates.cert-manager.io')).toBe(Phase.FOUNDATION);
    expect(phase('Deployment', 'cert-manager-webhook')).toBe(Phase.INFRASTRUCTURE);
    expect(phase('ValidatingWebhookConfiguration', 'cert-manager-webhook')).toBe(Phase.INFRASTRUCTURE_WEBHOOKS);
    expect([...built.files.keys()].filter((f) => f.endsWith('.yaml')).map((f) => f.split('/')[0])).toEqual(
      expect.arrayContaining(['00-foundation', '03-infrastructure', '05-infrastructure-webhooks']),
    );
  });

  test('with Katib on cert-manager certificates: one pass, Issuer and Certificate after the cert-manager webhook and before Katib\'s pods', () => {
    const p = new Platform(new App(), 'p', { name: 'katib-cm', certificates: CertificateProvider.certManager() });
    new CertManager(p, 'cert-manager');
    new Katib(p, 'katib', { trialKinds: [KatibTrialKind.JOB] });
    const b = buildPlatform(p);
    const at = (kind: string, name: string) => b.model.objects.find((o) => o.json.kind === kind && o.json.metadata.name === name)!;
    const cmWebhook = at('ValidatingWebhookConfiguration', 'cert-manager-webhook');
    const issuer = at('Issuer', 'selfsigned-issuer');
    const cert = at('Certificate', 'katib-webhook-cert');
    const katib = at('Deployment', 'katib-controller');
    expect([issuer.phase, cert.phase, katib.phase]).toEqual([Phase.CONTROLLERS, Phase.CONTROLLERS, Phase.CONTROLLERS]);
    expect(cmWebhook.order).toBeLessThan(issuer.order);
    expect(issuer.order).toBeLessThan(cert.order);
    expect(cert.order).toBeLessThan(katib.order);
  });

  test('synthesizes alone (snapshot)', () => {
    expect(built.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('CertManager props', () => {
  test('fails when a replica count is not a whole number >= 1', () => {
    expect(() => platform({ webhookReplicas: 0 })).toThrow('p/cert-manager: webhookReplicas 0 is not allowed; set a whole number >= 1');
  });
  test('fails when maxConcurrentChallenges is not a whole number >= 1', () => {
    expect(() => platform({ maxConcurrentChallenges: 1.5 })).toThrow('p/cert-manager: maxConcurrentChallenges 1.5 is not allowed; set a whole number >= 1');
  });
  test('controllerReplicas > 1 runs with leader election in its namespace', () => {
    const b = buildPlatform(platform({ controllerReplicas: 2 }).p);
    expect(objectsOf(b).named('Deployment', 'cert-manager').spec.replicas).toBe(2);
    expect(objectsOf(b).can('Role', 'cert-manager-role', 'coordination.k8s.io', 'leases', 'update')).toBe(true);
  });
});
