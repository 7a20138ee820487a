import { App } from 'cdk8s';
import { AiGatewayPayloadProcessing } from '../../../constructs/ai-gateway-payload-processing';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { KServe } from '../../../constructs/kserve';
import { ModelRegistryOperator } from '../../../constructs/model-registry-operator';
import { ModelsAsAService, ModelsAsAServiceProps } from '../../../constructs/models-as-a-service';
import { CRDS } from '../../../constructs/models-as-a-service/crds';
import { OdhModelController } from '../../../constructs/odh-model-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { Platform } from '../../../lib/platform';
import { wiringTable } from '../../../lib/report';
import { buildPlatform } from '../../../lib/synth';
import { validateCustomResource } from '../../../lib/validation';
import { pinnable } from '../../platforms/helpers';

function platform(props: ModelsAsAServiceProps = {}, opts: { payload?: boolean; openshift?: boolean } = {}) {
  const p = new Platform(new App(), 'p', {
    name: 'maas',
    prerequisites: opts.openshift ? [] : [CERT_MANAGER],
    certificates: opts.openshift ? CertificateProvider.openShiftServiceCa() : undefined,
    existingNamespaces: ['openshift-ingress'],
  });
  new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  new KServe(p, 'kserve');
  if (opts.payload ?? true) new AiGatewayPayloadProcessing(p, 'ai-gateway-payload-processing');
  const c = new ModelsAsAService(p, 'models-as-a-service', props);
  return { p, c };
}

function built(props: ModelsAsAServiceProps = {}, opts: { openshift?: boolean } = {}) {
  const { p, c } = platform(props, opts);
  const build = buildPlatform(p);
  return { build, c, objects: build.model.objects.filter((o) => o.component === c).map((o) => o.json) };
}

const alone = built();
const find = (kind: string, name?: string, objects = alone.objects) => objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
const crd = (name: string) => find('CustomResourceDefinition', name);

describe('ModelsAsAService CRDs', () => {
  test('the 8 maas.opendatahub.io CRDs, v1alpha1 only, with status subresources', () => {
    const crds = alone.objects.filter((o) => o.kind === 'CustomResourceDefinition');
    expect(crds.map((o) => o.metadata.name).sort()).toEqual([
      'aitenants.maas.opendatahub.io', 'configs.maas.opendatahub.io', 'externalmodels.maas.opendatahub.io', 'maasauthpolicies.maas.opendatahub.io',
      'maasmodelrefs.maas.opendatahub.io', 'maassubscriptions.maas.opendatahub.io', 'maastenantconfigs.maas.opendatahub.io', 'tenants.maas.opendatahub.io',
    ]);
    for (const o of crds) {
      expect(o.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
      expect(o.spec.versions[0].subresources).toEqual({ status: {} });
    }
  });

  test('names, short names and scopes as upstream', () => {
    expect(crd('aitenants.maas.opendatahub.io').spec.names).toMatchObject({ kind: 'AITenant', shortNames: ['ait'] });
    expect(crd('configs.maas.opendatahub.io').spec).toMatchObject({ scope: 'Cluster', names: { kind: 'Config', shortNames: ['maasconfig'] } });
    expect(crd('maastenantconfigs.maas.opendatahub.io').spec.names).toMatchObject({ kind: 'MaasTenantConfig', listKind: 'MaasTenantConfigList' });
    expect(crd('maasmodelrefs.maas.opendatahub.io').spec.names).toMatchObject({ kind: 'MaaSModelRef', singular: 'maasmodelref' });
  });

  test('CEL rules on 5 CRDs: tenant name and namespace, the singletons, policy subjects', () => {
    const rules = (name: string) => (crd(name).spec.versions[0].schema.openAPIV3Schema['x-kubernetes-validations'] ?? []).map((r: any) => r.rule);
    expect(rules('aitenants.maas.opendatahub.io')).toEqual([
      "self.metadata.name.size() <= 41 && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    ]);
    expect(rules('configs.maas.opendatahub.io')).toEqual(["self.metadata.name == 'default'"]);
    expect(rules('maastenantconfigs.maas.opendatahub.io')).toEqual(["self.metadata.name == 'default-tenant'"]);
    expect(rules('tenants.maas.opendatahub.io')).toEqual(["self.metadata.name == 'default-tenant'"]);
    expect(crd('maasauthpolicies.maas.opendatahub.io').spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.subjects['x-kubernetes-validations']).toHaveLength(1);
    const withCel = CRDS.filter((d) => JSON.stringify(d.versions[0].schema.toJson()).includes('x-kubernetes-validations') || d.versions[0].schema.rules.length);
    expect(withCel).toHaveLength(5);
  });

  test('the CEL rules accept and reject as documented', () => {
    const tenant = crd('aitenants.maas.opendatahub.io');
    const ait = (name: string, namespace: string) => ({ apiVersion: 'maas.opendatahub.io/v1alpha1', kind: 'AITenant', metadata: { name, namespace }, spec: {} });
    expect(validateCustomResource(ait('team-a', 'ai-tenants'), tenant)).toEqual([]);
    // No namespace rule: CEL at the root sees only metadata.name and generateName (the API server rejects such a rule).
    expect(validateCustomResource(ait('team-a', 'default'), tenant)).toEqual([]);
    expect(validateCustomResource(ait('a'.repeat(42), 'ai-tenants'), tenant).map((i) => i.message)).toEqual(['name must be a DNS-1123 label of at most 41 characters']);
    const config = crd('configs.maas.opendatahub.io');
    expect(validateCustomResource({ apiVersion: 'maas.opendatahub.io/v1alpha1', kind: 'Config', metadata: { name: 'other' }, spec: {} }, config).map((i) => i.message)).toEqual(["the only accepted name is 'default'"]);
    const policy = crd('maasauthpolicies.maas.opendatahub.io');
    const ap = (subjects: object) => ({ apiVersion: 'maas.opendatahub.io/v1alpha1', kind: 'MaaSAuthPolicy', metadata: { name: 'p', namespace: 'x' }, spec: { modelRefs: [{ name: 'm', namespace: 'x' }], subjects } });
    expect(validateCustomResource(ap({ groups: [{ name: 'team' }] }), policy)).toEqual([]);
    expect(validateCustomResource(ap({}), policy).map((i) => i.message)).toEqual(['subjects must name at least one group or user']);
  });

  test('aiTenantNamespace reaches the controller', () => {
    const { objects } = built({ aiTenantNamespace: 'tenants' });
    expect(find('CustomResourceDefinition', 'aitenants.maas.opendatahub.io', objects).spec.versions[0].schema.openAPIV3Schema['x-kubernetes-validations']).toHaveLength(1);
    expect(find('Deployment', undefined, objects).spec.template.spec.containers[0].env).toContainEqual({ name: 'AITENANT_NAMESPACE', value: 'tenants' });
  });
});

describe('ModelsAsAService shared inference.opendatahub.io CRDs', () => {
  test('uses ExternalModel and ExternalProvider from the payload processor, which alone emits them', () => {
    expect(alone.c.crds.map((c) => c.name)).not.toContain('externalmodels.inference.opendatahub.io');
    expect(alone.c.usedCrds.map((u) => `${u.definition.plural}.${u.definition.group}:${u.providedBy?.name}`)).toEqual([
      'externalmodels.inference.opendatahub.io:AiGatewayPayloadProcessing',
      'externalproviders.inference.opendatahub.io:AiGatewayPayloadProcessing',
    ]);
    const all = alone.build.model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition' && o.json.spec.group === 'inference.opendatahub.io');
    expect(all.map((o) => `${o.json.metadata.name}:${o.component.componentName}`)).toEqual([
      'externalmodels.inference.opendatahub.io:ai-gateway-payload-processing',
      'externalproviders.inference.opendatahub.io:ai-gateway-payload-processing',
    ]);
    expect(alone.build.files.get('REPORT.md')).toContain('- externalmodels.inference.opendatahub.io: ai-gateway-payload-processing (also used, not emitted, by models-as-a-service)');
  });

  test('comes after the payload processor and KServe in apply order', () => {
    expect(alone.build.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'kserve', 'ai-gateway-payload-processing', 'models-as-a-service']);
  });

  test('fails without the payload processor, naming the component to add', () => {
    const { p } = platform({}, { payload: false });
    expect(() => buildPlatform(p)).toThrow(
      "requires inference.opendatahub.io/ExternalModel (MaaSModelRefs publish ExternalModels; upstream bundles a copy of the CRD, which the payload processor owns), but no component of platform 'maas' provides it and no prerequisite declares it; add the AiGatewayPayloadProcessing component to the platform",
    );
  });
});

describe('ModelsAsAService controller', () => {
  const d = find('Deployment', 'maas-controller');
  const c = d.spec.template.spec.containers[0];

  test('image, args, environment and parameters as upstream', () => {
    expect(c.image).toBe('quay.io/opendatahub/maas-controller:odh-stable');
    expect(c.args).toEqual(expect.arrayContaining(['--leader-elect', '--gateway-name=$(GATEWAY_NAME)', '--enable-tenant-namespace-discovery', '--metadata-cache-ttl=60', '--authz-cache-ttl=60']));
    expect(c.env).toEqual(expect.arrayContaining([
      { name: 'GATEWAY_NAME', value: 'maas-default-gateway' },
      { name: 'GATEWAY_NAMESPACE', value: 'openshift-ingress' },
      { name: 'INFRA_NAMESPACE', value: 'AUTO' },
      { name: 'MAAS_SUBSCRIPTION_NAMESPACE', value: 'models-as-a-service' },
      { name: 'RELATED_IMAGE_ODH_MAAS_API_IMAGE', valueFrom: { configMapKeyRef: { name: 'maas-parameters', key: 'maas-api-image', optional: true } } },
    ]));
    expect(find('ConfigMap', 'maas-parameters').data).toEqual({
      'maas-api-image': 'quay.io/opendatahub/maas-api:odh-stable',
      'payload-processing-image': 'quay.io/opendatahub/odh-ai-gateway-payload-processing:odh-stable',
      'monitoring-namespace': 'opendatahub',
    });
    expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '512Mi' } });
    expect(d.spec.selector.matchLabels).toEqual({ 'control-plane': 'maas-controller' });
    expect(d.spec.template.spec.terminationGracePeriodSeconds).toBe(30);
  });

  test('RBAC: owns its CRDs, the Config singleton by name only, reads LLMInferenceServices; no wildcards', () => {
    const role = find('ClusterRole', 'maas-controller-role');
    const triples = role.rules.flatMap((r: any) => (r.apiGroups ?? []).flatMap((g: string) => (r.resources ?? []).map((res: string) => `${g}/${res}${r.resourceNames ? `[${r.resourceNames}]` : ''}:${r.verbs.join(',')}`)));
    expect(triples).toEqual(expect.arrayContaining([
      'maas.opendatahub.io/maasmodelrefs:create,delete,get,list,patch,update,watch',
      'maas.opendatahub.io/aitenants/status:get,patch,update',
      'maas.opendatahub.io/configs:create,list,watch',
      'maas.opendatahub.io/configs[default]:delete,get,patch,update',
      'serving.kserve.io/llminferenceservices:get,list,watch',
      'inference.opendatahub.io/externalmodels:create,get,list,update,watch',
      'rbac.authorization.k8s.io/rolebindings:delete,get',
    ]));
    expect(JSON.stringify(role.rules)).not.toContain('"*"');
    // Grants of releases after v0.2.1 (and after branch stable) are not given.
    expect(JSON.stringify(role.rules)).not.toMatch(/horizontalpodautoscalers|loki\.grafana\.com|nonroot-v2|pods\/log/);
    expect(triples.filter((t: string) => t.startsWith('maas.opendatahub.io/tenants:'))).toEqual(['maas.opendatahub.io/tenants:get,list,patch,update,watch']);
  });

  test('plain-HTTP metrics on v0.2.1\'s default :8080, and no flag the manager does not define (an unknown flag makes it exit)', () => {
    // v0.2.1 defines neither --metrics-secure nor secure serving: metrics on the :8080 default.
    expect(c.args.filter((a: string) => a.startsWith('--metrics'))).toEqual([]);
    expect(c.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'metrics', containerPort: 8080 })]));
    expect(find('Service', 'maas-controller-metrics').spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
    // No authenticated metrics, so no metrics-reader role to bind.
    expect(find('ClusterRole', 'maas-controller-metrics-reader')).toBeUndefined();
  });

  test('aggregated owner and viewer roles', () => {
    expect(find('ClusterRole', 'maas-owner-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' });
    expect(find('ClusterRole', 'maas-owner-role').metadata.labels['rbac.authorization.k8s.io/aggregate-to-view']).toBeUndefined();
    expect(find('ClusterRole', 'maas-viewer-role').metadata.labels).toMatchObject({ 'rbac.authorization.k8s.io/aggregate-to-view': 'true' });
    expect(find('ClusterRole', 'maas-viewer-role').rules.every((r: any) => r.verbs.join(',') === 'get,list,watch')).toBe(true);
  });
});

describe('ModelsAsAService webhooks', () => {
  const config = find('ValidatingWebhookConfiguration', 'maas-validating-webhook-configuration');

  test('4 validating webhooks, fail closed, on the kinds and operations upstream names', () => {
    expect(config.webhooks.map((w: any) => [w.name, w.clientConfig.service.path, w.rules[0].resources[0], w.rules[0].operations.join('|'), w.failurePolicy, w.sideEffects])).toEqual([
      ['vaitenant.kb.io', '/validate-maas-opendatahub-io-v1alpha1-aitenant', 'aitenants', 'CREATE|UPDATE', 'Fail', 'None'],
      ['vmaassubscription.kb.io', '/validate-maas-opendatahub-io-v1alpha1-maassubscription', 'maassubscriptions', 'CREATE', 'Fail', 'None'],
      ['vmaasauthpolicy.kb.io', '/validate-maas-opendatahub-io-v1alpha1-maasauthpolicy', 'maasauthpolicies', 'CREATE', 'Fail', 'None'],
      ['vmaasmodelref.kb.io', '/validate-maas-opendatahub-io-v1alpha1-maasmodelref', 'maasmodelrefs', 'CREATE|UPDATE', 'Fail', 'None'],
    ]);
    expect(find('MutatingWebhookConfiguration')).toBeUndefined();
    for (const l of wiringTable(alone.build.model).filter((x) => x.includes('.kb.io'))) {
      expect(l).toContain('opendatahub/maas-controller-webhook-service:443');
      expect(l).toContain('-> Deployment/maas-controller:9443 -> cert-manager opendatahub/maas-controller-webhook-server -> Fail');
    }
  });

  test('on OpenShift the service CA signs the webhook certificate', () => {
    const os = built({}, { openshift: true });
    expect(find('Service', 'maas-controller-webhook-service', os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'maas-controller-webhook-cert' });
    expect(find('ValidatingWebhookConfiguration', undefined, os.objects).metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
  });
});

describe('ModelsAsAService validation', () => {
  test('fails when a namespace prop is not a DNS label', () => {
    expect(() => platform({ gatewayNamespace: 'Gateways' })).toThrow("p/models-as-a-service: gatewayNamespace 'Gateways' must be a lower-case DNS label of at most 63 characters");
  });

  test('fails when infraNamespace is neither AUTO nor a DNS label', () => {
    expect(() => platform({ infraNamespace: 'auto!' })).toThrow("p/models-as-a-service: infraNamespace 'auto!' must be a lower-case DNS label of at most 63 characters (or 'AUTO')");
  });

  test('fails when cacheTtlSeconds is not a positive whole number', () => {
    expect(() => platform({ cacheTtlSeconds: 0 })).toThrow('p/models-as-a-service: cacheTtlSeconds 0 must be a whole number of seconds >= 1');
  });

  test('fails without KServe: LLMInferenceService has no provider', () => {
    const p = new Platform(new App(), 'p', { name: 'maas', prerequisites: [CERT_MANAGER], existingNamespaces: ['openshift-ingress'] });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new AiGatewayPayloadProcessing(p, 'ai-gateway-payload-processing');
    new ModelsAsAService(p, 'models-as-a-service');
    expect(() => buildPlatform(p)).toThrow('requires serving.kserve.io/LLMInferenceService (MaaSModelRefs publish LLMInferenceServices)');
  });
});

describe('ModelsAsAService alone', () => {
  test('synthesizes with only its requirements (KServe, the inference extension, the payload processor), with 0 findings', () => {
    expect(alone.objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(8);
  });

  test('snapshot of its objects', () => {
    expect(alone.objects.map(pinnable)).toMatchSnapshot();
  });
});

describe('ModelsAsAService with the other Open Data Hub serving components', () => {
  test('shares the opendatahub namespace and its Issuer with the model registry operator and odh-model-controller, with 0 findings', () => {
    const { p } = platform();
    new ModelRegistryOperator(p, 'model-registry-operator');
    new OdhModelController(p, 'odh-model-controller');
    const build = buildPlatform(p);
    const objects = build.model.objects.map((o) => o.json);
    expect(objects.filter((o) => o.kind === 'Issuer').map((o) => o.metadata.namespace)).toEqual(['kserve', 'opendatahub']);
    expect(build.files.get('00-foundation/00-namespaces.yaml')!.match(/name: opendatahub$/gm)).toHaveLength(1);
    const report = build.files.get('REPORT.md')!;
    expect(report).toContain('models-as-a-service -->|inference.opendatahub.io/ExternalModel| ai-gateway-payload-processing');
    // The model registry operator (v0.3.8) depends on no component: it neither watches nor creates InferenceServices.
    expect(report).not.toMatch(/model-registry-operator -->\|/);
    expect(report).toContain('ai-gateway-payload-processing -->|inference.networking.k8s.io/InferencePool| gateway-api-inference-extension');
  });
});
