import { ApiObject, App } from 'cdk8s';
import { AiGatewayPayloadProcessing, AiGatewayPayloadProcessingProps, PAYLOAD_PROCESSOR_PORTS } from '../../../constructs/ai-gateway-payload-processing';
import { externalModelCrd, externalProviderCrd } from '../../../constructs/ai-gateway-payload-processing/crds';
import { GatewayApiInferenceExtension } from '../../../constructs/gateway-api-inference-extension';
import { ExternalModel, ExternalModelSpec, ExternalProvider } from '../../../imports/inference.opendatahub.io';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { pinnable } from '../../platforms/helpers';

function platform(props: AiGatewayPayloadProcessingProps = {}, withPool = true): { p: Platform; c: AiGatewayPayloadProcessing } {
  const p = new Platform(new App(), 'p', { name: 'pp', existingNamespaces: ['openshift-ingress'] });
  if (withPool) new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  const c = new AiGatewayPayloadProcessing(p, 'ai-gateway-payload-processing', props);
  return { p, c };
}

const alone = (() => {
  const { p, c } = platform();
  const build = buildPlatform(p);
  return { build, c, objects: build.model.objects.filter((o) => o.component === c).map((o) => o.json) };
})();
const find = (kind: string, name?: string) => alone.objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

describe('AiGatewayPayloadProcessing CRDs', () => {
  test('ExternalModel and ExternalProvider: inference.opendatahub.io/v1alpha1, namespaced, status subresource', () => {
    for (const [def, kind, plural] of [[externalModelCrd, 'ExternalModel', 'externalmodels'], [externalProviderCrd, 'ExternalProvider', 'externalproviders']] as const) {
      const crd = find('CustomResourceDefinition', `${plural}.inference.opendatahub.io`);
      expect(crd.spec.names).toEqual({ kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() });
      expect(crd.spec.scope).toBe('Namespaced');
      expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, true]]);
      expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
      expect(def.versions[0].schema.rules).toEqual([]);
    }
  });

  test('printer columns as upstream', () => {
    const cols = (plural: string) => find('CustomResourceDefinition', `${plural}.inference.opendatahub.io`).spec.versions[0].additionalPrinterColumns.map((c: any) => `${c.name}:${c.jsonPath}`);
    expect(cols('externalmodels')).toEqual(['Phase:.status.phase', 'Age:.metadata.creationTimestamp']);
    expect(cols('externalproviders')).toEqual(['Provider:.spec.provider', 'Endpoint:.spec.endpoint', 'Phase:.status.phase', 'Age:.metadata.creationTimestamp']);
  });

  test('ExternalModel needs 1 to 64 provider refs with a weight from 1 to 100 (default 1)', () => {
    const schema = find('CustomResourceDefinition', 'externalmodels.inference.opendatahub.io').spec.versions[0].schema.openAPIV3Schema;
    const refs = schema.properties.spec.properties.externalProviderRefs;
    expect(schema.properties.spec.required).toEqual(['externalProviderRefs']);
    expect([refs.minItems, refs.maxItems]).toEqual([1, 64]);
    expect(refs.items.properties.weight).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 1 });
    expect(refs.items.properties.auth.properties.type.enum).toEqual(['simple', 'sigv4', 'oauth2']);
    expect(refs.items.required).toEqual(['apiFormat', 'path', 'ref', 'targetModel']);
  });
});

describe('AiGatewayPayloadProcessing workload', () => {
  test('two stages, one image, their config files and gRPC ports', () => {
    const pre = find('Deployment', 'payload-pre-processing');
    const post = find('Deployment', 'payload-processing');
    for (const [d, key] of [[pre, 'custom-pre-processing-ipp-config.yaml'], [post, 'custom-ipp-config.yaml']] as const) {
      const c = d.spec.template.spec.containers[0];
      expect(d.metadata.namespace).toBe('openshift-ingress');
      expect(c.image).toBe('quay.io/opendatahub/odh-ai-gateway-payload-processing:odh-stable');
      expect(c.args).toEqual(['--config-file', `/config/${key}`, '--v=3', '--tracing=false']);
      expect(c.livenessProbe.tcpSocket).toEqual({ port: 'grpc' });
      expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
      expect(d.spec.template.spec.serviceAccountName).toBe('payload-processing');
      expect(d.spec.template.spec.volumes).toEqual([{ name: 'plugins-config-volume', configMap: { name: 'payload-processing-plugins' } }]);
    }
    expect(pre.spec.template.spec.containers[0].ports.map((p: any) => p.containerPort)).toEqual([9004]);
    expect(post.spec.template.spec.containers[0].ports.map((p: any) => p.containerPort)).toEqual([PAYLOAD_PROCESSOR_PORTS.grpc, PAYLOAD_PROCESSOR_PORTS.metrics]);
    expect(pre.spec.selector.matchLabels.app).toBe('payload-pre-processing');
    expect(post.spec.selector.matchLabels.app).toBe('payload-processing');
  });

  test('each stage has an HTTP/2 Service on 9004 selecting only its pods', () => {
    for (const name of ['payload-pre-processing', 'payload-processing']) {
      const svc = find('Service', name);
      expect(svc.spec.ports).toEqual([{ name: 'grpc', port: 9004, targetPort: 9004, protocol: 'TCP', appProtocol: 'HTTP2' }]);
      expect(svc.spec.selector.app).toBe(name);
    }
  });

  test('plugin configuration: model extractor before auth; resolver, translation and key injection after', () => {
    const data = find('ConfigMap', 'payload-processing-plugins').data;
    expect(data['custom-pre-processing-ipp-config.yaml']).toContain('type: body-field-to-header');
    expect(data['custom-pre-processing-ipp-config.yaml']).toContain('header_name: X-Gateway-Model-Name');
    expect(data['custom-ipp-config.yaml'].match(/type: [\w-]+/g)).toEqual(['type: model-provider-resolver', 'type: api-translation', 'type: apikey-injection']);
  });

  test('RBAC: reconciles its CRDs, reads legacy MaaS ExternalModels, manages routes and Istio objects; no wildcards', () => {
    const role = find('ClusterRole', 'payload-processing-reader');
    const triples = role.rules.flatMap((r: any) => r.apiGroups.flatMap((g: string) => r.resources.map((res: string) => `${g}/${res}:${r.verbs.join(',')}`)));
    expect(triples).toEqual(expect.arrayContaining([
      'inference.opendatahub.io/externalmodels:create,get,list,update,watch',
      'inference.opendatahub.io/externalproviders/status:get,patch,update',
      'maas.opendatahub.io/externalmodels:get,list,watch',
      'gateway.networking.k8s.io/httproutes:create,delete,get,list,update,watch',
      'networking.istio.io/serviceentries:create,delete,get,list,update,watch',
      '/secrets:get,list,watch',
    ]));
    expect(JSON.stringify(role.rules)).not.toContain('"*"');
    expect(find('ClusterRoleBinding', 'payload-processing-reader').subjects).toEqual([{ kind: 'ServiceAccount', name: 'payload-processing', namespace: 'openshift-ingress' }]);
  });

  test('requires InferencePool from the inference extension and emits no Namespace by default', () => {
    expect(alone.c.requires.map((r) => `${r.group}/${r.kind}:${r.providedBy?.name}`)).toEqual(['inference.networking.k8s.io/InferencePool:GatewayApiInferenceExtension']);
    expect(find('Namespace')).toBeUndefined();
    const { c } = platform({ createNamespace: true, namespace: 'ai-gateway', replicas: 2, verbosity: 5 });
    const objs = c.toJson();
    expect(objs.find((o: any) => o.kind === 'Namespace').metadata.name).toBe('ai-gateway');
    const d = objs.find((o: any) => o.kind === 'Deployment');
    expect(d.spec.replicas).toBe(2);
    expect(d.spec.template.spec.containers[0].args).toContain('--v=5');
  });

  test('custom plugins replace the defaults', () => {
    const { c } = platform({ processingPlugins: [{ type: 'stream-usage-enforcer', name: 'usage' }] });
    expect(c.toJson().find((o: any) => o.kind === 'ConfigMap').data['custom-ipp-config.yaml']).toBe('plugins:\n  - type: stream-usage-enforcer\n    name: usage\n');
  });
});

describe('AiGatewayPayloadProcessing validation', () => {
  test('fails when replicas is not a whole number >= 1', () => {
    expect(() => platform({ replicas: 0 })).toThrow('p/ai-gateway-payload-processing: replicas 0 must be a whole number >= 1 (each stage serves every request through the gateway)');
  });

  test('fails when verbosity is out of range', () => {
    expect(() => platform({ verbosity: 11 })).toThrow('p/ai-gateway-payload-processing: verbosity 11 must be a whole number from 0 to 10');
  });

  test('fails when a plugin list is empty', () => {
    expect(() => platform({ preProcessingPlugins: [] })).toThrow('p/ai-gateway-payload-processing: preProcessingPlugins has no plugins; give at least one');
  });

  test('fails when plugin names repeat or are not lower-case names', () => {
    expect(() => platform({ processingPlugins: [{ type: 'api-translation', name: 'x' }, { type: 'Api', name: 'x' }] })).toThrow(
      "p/ai-gateway-payload-processing: processingPlugins plugin type 'Api' must be a lower-case name such as model-provider-resolver; plugin name 'x' is used twice; names must be unique",
    );
  });

  test('fails when the platform lacks the inference extension, naming the component to add', () => {
    const { p } = platform({}, false);
    expect(() => buildPlatform(p)).toThrow('add the GatewayApiInferenceExtension component to the platform');
  });

  test('fails when the gateway namespace is neither created nor listed as existing', () => {
    const p = new Platform(new App(), 'p', { name: 'pp' });
    new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
    new AiGatewayPayloadProcessing(p, 'ai-gateway-payload-processing');
    expect(() => buildPlatform(p)).toThrow("is in namespace 'openshift-ingress', which the platform neither creates nor lists in existingNamespaces");
  });
});

describe('AiGatewayPayloadProcessing typed resources', () => {
  function withResources(model: Partial<ExternalModelSpec> = {}) {
    const { p, c } = platform();
    new ExternalProvider(c, 'OpenAI', {
      metadata: { name: 'openai', namespace: 'openshift-ingress' },
      spec: { provider: 'openai', endpoint: 'api.openai.com', auth: { type: 'simple', secretRef: { name: 'openai-key' } } },
    });
    new ExternalModel(c, 'Gpt', {
      metadata: { name: 'gpt', namespace: 'openshift-ingress' },
      spec: { modelName: 'gpt-4o', externalProviderRefs: [{ ref: { name: 'openai' }, targetModel: 'gpt-4o', apiFormat: 'openai-chat', path: '/v1/chat/completions' }], ...model },
    });
    return p;
  }

  test('an ExternalProvider and an ExternalModel made through the generated bindings pass the CRD schema, after the CRDs', () => {
    const build = buildPlatform(withResources());
    const crs = build.model.objects.filter((o) => o.json.apiVersion === 'inference.opendatahub.io/v1alpha1');
    expect(crs.map((o) => `${o.phase} ${o.json.kind}`)).toEqual(['30-resources ExternalProvider', '30-resources ExternalModel']);
  });

  test('AIGW-AUTH: the auth block as upstream\'s AuthConfig: type optional, one of simple, sigv4, oauth2; secretRef.name required', () => {
    const auth = find('CustomResourceDefinition', 'externalproviders.inference.opendatahub.io').spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.auth;
    expect(auth.required).toEqual(['secretRef']);
    expect(auth.properties.type).toMatchObject({ type: 'string', enum: ['simple', 'sigv4', 'oauth2'] });
    expect(auth.properties.secretRef.required).toEqual(['name']);
    expect(auth.properties.secretRef.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([a-z0-9\\-]*[a-z0-9])?$' });
  });

  test('AIGW-AUTH: upstream\'s example provider (auth type simple) and one without a type pass the schema; apikey does not', () => {
    const provider = (name: string, auth: Record<string, unknown>) => ({
      apiVersion: 'inference.opendatahub.io/v1alpha1',
      kind: 'ExternalProvider',
      metadata: { name, namespace: 'openshift-ingress' },
      spec: { provider: 'openai', endpoint: 'api.openai.com', auth },
    });
    const { p, c } = platform();
    new ApiObject(c, 'Simple', provider('simple', { type: 'simple', secretRef: { name: 'openai-credentials' } }));
    new ApiObject(c, 'Untyped', provider('untyped', { secretRef: { name: 'openai-credentials' } }));
    expect(buildPlatform(p).model.objects.filter((o) => o.json.kind === 'ExternalProvider').map((o) => o.json.metadata.name)).toEqual(['simple', 'untyped']);
    const bad = platform();
    new ApiObject(bad.c, 'ApiKey', provider('apikey', { type: 'apikey', secretRef: { name: 'openai-credentials' } }));
    expect(() => buildPlatform(bad.p)).toThrow(/\[MLP002\].*ExternalProvider apikey: .*spec\.auth\.type/);
  });

  test('fails when an ExternalModel breaks the schema (weight above 100)', () => {
    const p = withResources({ externalProviderRefs: [{ ref: { name: 'openai' }, targetModel: 'gpt-4o', apiFormat: 'openai-chat', path: '/v1/chat/completions', weight: 101 }] });
    expect(() => buildPlatform(p)).toThrow('[MLP002]');
  });
});

describe('AiGatewayPayloadProcessing alone', () => {
  test('synthesizes with only the inference extension, with 0 findings', () => {
    expect(alone.build.model.components.map((c) => c.componentName)).toEqual(['gateway-api-inference-extension', 'ai-gateway-payload-processing']);
    expect(alone.objects.map((o) => o.kind).sort()).toEqual([
      'ClusterRole', 'ClusterRoleBinding', 'ConfigMap', 'CustomResourceDefinition', 'CustomResourceDefinition', 'Deployment', 'Deployment', 'Service', 'Service', 'ServiceAccount',
    ]);
  });

  test('snapshot of its objects', () => {
    expect(alone.objects.map(pinnable)).toMatchSnapshot();
  });
});
