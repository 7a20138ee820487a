import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { ModelRegistryOperator, ModelRegistryOperatorProps } from '../../../constructs/model-registry-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { PolicyRule, uncoveredRules } from '../../../lib/rbac';
import { wiringTable } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { validateCustomResource } from '../../../lib/validation';
import { pinnable } from '../../platforms/helpers';

function platform(props: ModelRegistryOperatorProps = {}, opts: { kserve?: boolean; openshift?: boolean } = {}) {
  const p = new Platform(new App(), 'p', {
    name: 'mr',
    prerequisites: opts.openshift ? [] : [CERT_MANAGER],
    certificates: opts.openshift ? CertificateProvider.openShiftServiceCa() : undefined,
  });
  if (opts.kserve ?? true) {
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new KServe(p, 'kserve');
  }
  const c = new ModelRegistryOperator(p, 'model-registry-operator', props);
  return { p, c };
}

function built(props: ModelRegistryOperatorProps = {}, opts: { openshift?: boolean } = {}) {
  const { p, c } = platform(props, opts);
  const build = buildPlatform(p);
  return { build, c, objects: build.model.objects.filter((o) => o.component === c).map((o) => o.json) };
}

const alone = built();
const find = (kind: string, name?: string, objects = alone.objects) => objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const mrCrd = find('CustomResourceDefinition', 'modelregistries.modelregistry.opendatahub.io');
const webhooks = (objects = alone.objects) => objects.filter((o) => o.kind.endsWith('WebhookConfiguration')).flatMap((o) => o.webhooks.map((w: any) => ({ config: o.metadata.name, ...w })));

describe('ModelRegistryOperator CRDs', () => {
  test('ModelRegistry: v1alpha1 served and deprecated, v1beta1 stored, short name mr', () => {
    expect(mrCrd.spec.names).toEqual({ kind: 'ModelRegistry', listKind: 'ModelRegistryList', plural: 'modelregistries', singular: 'modelregistry', shortNames: ['mr'] });
    expect(mrCrd.spec.versions.map((v: any) => [v.name, v.served, v.storage, v.deprecated ?? false])).toEqual([['v1alpha1', true, false, true], ['v1beta1', true, true, false]]);
    expect(mrCrd.spec.versions[0].deprecationWarning).toContain('use v1beta1');
  });

  test('ModelRegistry converts through the operator webhook service', () => {
    expect(mrCrd.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { name: 'model-registry-operator-webhook-service', namespace: 'opendatahub', path: '/convert', port: 443 } },
        conversionReviewVersions: ['v1beta1', 'v1alpha1'],
      },
    });
    expect(mrCrd.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('opendatahub/model-registry-operator-webhook-service-cert');
  });

  test('printer columns: hidden details at priority 2', () => {
    const cols = (i: number) => mrCrd.spec.versions[i].additionalPrinterColumns.map((c: any) => `${c.name}:${c.priority ?? 0}`);
    expect(cols(0)).toEqual(['Available:0', 'Istio:2', 'Gateway:2', 'OAuthProxy:2', 'Age:0', 'Hosts:2', 'Status:2']);
    expect(cols(1)).toEqual(['Available:0', 'KubeRBACProxy:2', 'Age:0', 'Hosts:2', 'Status:2']);
  });

  test('CEL: 2 rules in v1alpha1, 6 in v1beta1', () => {
    const count = (i: number) => (JSON.stringify(mrCrd.spec.versions[i].schema).match(/"rule":/g) ?? []).length;
    expect([count(0), count(1)]).toEqual([2, 6]);
  });

  test('v1beta1 accepts an external PostgreSQL or a generated one, and rejects incomplete or conflicting settings', () => {
    const mr = (spec: object) => ({ apiVersion: 'modelregistry.opendatahub.io/v1beta1', kind: 'ModelRegistry', metadata: { name: 'registry', namespace: 'team' }, spec });
    const messages = (spec: object) => validateCustomResource(mr(spec), mrCrd).map((i) => i.message);
    expect(messages({ rest: {}, postgres: { host: 'db', database: 'registry', username: 'u', passwordSecret: { name: 'db', key: 'password' } } })).toEqual([]);
    expect(messages({ rest: {}, postgres: { generateDeployment: true } })).toEqual([]);
    expect(messages({ rest: {}, postgres: { database: 'registry' } })).toEqual(['host or hostAddress is required unless generateDeployment is true']);
    expect(messages({ rest: {}, postgres: { generateDeployment: true, host: 'db' } })).toEqual(['host and hostAddress must be unset when generateDeployment is true']);
    expect(messages({ rest: {}, mysql: { host: 'db', database: 'r', username: 'u' }, oauthProxy: {}, kubeRBACProxy: {} })).toEqual(['oauthProxy and kubeRBACProxy cannot both be set']);
    expect(messages({ rest: {}, mysql: { host: 'db', database: 'r', username: 'u' }, kubeRBACProxy: { tlsCertificateSecret: { name: 'tls', key: 'tls.crt' } } })).toEqual(['tlsCertificateSecret and tlsKeySecret go together']);
  });

  test('v1alpha1 rejects istio together with oauthProxy', () => {
    const obj = { apiVersion: 'modelregistry.opendatahub.io/v1alpha1', kind: 'ModelRegistry', metadata: { name: 'r', namespace: 't' }, spec: { rest: {}, grpc: {}, istio: {}, oauthProxy: {} } };
    expect(validateCustomResource(obj, mrCrd).map((i) => i.message)).toEqual(['istio and oauthProxy cannot both be set']);
  });

  test('MRO-VERSION: only the ModelRegistry CRD, the one v0.3.8 installs (no Catalog or AIHub kinds at that tag)', () => {
    expect(alone.objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toEqual(['modelregistries.modelregistry.opendatahub.io']);
  });
});

describe('ModelRegistryOperator managers', () => {
  test('the operator: image, args, storage migration, webhook and secure metrics', () => {
    const d = find('Deployment', 'model-registry-operator-controller-manager');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/model-registry-operator:v0.3.8');
    expect(c.args).toEqual([
      '--health-probe-bind-address=:8081', '--leader-elect', '--metrics-bind-address=:8443', '--metrics-secure=true',
      '--metrics-cert-dir=/etc/server-cert/', '--metrics-cert-name=tls.crt', '--metrics-key-name=tls.key',
    ]);
    expect(c.env).toEqual(expect.arrayContaining([
      { name: 'STORAGE_MIGRATION_SOURCE_VERSION', value: 'v1alpha1' },
      { name: 'STORAGE_MIGRATION_TARGET_VERSION', value: 'v1beta1' },
      { name: 'KUBE_RBAC_PROXY_IMAGE', value: 'quay.io/openshift/origin-kube-rbac-proxy:4.19' },
    ]));
    expect(c.env.every((e: any) => !String(e.value ?? '').endsWith(':latest'))).toBe(true);
    expect(d.spec.selector.matchLabels).toEqual({ 'component.opendatahub.io/name': 'model-registry-operator', 'control-plane': 'model-registry-operator', 'opendatahub.io/component': 'true' });
    expect(c.volumeMounts.map((m: any) => m.mountPath)).toEqual(expect.arrayContaining(['/etc/server-cert', '/tmp/k8s-webhook-server/serving-certs']));
    expect(find('Service', 'model-registry-operator-controller-manager-metrics-service').spec.ports[0]).toMatchObject({ name: 'https', port: 8443 });
    expect(find('Certificate', 'model-registry-operator-controller-manager-metrics-service-cert').spec.secretName).toBe('model-registry-operator-controller-manager-metrics-service');
  });

  test('MRO-VERSION: one manager, /manager without subcommand (v0.3.8 has no catalog or aihub subcommands), with only the flags v0.3.8 defines', () => {
    expect(alone.objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name)).toEqual(['model-registry-operator-controller-manager']);
    const c = find('Deployment', 'model-registry-operator-controller-manager').spec.template.spec.containers[0];
    expect(c.command).toEqual(['/manager']);
    const flags = c.args.map((a: string) => a.replace(/=.*$/, ''));
    for (const f of flags) expect(['--health-probe-bind-address', '--leader-elect', '--metrics-bind-address', '--metrics-secure', '--metrics-cert-dir', '--metrics-cert-name', '--metrics-key-name']).toContain(f);
    expect(alone.c.operator.grants.map((g) => `${g.kind} ${g.name}`)).toEqual(['Role registry-user-<registry>', 'Role model-catalog', 'Role model-catalog-admin',
      'RoleBinding <registry>-users', 'RoleBinding model-catalog-authenticated', 'RoleBinding model-catalog-admin-binding',
      'ClusterRoleBinding <registry>-auth-delegator', 'ClusterRoleBinding model-catalog-auth-delegator']);
  });

  test('IMAGE-TAGS: the operator and REST images are v0.3.8\'s; the images upstream names `latest` are pinned to release tags of the same repositories (evidence)', () => {
    // Upstream's manager env at v0.3.8 (config/overlays/odh params.env; also the operator's compiled-in defaults).
    const upstream: Record<string, string> = {
      REST_IMAGE: 'quay.io/opendatahub/model-registry:v0.3.8',
      OAUTH_PROXY_IMAGE: 'quay.io/openshift/origin-oauth-proxy:latest',
      KUBE_RBAC_PROXY_IMAGE: 'quay.io/openshift/origin-kube-rbac-proxy:latest',
      POSTGRES_IMAGE: 'quay.io/sclorg/postgresql-16-c10s:latest',
      CATALOG_DATA_IMAGE: 'quay.io/opendatahub/odh-model-metadata-collection:latest',
      BENCHMARK_DATA_IMAGE: 'quay.io/opendatahub/odh-model-metadata-collection:latest',
    };
    const d = find('Deployment', 'model-registry-operator-controller-manager');
    expect(d.spec.template.spec.containers[0].image).toBe('quay.io/opendatahub/model-registry-operator:v0.3.8');
    const env = Object.fromEntries(d.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value]));
    const split = (ref: string) => [ref.slice(0, ref.lastIndexOf(':')), ref.slice(ref.lastIndexOf(':') + 1)];
    for (const [name, ref] of Object.entries(upstream)) {
      const [repo, tag] = split(ref);
      const [ourRepo, ourTag] = split(env[name]);
      expect([name, ourRepo]).toEqual([name, repo]);
      // A release tag is upstream's own; `latest` is replaced by a pinned tag (this project never deploys latest).
      expect([name, tag === 'latest' ? ourTag !== 'latest' : ourTag === tag]).toEqual([name, true]);
    }
    expect(['OAUTH_PROXY_IMAGE', 'KUBE_RBAC_PROXY_IMAGE', 'POSTGRES_IMAGE', 'CATALOG_DATA_IMAGE'].map((n) => split(env[n])[1])).toEqual(['4.16', '4.19', '20250108', 'odh-stable']);
  });

  test('MRO-ENV: the env names v0.3.8 reads (REST_IMAGE and the like), as its odh overlay sets them; no env of main', () => {
    const c = find('Deployment', 'model-registry-operator-controller-manager').spec.template.spec.containers[0];
    expect(c.env.map((e: any) => e.name)).toEqual([
      'POD_NAMESPACE', 'STORAGE_MIGRATION_SOURCE_VERSION', 'STORAGE_MIGRATION_TARGET_VERSION', 'ENABLE_WEBHOOKS', 'DEFAULT_CONTROL_PLANE', 'DEFAULT_ISTIO_INGRESS',
      'REST_IMAGE', 'OAUTH_PROXY_IMAGE', 'KUBE_RBAC_PROXY_IMAGE', 'POSTGRES_IMAGE', 'CATALOG_DATA_IMAGE', 'BENCHMARK_DATA_IMAGE',
      'CREATE_AUTH_RESOURCES', 'REGISTRIES_NAMESPACE', 'DEFAULT_DOMAIN', 'ENABLE_MODEL_CATALOG', 'SKIP_MODEL_CATALOG_DB_CREATION', 'GATEWAY_DOMAIN',
    ]);
    const value = (name: string) => c.env.find((e: any) => e.name === name).value;
    expect(value('REST_IMAGE')).toBe('quay.io/opendatahub/model-registry:v0.3.8');
    expect(value('CATALOG_DATA_IMAGE')).toBe('quay.io/opendatahub/odh-model-metadata-collection:odh-stable');
    expect(value('ENABLE_MODEL_CATALOG')).toBe('');
    expect(c.env.every((e: any) => !String(e.value ?? '').endsWith(':latest'))).toBe(true);
    const off = built({ modelCatalog: false, registriesNamespace: 'registries' }).objects;
    const offEnv = find('Deployment', 'model-registry-operator-controller-manager', off).spec.template.spec.containers[0].env;
    expect(offEnv.filter((e: any) => ['ENABLE_MODEL_CATALOG', 'REGISTRIES_NAMESPACE'].includes(e.name))).toEqual([{ name: 'REGISTRIES_NAMESPACE', value: 'registries' }, { name: 'ENABLE_MODEL_CATALOG', value: 'false' }]);
  });

  test('RBAC as v0.3.8: owns ModelRegistry, manages operands, holds the Roles it creates; no wildcards', () => {
    const role = find('ClusterRole', 'model-registry-operator-controller-manager-role');
    const triples = role.rules.flatMap((r: any) => (r.apiGroups ?? []).flatMap((g: string) => (r.resources ?? []).map((res: string) => `${g}/${res}:${r.verbs.join(',')}`)));
    expect(triples).toEqual(expect.arrayContaining([
      'modelregistry.opendatahub.io/modelregistries:create,delete,get,list,patch,update,watch', 'modelregistry.opendatahub.io/modelregistries/status:get,patch,update',
      'apps/deployments:create,delete,get,list,patch,update,watch', 'user.openshift.io/groups:create,delete,get,list,patch,update,watch',
      'migration.k8s.io/storageversionmigrations:create,delete,get,list,patch,update,watch', 'events.k8s.io/events:create,patch',
    ]));
    // Kinds of main, not of v0.3.8.
    const groups = role.rules.flatMap((r: any) => r.apiGroups ?? []);
    for (const g of ['gateway.networking.k8s.io', 'aihub.opendatahub.io', 'components.platform.opendatahub.io/aihubs']) expect(groups).not.toContain(g);
    expect(triples.filter((t: string) => t.startsWith('config.openshift.io/'))).toEqual(['config.openshift.io/ingresses:get,list,watch']);
    expect(JSON.stringify(role.rules)).not.toContain('"*"');
    for (const g of alone.c.operator.grants) expect([g.name, uncoveredRules(role.rules as PolicyRule[], g.rules ?? [])]).toEqual([g.name, []]);
  });

  test('MRO-VERSION: requires no other component (v0.3.8 neither watches nor creates InferenceServices)', () => {
    expect(alone.c.requires).toEqual([]);
    expect(() => buildPlatform(platform({}, { kserve: false }).p)).not.toThrow();
  });
});

describe('ModelRegistryOperator webhooks', () => {
  test('mutating and validating ModelRegistry webhooks on both versions, as v0.3.8 (no Catalog validator at that tag)', () => {
    const all = webhooks();
    expect(all.map((w) => [w.config, w.name, w.clientConfig.service.name, w.clientConfig.service.path, w.matchPolicy, w.admissionReviewVersions.join(','), w.timeoutSeconds])).toEqual([
      ['model-registry-operator-mutating-webhook-configuration', 'mmodelregistry.opendatahub.io', 'model-registry-operator-webhook-service', '/mutate-modelregistry-opendatahub-io-modelregistry', 'Equivalent', 'v1beta1,v1alpha1', undefined],
      ['model-registry-operator-validating-webhook-configuration', 'vmodelregistry.opendatahub.io', 'model-registry-operator-webhook-service', '/validate-modelregistry-opendatahub-io-modelregistry', 'Equivalent', 'v1beta1,v1alpha1', undefined],
    ]);
    expect(all[0].rules).toEqual([{ apiGroups: ['modelregistry.opendatahub.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['modelregistries'], operations: ['CREATE', 'UPDATE'] }]);
    for (const w of all) expect([w.failurePolicy, w.sideEffects]).toEqual(['Fail', 'None']);
  });

  test('every webhook and the conversion resolve to their manager with a CA source', () => {
    const lines = wiringTable(alone.build.model).filter((l) => l.includes('opendatahub/'));
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).toMatch(/-> Deployment\/model-registry-operator-controller-manager:9443 -> cert-manager opendatahub\/\S+ -> Fail$/);
  });

  test('on OpenShift (as Open Data Hub ships it) the service CA signs webhooks, conversion and metrics', () => {
    const os = built({}, { openshift: true });
    expect(find('Service', 'model-registry-operator-webhook-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'model-registry-operator-webhook-service' });
    expect(find('Service', 'model-registry-operator-controller-manager-metrics-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'model-registry-operator-controller-manager-metrics-service' });
    expect(find('CustomResourceDefinition', 'modelregistries.modelregistry.opendatahub.io', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    expect(os.objects.filter((o) => o.kind === 'Certificate')).toEqual([]);
  });
});

describe('ModelRegistryOperator validation', () => {
  test('fails when registriesNamespace is not a DNS label', () => {
    expect(() => platform({ registriesNamespace: 'My Registries' })).toThrow(
      "p/model-registry-operator: registriesNamespace 'My Registries' must be a lower-case DNS label of at most 63 characters, or '' for each registry's own namespace",
    );
  });

  test('fails when replicas is negative', () => {
    expect(() => platform({ replicas: -1 })).toThrow('p/model-registry-operator/Operator: replicas -1 must be a whole number >= 0');
  });
});

describe('ModelRegistryOperator alone', () => {
  test('synthesizes next to KServe and the inference extension, with 0 findings, depending on neither', () => {
    expect(alone.build.model.components.map((c) => c.componentName).sort()).toEqual(['gateway-api-inference-extension', 'kserve', 'model-registry-operator']);
    expect(alone.objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(1);
  });

  test('snapshot of its objects', () => {
    expect(alone.objects.map(pinnable)).toMatchSnapshot();
  });
});
