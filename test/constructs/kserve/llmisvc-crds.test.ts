import { llmInferenceServiceConfigCrd, llmInferenceServiceCrd } from '../../../constructs/kserve/crds/llm-inference-service';
import { CrdDefinition, crdName, rootSchema, validateDefinition } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';
import { compileCelRules, validateCustomResource } from '../../../lib/validation/custom-resource';

function schemaOf(def: CrdDefinition, version: string): JSONSchemaProps {
  return rootSchema(def.versions.find((x) => x.name === version)!.schema).toJson();
}

/** Follows a dotted path; `[]` steps into array items, `{}` into map values. */
function at(root: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = root;
  for (const part of path.split('.')) {
    if (part === '[]') node = node.items;
    else if (part === '{}') node = node.additionalProperties;
    else node = node.properties?.[part];
    if (!node) throw new Error(`no schema at ${path} (stopped at ${part})`);
  }
  return node;
}

function countRules(j: any): number {
  if (!j || typeof j !== 'object') return 0;
  let n = (j['x-kubernetes-validations'] ?? []).length;
  for (const [k, v] of Object.entries(j)) if (k !== 'x-kubernetes-validations' && k !== 'default') n += countRules(v);
  return n;
}

/** The CustomResourceDefinition JSON that the validation helpers read. */
function crdJson(def: CrdDefinition): any {
  return {
    metadata: { name: crdName(def) },
    spec: {
      group: def.group,
      names: { kind: def.kind },
      versions: def.versions.map((v) => ({ name: v.name, served: true, schema: { openAPIV3Schema: rootSchema(v.schema).toJson() } })),
    },
  };
}

const svc1 = schemaOf(llmInferenceServiceCrd, 'v1alpha1');
const svc2 = schemaOf(llmInferenceServiceCrd, 'v1alpha2');
const cfg2 = schemaOf(llmInferenceServiceConfigCrd, 'v1alpha2');
const HTTP = 'spec.router.route.http.spec';

describe('LLMInferenceService and LLMInferenceServiceConfig CRDs', () => {
  test('serve v1alpha1 and v1alpha2, store v1alpha2, and convert through the llmisvc webhook', () => {
    for (const def of [llmInferenceServiceCrd, llmInferenceServiceConfigCrd]) {
      expect(def.group).toBe('serving.kserve.io');
      expect(def.scope).toBe('Namespaced');
      expect(def.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1alpha1', true, false], ['v1alpha2', true, true]]);
      expect(def.conversion).toEqual({ strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1', 'v1beta1'] });
      expect(() => validateDefinition('test', def)).not.toThrow();
    }
    expect(llmInferenceServiceCrd.shortNames).toEqual(['llmisvc']);
    expect(llmInferenceServiceConfigCrd.shortNames ?? []).toEqual([]);
  });

  test('print URL, readiness and reason, with the address list only in wide output', () => {
    const cols = llmInferenceServiceCrd.versions[1].printerColumns!;
    expect(cols.map((c) => c.name)).toEqual(['URL', 'Ready', 'Reason', 'Age', 'URLs']);
    expect(cols.find((c) => c.name === 'URLs')).toMatchObject({ jsonPath: '.status.addresses[*].url', priority: 1 });
    expect(llmInferenceServiceConfigCrd.versions[0].printerColumns!.map((c) => c.name)).toEqual(['Ready', 'Reason', 'Age']);
  });

  test('require the model URI and a KEDA trigger list, and limit the KV cache eviction policy', () => {
    expect(at(svc2, 'spec.model').required).toEqual(['uri']);
    expect(at(svc2, 'spec.scaling').required).toEqual(['maxReplicas']);
    expect(at(svc2, 'spec.scaling.keda').required).toEqual(['triggers']);
    expect(at(svc2, 'spec.scaling.keda.triggers')).toMatchObject({ 'minItems': 1, 'x-kubernetes-list-type': 'atomic' });
    expect(at(svc2, 'spec.scaling.wva.keda').properties!.triggers).toBeUndefined();
    expect(at(svc2, 'spec.kvCacheOffloading.evictionPolicy')).toMatchObject({ enum: ['lru', 'arc'], default: 'lru' });
    expect(at(svc2, 'spec.kvCacheOffloading.cpu')['x-kubernetes-int-or-string']).toBe(true);
  });

  test('embed the Gateway API HTTPRoute spec with its enums, defaults and limits', () => {
    expect(at(svc2, `${HTTP}.rules`)).toMatchObject({
      default: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }],
      minItems: 1,
      maxItems: 16,
    });
    expect(at(svc2, `${HTTP}.rules.[].filters.[].type`).enum).toEqual(
      ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'RequestRedirect', 'URLRewrite', 'ExtensionRef', 'CORS']);
    expect(at(svc2, `${HTTP}.rules.[].matches.[].headers`)).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(at(svc2, `${HTTP}.parentRefs.[].kind`).default).toBe('Gateway');
  });

  test('carry the upstream number of CEL rules in every version', () => {
    expect(countRules(svc1)).toBe(127);
    expect(countRules(svc2)).toBe(130);
    expect(countRules(schemaOf(llmInferenceServiceConfigCrd, 'v1alpha1'))).toBe(28);
    expect(countRules(cfg2)).toBe(28);
    expect(at(svc2, 'spec')['x-kubernetes-validations']).toHaveLength(1);
    expect(at(svc2, `${HTTP}.rules.[].matches.[].path`)['x-kubernetes-validations']).toHaveLength(11);
    expect(compileCelRules(crdJson(llmInferenceServiceCrd))).toEqual([]);
    expect(compileCelRules(crdJson(llmInferenceServiceConfigCrd))).toEqual([]);
  });

  test('keep only structural validation of the embedded Gateway API specs in the config CRD', () => {
    expect(at(cfg2, `${HTTP}.parentRefs.[].name`)).toEqual({ type: 'string', maxLength: 253 });
    expect(at(svc2, `${HTTP}.parentRefs.[].name`)).toEqual({ type: 'string', minLength: 1, maxLength: 253 });
    expect(at(cfg2, `${HTTP}.rules`).minItems).toBeUndefined();
    expect(at(cfg2, `${HTTP}.rules.[].filters`)['x-kubernetes-validations']).toBeUndefined();
    expect(at(svc2, `${HTTP}.rules.[].filters`)['x-kubernetes-validations']).toHaveLength(6);
    // kserve's own references stay validated in both.
    expect(at(cfg2, 'spec.router.gateway.refs.[].namespace').pattern).toBe('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
  });

  test('differ between v1alpha1 and v1alpha2 in the model, the InferencePool and the status', () => {
    expect(at(svc1, 'spec.model.criticality').enum).toEqual(['Critical', 'Standard', 'Sheddable']);
    expect(at(svc2, 'spec.model').properties!.criticality).toBeUndefined();
    expect(at(svc2, 'spec.model.confidential').required).toEqual(['enabled']);
    expect(at(svc1, 'spec').properties!.kvCacheOffloading).toBeUndefined();

    expect(at(svc1, 'spec.router.scheduler.pool.spec').required).toEqual(['selector', 'targetPortNumber']);
    expect(at(svc2, 'spec.router.scheduler.pool.spec').required).toEqual(['endpointPickerRef', 'selector', 'targetPorts']);

    expect(at(svc1, 'status').properties!.workloads).toBeUndefined();
    expect(at(svc2, 'status.appliedConfigs.[].source').enum).toEqual(['Preset', 'UserRef']);
    expect(at(svc1, 'status.addresses')['x-kubernetes-list-type']).toBeUndefined();
    expect(at(svc2, 'status.addresses')['x-kubernetes-list-type']).toBe('atomic');
    expect(schemaOf(llmInferenceServiceConfigCrd, 'v1alpha1').properties!.status.properties!.referencedBy).toBeUndefined();
    expect(at(cfg2, 'status.referencedBy')['x-kubernetes-list-type']).toBe('atomic');
  });

  describe('CEL rules reject what upstream rejects', () => {
    const crd = crdJson(llmInferenceServiceCrd);
    const svc = (spec: any) => ({
      apiVersion: 'serving.kserve.io/v1alpha2',
      kind: 'LLMInferenceService',
      metadata: { name: 'm', namespace: 'ns' },
      spec: { model: { uri: 'hf://org/model' }, ...spec },
    });
    // The validator reads the root `metadata: {type: object}` as closed and reports
    // metadata.name as unknown (the API server validates metadata itself): skip those.
    const issues = (spec: any) => validateCustomResource(svc(spec), crd).filter((i) => !i.path.startsWith('metadata.'));
    const messages = (spec: any) => issues(spec).map((i) => i.message).join('\n');

    test('a plain service is valid', () => {
      expect(issues({ replicas: 2, router: { route: { http: { spec: { rules: [{ backendRefs: [{ name: 'b', port: 80 }] }] } } } } })).toEqual([]);
    });

    test('a Service backend without a port', () => {
      expect(messages({ router: { route: { http: { spec: { rules: [{ backendRefs: [{ name: 'b' }] }] } } } } })).toContain('a Service backend reference needs a port');
    });

    test('replicas and scaling together', () => {
      expect(messages({ replicas: 1, scaling: { maxReplicas: 3, wva: { hpa: {} } } })).toContain('replicas and scaling are mutually exclusive');
    });

    test('minReplicas above maxReplicas, and wva without an actuator', () => {
      const m = messages({ scaling: { minReplicas: 5, maxReplicas: 3, wva: {} } });
      expect(m).toContain('minReplicas cannot exceed maxReplicas');
      expect(m).toContain('wva needs either hpa or keda');
    });

    test('a filter whose settings do not match its type', () => {
      const m = messages({ router: { route: { http: { spec: { rules: [{ filters: [{ type: 'URLRewrite', requestRedirect: {} }] }] } } } } });
      expect(m).toContain('requestRedirect is only allowed for filter type RequestRedirect');
      expect(m).toContain('filter type URLRewrite needs urlRewrite');
    });
  });
});
