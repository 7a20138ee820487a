import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { ModelRegistryOperator, ModelRegistryOperatorProps } from '../../../constructs/model-registry-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
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

  test('Catalog (aihub.opendatahub.io) and AIHub (cluster-scoped singleton) as upstream', () => {
    const catalog = find('CustomResourceDefinition', 'catalogs.aihub.opendatahub.io');
    expect([catalog.spec.scope, catalog.spec.versions.map((v: any) => v.name)]).toEqual(['Namespaced', ['v1alpha1']]);
    const aihub = find('CustomResourceDefinition', 'aihubs.components.platform.opendatahub.io');
    expect(aihub.spec.scope).toBe('Cluster');
    expect(aihub.spec.versions[0].additionalPrinterColumns.map((c: any) => c.name)).toEqual(['AppNamespace', 'Age']);
    const hub = (name: string) => ({ apiVersion: 'components.platform.opendatahub.io/v1alpha1', kind: 'AIHub', metadata: { name }, spec: { applicationNamespace: 'opendatahub', instancesNamespace: 'registries' } });
    expect(validateCustomResource(hub('default-aihub'), aihub)).toEqual([]);
    expect(validateCustomResource(hub('other'), aihub).map((i) => i.message)).toEqual(["the only accepted name is 'default-aihub'"]);
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
      { name: 'RELATED_IMAGE_ODH_KUBE_RBAC_PROXY_IMAGE', value: 'quay.io/openshift/origin-kube-rbac-proxy:4.19' },
    ]));
    expect(c.env.every((e: any) => !String(e.value ?? '').endsWith(':latest'))).toBe(true);
    expect(d.spec.selector.matchLabels).toEqual({ 'component.opendatahub.io/name': 'model-registry-operator', 'control-plane': 'model-registry-operator', 'opendatahub.io/component': 'true' });
    expect(c.volumeMounts.map((m: any) => m.mountPath)).toEqual(expect.arrayContaining(['/etc/server-cert', '/tmp/k8s-webhook-server/serving-certs']));
    expect(find('Service', 'model-registry-operator-controller-manager-metrics-service').spec.ports[0]).toMatchObject({ name: 'https', port: 8443 });
    expect(find('Certificate', 'model-registry-operator-controller-manager-metrics-service-cert').spec.secretName).toBe('model-registry-operator-controller-manager-metrics-service');
  });

  test('the catalog manager: a subcommand of the same image, with its webhook', () => {
    const c = find('Deployment', 'catalog-controller-manager').spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/model-registry-operator:v0.3.8');
    expect(c.args).toEqual(['catalog', '--leader-elect']);
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } });
  });

  test('RBAC: owns ModelRegistry and Catalog, manages operands; no wildcards', () => {
    for (const [name, crd] of [['model-registry-operator-controller-manager-role', 'modelregistry.opendatahub.io/modelregistries'], ['catalog-controller-manager-role', 'aihub.opendatahub.io/catalogs']]) {
      const role = find('ClusterRole', name);
      const triples = role.rules.flatMap((r: any) => (r.apiGroups ?? []).flatMap((g: string) => (r.resources ?? []).map((res: string) => `${g}/${res}:${r.verbs.join(',')}`)));
      expect(triples).toEqual(expect.arrayContaining([`${crd}:create,delete,get,list,patch,update,watch`, `${crd}/status:get,patch,update`, 'apps/deployments:create,delete,get,list,patch,update,watch']));
      expect(JSON.stringify(role.rules)).not.toContain('"*"');
    }
    expect(JSON.stringify(find('ClusterRole', 'model-registry-operator-controller-manager-role').rules)).toContain('storageversionmigrations');
  });

  test('requires InferenceService from KServe', () => {
    expect(alone.c.requires.map((r) => `${r.group}/${r.kind}:${r.providedBy?.name}`)).toEqual(['serving.kserve.io/InferenceService:KServe']);
  });

  test('the AIHub manager is off by default and installs the operator itself when on', () => {
    expect(find('Deployment', 'aihub-controller-manager')).toBeUndefined();
    const { objects } = built({ aiHub: true, catalog: false });
    const d = find('Deployment', 'aihub-controller-manager', objects);
    expect(d.spec.template.spec.containers[0].args).toEqual(['aihub', '--leader-elect', '--metrics-cert-dir=/tmp/k8s-metrics-server/serving-certs', '--metrics-cert-name=tls.crt', '--metrics-key-name=tls.key']);
    expect(JSON.stringify(find('ClusterRole', 'aihub-controller-manager-role', objects).rules)).toContain('validatingwebhookconfigurations');
    expect(find('Deployment', 'catalog-controller-manager', objects)).toBeUndefined();
    expect(find('CustomResourceDefinition', 'catalogs.aihub.opendatahub.io', objects)).toBeDefined();
  });
});

describe('ModelRegistryOperator webhooks', () => {
  test('mutating and validating ModelRegistry webhooks on both versions, and the Catalog validator with a 5 s timeout', () => {
    const all = webhooks();
    expect(all.map((w) => [w.config, w.name, w.clientConfig.service.name, w.clientConfig.service.path, w.matchPolicy, w.admissionReviewVersions.join(','), w.timeoutSeconds])).toEqual([
      ['model-registry-operator-mutating-webhook-configuration', 'mmodelregistry.opendatahub.io', 'model-registry-operator-webhook-service', '/mutate-modelregistry-opendatahub-io-modelregistry', 'Equivalent', 'v1beta1,v1alpha1', undefined],
      ['model-registry-operator-validating-webhook-configuration', 'vmodelregistry.opendatahub.io', 'model-registry-operator-webhook-service', '/validate-modelregistry-opendatahub-io-modelregistry', 'Equivalent', 'v1beta1,v1alpha1', undefined],
      ['catalog-validating-webhook-configuration', 'vcatalog.aihub.opendatahub.io', 'catalog-webhook-service', '/validate-aihub-opendatahub-io-catalog', 'Equivalent', 'v1', 5],
    ]);
    expect(all[0].rules).toEqual([{ apiGroups: ['modelregistry.opendatahub.io'], apiVersions: ['v1alpha1', 'v1beta1'], resources: ['modelregistries'], operations: ['CREATE', 'UPDATE'] }]);
    for (const w of all) expect([w.failurePolicy, w.sideEffects]).toEqual(['Fail', 'None']);
  });

  test('every webhook and the conversion resolve to their manager with a CA source', () => {
    const lines = wiringTable(alone.build.model).filter((l) => l.includes('opendatahub/'));
    expect(lines).toHaveLength(4);
    for (const l of lines) expect(l).toMatch(/-> Deployment\/(model-registry-operator|catalog)-controller-manager:9443 -> cert-manager opendatahub\/\S+ -> Fail$/);
  });

  test('on OpenShift (as Open Data Hub ships it) the service CA signs webhooks, conversion and metrics', () => {
    const os = built({}, { openshift: true });
    expect(find('Service', 'model-registry-operator-webhook-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'model-registry-operator-webhook-service' });
    expect(find('Service', 'catalog-webhook-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'catalog-webhook-service' });
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

  test('fails without KServe, naming the component to add', () => {
    const { p } = platform({}, { kserve: false });
    expect(() => buildPlatform(p)).toThrow('requires serving.kserve.io/InferenceService');
    expect(() => buildPlatform(p)).toThrow('add the KServe component to the platform');
  });
});

describe('ModelRegistryOperator alone', () => {
  test('synthesizes with only KServe and the inference extension, with 0 findings', () => {
    expect(alone.build.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'kserve', 'model-registry-operator']);
    expect(alone.objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(3);
  });

  test('snapshot of its objects', () => {
    expect(alone.objects.map(pinnable)).toMatchSnapshot();
  });
});
