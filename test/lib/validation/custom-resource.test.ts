import { compileCelRules, validateCustomResource as validateWithWarnings } from '../../../lib/validation';

/** The errors (the CRD below has a transition rule, which gives every object a warning: tested on its own). */
const validateCustomResource = (obj: any, crd: any) => validateWithWarnings(obj, crd).filter((i) => i.severity !== 'warning');

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'models.serving.example.com' },
  spec: {
    group: 'serving.example.com',
    scope: 'Namespaced',
    names: { kind: 'Model', plural: 'models' },
    versions: [
      { name: 'v1alpha1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                'type': 'object',
                'required': ['uri'],
                'properties': {
                  uri: { type: 'string' },
                  format: { type: 'string', enum: ['onnx', 'safetensors'] },
                  minReplicas: { type: 'integer', minimum: 0 },
                  maxReplicas: { type: 'integer' },
                  port: { 'x-kubernetes-int-or-string': true },
                  config: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  template: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
                  note: { type: 'string', nullable: true },
                  tags: { 'type': 'array', 'items': { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                  adapters: {
                    'type': 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    'items': {
                      'type': 'object',
                      'required': ['name'],
                      'properties': { name: { type: 'string' }, weight: { type: 'number' } },
                      'x-kubernetes-validations': [{ rule: '!has(self.weight) || self.weight <= 1.0', message: 'weight must be at most 1' }],
                    },
                  },
                },
                'x-kubernetes-validations': [
                  { rule: '!has(self.maxReplicas) || self.maxReplicas >= self.minReplicas', message: 'maxReplicas must be at least minReplicas' },
                  { rule: 'self.uri.startsWith("s3://") || self.uri.startsWith("hf://")', messageExpression: '"unsupported uri " + self.uri', fieldPath: '.uri' },
                  { rule: 'self.minReplicas == oldSelf.minReplicas', message: 'immutable' },
                ],
              },
            },
          },
        },
      },
    ],
  },
};

function model(spec: Record<string, unknown>): any {
  return { apiVersion: 'serving.example.com/v1', kind: 'Model', metadata: { name: 'llama', namespace: 'ml' }, spec: { uri: 's3://models/llama', ...spec } };
}

describe('validateCustomResource', () => {
  test('a valid custom resource passes', () => {
    expect(validateCustomResource(model({
      format: 'onnx',
      minReplicas: 1,
      maxReplicas: 3,
      port: 'http',
      note: null,
      tags: ['a', 'b'],
      adapters: [{ name: 'a', weight: 0.5 }, { name: 'b', weight: 1 }],
    }), CRD)).toEqual([]);
  });

  test('fails when a field is unknown', () => {
    expect(validateCustomResource(model({ formatt: 'onnx' }), CRD)).toMatchObject([
      { path: 'spec.formatt', message: 'unknown field (did you mean format?)' },
    ]);
  });

  test('fails when an enum is violated', () => {
    expect(validateCustomResource(model({ format: 'pickle' }), CRD)).toMatchObject([
      { path: 'spec.format', message: 'expected one of "onnx", "safetensors"; got "pickle"' },
    ]);
  });

  test('int-or-string accepts both and fails otherwise', () => {
    expect(validateCustomResource(model({ port: 8080 }), CRD)).toEqual([]);
    expect(validateCustomResource(model({ port: 'http' }), CRD)).toEqual([]);
    expect(validateCustomResource(model({ port: 1.5 }), CRD)).toMatchObject([
      { path: 'spec.port', message: 'expected integer or string, got 1.5' },
    ]);
  });

  test('a preserve-unknown-fields subtree accepts anything', () => {
    expect(validateCustomResource(model({ config: { anything: { deep: [1, 'two', null] }, x: true } }), CRD)).toEqual([]);
  });

  test('fails when an embedded resource lacks apiVersion and kind', () => {
    expect(validateCustomResource(model({ template: { metadata: { name: 'x' } } }), CRD)).toMatchObject([
      { path: 'spec.template.apiVersion', message: 'required field is missing' },
      { path: 'spec.template.kind', message: 'required field is missing' },
    ]);
  });

  test('fails when a list-map key repeats', () => {
    expect(validateCustomResource(model({ adapters: [{ name: 'a' }, { name: 'a' }] }), CRD)).toMatchObject([
      { path: 'spec.adapters[1]', message: 'duplicate entry with name="a" (same as item 0); entries must be unique by name' },
    ]);
  });

  test('fails when a set has duplicates', () => {
    expect(validateCustomResource(model({ tags: ['a', 'a'] }), CRD)).toMatchObject([
      { path: 'spec.tags[1]', message: 'duplicate of item 0; the list is a set and its items must be unique' },
    ]);
  });

  test('fails when a CEL rule is false, with its message', () => {
    expect(validateCustomResource(model({ minReplicas: 3, maxReplicas: 2 }), CRD)).toMatchObject([
      { path: 'spec', message: 'maxReplicas must be at least minReplicas' },
    ]);
  });

  test('fails when a CEL rule is false, with its message expression and field path', () => {
    expect(validateCustomResource(model({ uri: 'ftp://x' }), CRD)).toMatchObject([
      { path: 'spec.uri', message: 'unsupported uri ftp://x' },
    ]);
  });

  test('fails when a CEL rule on list items is false', () => {
    expect(validateCustomResource(model({ adapters: [{ name: 'a', weight: 2 }] }), CRD)).toMatchObject([
      { path: 'spec.adapters[0]', message: 'weight must be at most 1' },
    ]);
  });

  test('a CEL rule that holds passes, and a transition rule is not evaluated on create (as the API server does)', () => {
    expect(validateWithWarnings(model({ minReplicas: 1, maxReplicas: 5 }), CRD)).toEqual([]);
  });

  test('a transition rule with optionalOldSelf runs on create: a warning, not a pass', () => {
    const crd = JSON.parse(JSON.stringify(CRD));
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.minReplicas == oldSelf.minReplicas', optionalOldSelf: true }];
    expect(validateWithWarnings(model({ minReplicas: 1, maxReplicas: 5 }), crd)).toEqual([{
      rule: 'K8S-CEL-UNEVALUATED',
      severity: 'warning',
      path: 'spec',
      message: 'rule "self.minReplicas == oldSelf.minReplicas" was not evaluated: a transition rule with optionalOldSelf runs on create with oldSelf unset, which this validator does not evaluate',
    }]);
  });

  test('fails when a CEL rule cannot be evaluated (a missing field, as the API server does)', () => {
    const crd = JSON.parse(JSON.stringify(CRD));
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.minReplicas > 0', message: 'x' }];
    expect(validateCustomResource(model({}), crd)).toMatchObject([
      { path: 'spec', message: 'rule "self.minReplicas > 0" could not be evaluated: field not found: minReplicas' },
    ]);
  });

  test('fails when the version is not served', () => {
    expect(validateCustomResource({ ...model({}), apiVersion: 'serving.example.com/v1alpha1' }, CRD)).toMatchObject([
      { path: 'apiVersion', message: 'version "v1alpha1" of CRD models.serving.example.com is not served' },
    ]);
  });

  test('fails when a required field is missing and the metadata name is bad', () => {
    const obj = model({});
    delete obj.spec.uri;
    obj.metadata.name = 'Llama';
    expect(validateCustomResource(obj, CRD)).toMatchObject([
      { path: 'metadata.name', message: '"Llama" is not a valid name: expected a DNS subdomain (at most 253 characters: lowercase letters, digits, \'-\' and \'.\', starting and ending with a letter or digit)' },
      { path: 'spec.uri', message: 'required field is missing' },
    ]);
  });
});

describe('a schema ajv cannot compile', () => {
  /** The CRD above with `field` added to spec's properties: a field no object below sets. */
  const withField = (field: Record<string, unknown>): any => {
    const crd: any = structuredClone(CRD);
    crd.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.bad = field;
    return crd;
  };
  // Fields no object sets are cut from the compiled validator (as empty schemas); one that ajv
  // might not compile is kept, so the version's validation stops as it does when the field is set.
  test.each([
    ['an invalid pattern', { type: 'string', pattern: '[a-' }, 'Invalid regular expression: /[a-/: Unterminated character class'],
    ['an unknown type', { type: 'text' }, 'type must be JSONType or JSONType[]: text'],
    ['an enum that is not a list', { type: 'string', enum: 'a' }, 'enum value must be ["array"]'],
    ['a bound that is not a number', { type: 'integer', minimum: '1' }, 'minimum value must be ["number"]'],
  ])('%s stops the validation of every object of the version, set or not', (_what, field, error) => {
    const message = `the schema of version v1 cannot be used: ${error}`;
    expect(validateWithWarnings(model({}), withField(field))).toEqual([{ rule: 'K8S-CRD', path: '', message }]);
    expect(validateWithWarnings(model({ bad: 'x' }), withField(field))).toEqual([{ rule: 'K8S-CRD', path: '', message }]);
  });

  test('a field no object sets, with a valid pattern, changes nothing', () => {
    const crd = withField({ type: 'string', pattern: '^[a-z]+$', maxLength: 3 });
    expect(validateCustomResource(model({ formatt: 'onnx' }), crd)).toMatchObject([{ path: 'spec.formatt', message: 'unknown field (did you mean format?)' }]);
    expect(validateCustomResource(model({ bad: 'ABCD' }), crd)).toMatchObject([
      { path: 'spec.bad', message: 'expected at most 3 characters, got 4' },
      { path: 'spec.bad', message: 'expected a string matching ^[a-z]+$, got "ABCD"' },
    ]);
  });
});

describe('compileCelRules', () => {
  test('rules of a CRD that compile give no issues', () => {
    expect(compileCelRules(CRD)).toEqual([]);
  });

  test('fails when a rule does not compile', () => {
    const crd = {
      spec: {
        versions: [{
          name: 'v1',
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  'type': 'object',
                  'x-kubernetes-validations': [
                    { rule: 'self.a >', message: 'x' },
                    { rule: 'frobnicate(self.a)', message: 'y' },
                    { rule: 'isURL(self.a)', message: 'Kubernetes library functions are known' },
                  ],
                },
              },
            },
          },
        }],
      },
    };
    expect(compileCelRules(crd)).toMatchObject([
      {
        path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule',
        message: '"self.a >" does not compile: at 1:8: found > but expecting end of input',
      },
      {
        path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[1].rule',
        message: '"frobnicate(self.a)" does not compile: unknown function frobnicate',
      },
    ]);
  });
});
