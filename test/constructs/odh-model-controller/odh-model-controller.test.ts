import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { IntegrationState, OdhModelController, OdhModelControllerProps } from '../../../constructs/odh-model-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { wiringTable } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { pinnable } from '../../platforms/helpers';

function platform(props: OdhModelControllerProps = {}, opts: { kserve?: boolean; openshift?: boolean } = {}) {
  const p = new Platform(new App(), 'p', {
    name: 'omc',
    prerequisites: opts.openshift ? [] : [CERT_MANAGER],
    certificates: opts.openshift ? CertificateProvider.openShiftServiceCa() : undefined,
  });
  if (opts.kserve ?? true) {
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new KServe(p, 'kserve');
  }
  const c = new OdhModelController(p, 'odh-model-controller', props);
  return { p, c };
}

function built(props: OdhModelControllerProps = {}, opts: { openshift?: boolean } = {}) {
  const { p, c } = platform(props, opts);
  const build = buildPlatform(p);
  return { build, c, objects: build.model.objects.filter((o) => o.component === c).map((o) => o.json) };
}

const alone = built();
const find = (kind: string, name?: string, objects = alone.objects) => objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const webhooks = (objects = alone.objects) => objects.filter((o) => o.kind.endsWith('WebhookConfiguration')).flatMap((o) => o.webhooks.map((w: any) => ({ config: o.metadata.name, ...w })));

describe('OdhModelController CRD', () => {
  test('Account: nim.opendatahub.io/v1, namespaced, status subresource, six printer columns', () => {
    const crd = find('CustomResourceDefinition', 'accounts.nim.opendatahub.io');
    expect(crd.spec.names).toEqual({ kind: 'Account', listKind: 'AccountList', plural: 'accounts', singular: 'account' });
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1', true, true]]);
    expect(crd.spec.versions[0].additionalPrinterColumns.map((c: any) => c.name)).toEqual([
      'Account Status', 'Account Check', 'Validation Rate', 'Last Successful Validation', 'Config Rate', 'Last Successful Config',
    ]);
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    expect(spec.required).toEqual(['apiKeySecret']);
    expect(spec.properties.apiKeySecret['x-kubernetes-map-type']).toBe('atomic');
    expect(spec.properties.validationRefreshRate).toMatchObject({ type: 'string', format: 'duration', default: '24h' });
  });
});

describe('OdhModelController controller', () => {
  const d = find('Deployment', 'odh-model-controller');
  const c = d.spec.template.spec.containers[0];

  test('image, args, environment, ports and probes as upstream', () => {
    expect(c.image).toBe('quay.io/opendatahub/odh-model-controller:odh-v3.5-EA2');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(['--leader-elect', '--health-probe-bind-address=:8081', '--metrics-bind-address=:8080']);
    expect(c.env.filter((e: any) => e.value !== undefined)).toEqual([
      { name: 'NIM_STATE', value: 'managed' }, { name: 'KSERVE_STATE', value: 'managed' }, { name: 'MODELREGISTRY_STATE', value: 'removed' },
    ]);
    expect(c.ports.map((p: any) => `${p.name}:${p.containerPort}`)).toEqual(['health:8081', 'http:8080', 'webhook-server:9443']);
    expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '2Gi' } });
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'odh-model-controller' });
    expect(d.spec.template.spec.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  });

  test('metrics Service keeps upstream name and port', () => {
    expect(find('Service', 'odh-model-controller-metrics-service').spec.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' }]);
  });

  test('RBAC: owns Account, reconciles KServe kinds, no wildcards', () => {
    const role = find('ClusterRole', 'odh-model-controller-role');
    const triples = role.rules.flatMap((r: any) => (r.apiGroups ?? []).flatMap((g: string) => (r.resources ?? []).map((res: string) => `${g}/${res}:${r.verbs.join(',')}`)));
    expect(triples).toEqual(expect.arrayContaining([
      'nim.opendatahub.io/accounts:create,delete,get,list,patch,update,watch',
      'nim.opendatahub.io/accounts/status:get,patch,update',
      'serving.kserve.io/inferenceservices:get,list,patch,update,watch',
      'serving.kserve.io/llminferenceservices:get,list,patch,update,watch',
      'serving.kserve.io/servingruntimes:create,get,list,update,watch',
      'route.openshift.io/routes/custom-host:create',
    ]));
    expect(JSON.stringify(role.rules)).not.toContain('"*"');
    expect(JSON.stringify(role.rules)).not.toContain('"post"');
    // odh-v3.5-EA2 reads no HardwareProfiles (later releases do).
    expect(JSON.stringify(role.rules)).not.toContain('hardwareprofiles');
    const lease = find('Role', 'odh-model-controller-role');
    expect(lease.rules.map((r: any) => r.resources.join(','))).toEqual(expect.arrayContaining(['configmaps', 'leases']));
  });

  test('requires the KServe kinds it reconciles', () => {
    expect(alone.c.requires.map((r) => `${r.group}/${r.kind}:${r.providedBy?.name}`)).toEqual([
      'serving.kserve.io/InferenceService:KServe', 'serving.kserve.io/InferenceGraph:KServe', 'serving.kserve.io/ServingRuntime:KServe',
      'serving.kserve.io/LLMInferenceService:KServe', 'serving.kserve.io/LLMInferenceServiceConfig:KServe',
    ]);
  });

  test('aggregated Account roles and the monitoring roles', () => {
    expect(find('ClusterRole', 'account-editor-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(find('ClusterRole', 'account-viewer-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(find('ClusterRole', 'metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    expect(find('ClusterRole', 'kserve-prometheus-k8s').rules).toEqual([{ apiGroups: [''], resources: ['endpoints', 'pods', 'services'], verbs: ['get', 'list', 'watch'] }]);
  });
});

describe('OdhModelController webhooks', () => {
  test('6 webhooks in 2 configurations (as odh-v3.5-EA2): 3 mutating, 3 validating, all fail closed, admission v1', () => {
    const all = webhooks();
    expect(all).toHaveLength(6);
    expect(all.filter((w) => w.config === 'mutating.odh-model-controller.opendatahub.io')).toHaveLength(3);
    expect(all.filter((w) => w.config === 'validating.odh-model-controller.opendatahub.io')).toHaveLength(3);
    for (const w of all) {
      expect(w.failurePolicy).toBe('Fail');
      expect(w.admissionReviewVersions).toEqual(['v1']);
      expect(w.clientConfig.service).toMatchObject({ name: 'odh-model-controller-webhook-service', namespace: 'opendatahub', port: 443 });
    }
  });

  test('the webhooks odh-v3.5-EA2 serves, all without side effects (no LLMInferenceService mutator at that release)', () => {
    const effects = Object.fromEntries(webhooks().map((w) => [w.name, w.sideEffects]));
    expect(effects).toEqual({
      'minferencegraph-v1alpha1.odh-model-controller.opendatahub.io': 'None',
      'minferenceservice-v1beta1.odh-model-controller.opendatahub.io': 'None',
      'mutating.pod.odh-model-controller.opendatahub.io': 'None',
      'validating.nim.account.odh-model-controller.opendatahub.io': 'None',
      'validating.isvc.odh-model-controller.opendatahub.io': 'None',
      'vinferencegraph-v1alpha1.odh-model-controller.opendatahub.io': 'None',
    });
  });

  test('paths and rules as upstream', () => {
    const byName = Object.fromEntries(webhooks().map((w) => [w.name.replace('.odh-model-controller.opendatahub.io', ''), w]));
    expect(byName['minferencegraph-v1alpha1'].clientConfig.service.path).toBe('/mutate-serving-kserve-io-v1alpha1-inferencegraph');
    expect(byName['minferencegraph-v1alpha1'].rules).toEqual([{ apiGroups: ['serving.kserve.io'], apiVersions: ['v1alpha1'], resources: ['inferencegraphs'], operations: ['CREATE'] }]);
    expect(byName['minferenceservice-v1beta1'].clientConfig.service.path).toBe('/mutate-serving-kserve-io-v1beta1-inferenceservice');
    // The odh-v3.5-EA2 manager serves no LLMInferenceService mutator: a webhook there would
    // fail every LLMInferenceService create (no such path, failurePolicy Fail).
    expect(webhooks().filter((w) => w.rules.some((r: any) => r.resources.includes('llminferenceservices')))).toEqual([]);
    expect(byName['validating.nim.account'].clientConfig.service.path).toBe('/validate-nim-opendatahub-io-v1-account');
    expect(byName['validating.isvc'].rules[0]).toMatchObject({ apiVersions: ['v1beta1'], resources: ['inferenceservices'], operations: ['CREATE'] });
    const pod = byName['mutating.pod'];
    expect(pod.clientConfig.service.path).toBe('/mutate--v1-pod');
    expect(pod.rules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }]);
    expect(pod.objectSelector).toEqual({ matchExpressions: [{ key: 'serving.kserve.io/inferenceservice', operator: 'Exists' }, { key: 'control-plane', operator: 'DoesNotExist' }] });
  });

  test('OMC-ISVC-UPDATE: InferenceServices are intercepted on CREATE only (upstream\'s markers at odh-v3.5-EA2), so updates go through while the controller is down', () => {
    const isvc = webhooks().filter((w) => w.rules.some((r: any) => r.resources.includes('inferenceservices')));
    expect(isvc.map((w) => [w.name, w.rules.flatMap((r: any) => r.operations)])).toEqual([
      ['minferenceservice-v1beta1.odh-model-controller.opendatahub.io', ['CREATE']],
      ['validating.isvc.odh-model-controller.opendatahub.io', ['CREATE']],
    ]);
  });

  test('every webhook resolves to the controller pods with a CA source', () => {
    const lines = wiringTable(alone.build.model).filter((l) => l.includes('odh-model-controller'));
    expect(lines).toHaveLength(6);
    for (const l of lines) expect(l).toContain('-> Deployment/odh-model-controller:9443 -> cert-manager opendatahub/odh-model-controller-webhook-service-cert -> Fail');
  });

  test('on OpenShift (as Open Data Hub ships it) the service CA signs the webhook and model-serving-api certificates', () => {
    const os = built({}, { openshift: true });
    expect(find('Service', 'odh-model-controller-webhook-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'odh-model-controller-webhook-cert' });
    expect(find('Service', 'model-serving-api', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'model-serving-api-tls' });
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      expect(find(kind, undefined, os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    }
    expect(os.objects.filter((o) => o.kind === 'Certificate')).toEqual([]);
  });
});

describe('OdhModelController model-serving-api', () => {
  test('HTTPS API with its certificate, probes over HTTPS, and its own narrow role', () => {
    const d = find('Deployment', 'model-serving-api');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/odh-model-serving-api:odh-v3.5-EA2');
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 8443, scheme: 'HTTPS' });
    expect(d.spec.template.spec.volumes).toEqual([{ name: 'tls-certs', secret: { secretName: 'model-serving-api-tls' } }]);
    expect(find('Certificate', 'model-serving-api-cert').spec.secretName).toBe('model-serving-api-tls');
    expect(find('Service', 'model-serving-api').spec.ports.map((p: any) => `${p.port}->${p.targetPort}`)).toEqual(['443->8443', '8080->8080']);
    expect(find('ClusterRole', 'model-serving-api').rules).toEqual([
      { apiGroups: ['gateway.networking.k8s.io'], resources: ['gateways'], verbs: ['list'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
    ]);
  });

  test('can be turned off; integration states are typed', () => {
    const { c } = platform({ modelServingApi: false, nim: IntegrationState.REMOVED, modelRegistry: IntegrationState.MANAGED });
    const objs = c.toJson();
    expect(objs.some((o: any) => o.metadata?.name === 'model-serving-api')).toBe(false);
    const env = objs.find((o: any) => o.kind === 'Deployment').spec.template.spec.containers[0].env;
    expect(env).toEqual(expect.arrayContaining([{ name: 'NIM_STATE', value: 'removed' }, { name: 'MODELREGISTRY_STATE', value: 'managed' }]));
  });
});

describe('OdhModelController validation', () => {
  test('fails when an integration state is not managed or removed', () => {
    expect(() => platform({ nim: 'enabled' as IntegrationState })).toThrow("p/odh-model-controller: nim 'enabled' is not an integration state; use IntegrationState.MANAGED or IntegrationState.REMOVED");
  });

  test('fails when replicas is not a whole number', () => {
    expect(() => platform({ replicas: 1.5 })).toThrow('p/odh-model-controller/Manager: replicas 1.5 must be a whole number >= 0');
  });

  test('fails when the namespace is not a DNS label', () => {
    expect(() => platform({ namespace: 'Open_Data_Hub' })).toThrow("p/odh-model-controller: namespace 'Open_Data_Hub' is not a valid namespace name");
  });

  test('fails without KServe, naming the component to add', () => {
    const { p } = platform({}, { kserve: false });
    expect(() => buildPlatform(p)).toThrow('requires serving.kserve.io/InferenceService (reconciles and admits KServe InferenceServices), but no component of platform \'omc\' provides it');
  });
});

describe('OdhModelController alone', () => {
  test('synthesizes with only KServe and the inference extension, with 0 findings', () => {
    expect(alone.build.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'kserve', 'odh-model-controller']);
  });

  test('snapshot of its objects', () => {
    expect(alone.objects.map(pinnable)).toMatchSnapshot();
  });
});

describe('OMC-PARAMS: the run-time ConfigMap the pod mutator reads', () => {
  test('OMC-PARAMS: odh-model-controller-parameters ships in the controller\'s namespace (POD_NAMESPACE) with ray-tls-generator-image, a pinned image', () => {
    const cm = find('ConfigMap', 'odh-model-controller-parameters');
    expect(cm.metadata.namespace).toBe('opendatahub');
    expect(cm.data).toEqual({ 'ray-tls-generator-image': 'registry.redhat.io/ubi9/ubi-minimal:9.6' });
    const env = find('Deployment', 'odh-model-controller').spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    // The controller may read it (its namespaced ConfigMap rules).
    const role = find('Role', 'odh-model-controller-role');
    expect(role.rules.some((r: any) => r.apiGroups.includes('') && r.resources.includes('configmaps') && r.verbs.includes('get'))).toBe(true);
  });

  test('the image follows the platform\'s registry mirror like every other image', () => {
    const p = new Platform(new App(), 'p', { name: 'omc', prerequisites: [CERT_MANAGER], images: { registryMirror: 'mirror.example.com' } });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new KServe(p, 'kserve');
    const c = new OdhModelController(p, 'odh-model-controller');
    const cm = buildPlatform(p).model.objects.filter((o) => o.component === c).map((o) => o.json).find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'odh-model-controller-parameters');
    expect(cm.data['ray-tls-generator-image']).toBe('mirror.example.com/ubi9/ubi-minimal:9.6');
  });
});
