import { validateBuiltin, validateBuiltins, validateCustomResource, validateCustomResources } from '../../../lib/validation';

// Objects validated together get validators compiled for the fields they have: the issues
// must be exactly those of validating each object alone, wherever in the batch a field is.

function deployment(name: string, container: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ml' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'example.com/app:v1', ...container }] } },
    },
  };
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'models.serving.example.com' },
  spec: {
    group: 'serving.example.com',
    scope: 'Namespaced',
    names: { kind: 'Model', plural: 'models' },
    versions: [{
      name: 'v1',
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                format: { type: 'string', enum: ['onnx', 'pytorch'] },
                storage: { type: 'object', properties: { uri: { type: 'string' }, readOnly: { type: 'boolean' } } },
                adapters: {
                  'type': 'array',
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['name', 'protocol'],
                  'items': { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } },
                },
              },
            },
          },
        },
      },
    }],
  },
};

const model = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'serving.example.com/v1', kind: 'Model', metadata: { name, namespace: 'ml' }, spec });

describe('validateBuiltins', () => {
  test('gives each object the issues it has alone, for fields only one object of the batch has', () => {
    const objs = [
      deployment('a'),
      deployment('b', { ports: [{ containerPort: 'http' }] }),
      deployment('c', { resources: { limits: { cpu: 'lots' } } }),
      deployment('d', { imagePullPolicy: 'Sometimes', securityContext: { runAsUser: 1.5 }, lifecycle: { preStop: { exec: { comand: ['x'] } } } }),
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'Bad_Name' }, spec: { ports: [{ port: 'http' }] } },
    ];
    const together = validateBuiltins(objs);
    expect(together).toEqual(objs.map((o) => validateBuiltin(o)));
    expect(together[0]).toEqual([]);
    expect(together[1].map((i) => i.path)).toEqual(['spec.template.spec.containers[0].ports[0].containerPort']);
    expect(together[3].map((i) => i.path)).toEqual(expect.arrayContaining([
      'spec.template.spec.containers[0].securityContext.runAsUser',
      'spec.template.spec.containers[0].lifecycle.preStop.exec.comand',
    ]));
    expect(together[3].find((i) => i.path.endsWith('.comand'))!.message).toBe('unknown field (did you mean command?)');
    expect(together[4].map((i) => i.path)).toEqual(['metadata.name', 'spec.ports[0].port']);
  });

  // A node every object reaching it surely passes is left out of the compiled validator:
  // each keyword the test of "surely passes" reads (format, pattern, lengths, label and
  // annotation syntax, list-map keys) must still fail where ajv fails, beside valid objects.
  test('reports each keyword that prunes valid subtrees, beside objects that pass it', () => {
    const port = (p: Record<string, unknown>) => ({ ports: [{ containerPort: 8080, ...p }] });
    const svc = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, ...metadata }, spec });
    const objs = [
      deployment('ok', { ...port({ name: 'http' }), resources: { limits: { cpu: '500m', memory: '1Gi' } } }),
      deployment('quantity', { resources: { limits: { cpu: '1.5 cores' } } }),
      deployment('dup', { ports: [{ containerPort: 8080 }, { containerPort: 8080 }] }),
      svc('ok', { ports: [{ port: 80, targetPort: 'http' }] }, { labels: { app: 'x' }, annotations: { 'example.com/a': 'b' } }),
      svc('pattern', { ports: [{ port: 80, targetPort: 'HTTP_PORT' }] }),
      svc('long', { ports: [{ port: 80, targetPort: 'a-very-long-port-name' }] }),
      // 15 code points (ajv counts code points, not UTF-16 units): the pattern fails, not the length.
      svc('emoji', { ports: [{ port: 80, targetPort: 'ab\u{1F600}defghijklmno'.slice(0, 16) }] }),
      svc('label', { ports: [{ port: 80 }] }, { labels: { 'bad key!': 'x' } }),
      svc('annotation', { ports: [{ port: 80 }] }, { annotations: { '-bad': 'x' } }),
    ];
    const together = validateBuiltins(objs);
    expect(together).toEqual(objs.map((o) => validateBuiltin(o)));
    expect(together[0]).toEqual([]);
    expect(together[3]).toEqual([]);
    const at = (k: number) => together[k].map((i) => `${i.path}: ${i.rule}`);
    expect(at(1)).toEqual(['spec.template.spec.containers[0].resources.limits.cpu: undefined']);
    expect(together[1][0].message).toMatch(/^expected a quantity/);
    expect(at(2)).toEqual(['spec.template.spec.containers[0].ports[1]: K8S-UNIQUE']);
    expect(at(4)).toEqual(['spec.ports[0].targetPort: K8S-NAME']);
    expect(together[5].map((i) => i.message)).toEqual(expect.arrayContaining(['expected at most 15 characters, got 21']));
    expect(together[6].map((i) => i.message)).not.toContain('expected at most 15 characters, got 16');
    expect(at(6)).toEqual(['spec.ports[0].targetPort: K8S-NAME']);
    expect(at(7)).toEqual(['metadata.labels["bad key!"]: K8S-NAME']);
    expect(at(8)).toEqual(['metadata.annotations["-bad"]: K8S-NAME']);
  });

  test('fails when an object is not a known built-in kind, without affecting the others', () => {
    const [bad, good] = validateBuiltins([{ apiVersion: 'v1', kind: 'Widget', metadata: { name: 'x' } }, deployment('a')]);
    expect(bad).toMatchObject([{ path: '', message: 'no schema for Widget in v1: not among the built-in kinds this validator knows' }]);
    expect(good).toEqual([]);
  });
});

/** A CRD whose schema uses each keyword the test of "surely passes" reads. */
function keywordsCrd(extra: Record<string, unknown> = {}) {
  const spec = {
    type: 'object',
    properties: {
      replicas: { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: true },
      ratio: { type: 'number', minimum: 0, exclusiveMinimum: true },
      name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
      mode: { type: 'string', enum: ['a', 'b'], nullable: true },
      when: { type: 'string', format: 'date-time' },
      tags: { type: 'array', maxItems: 2, items: { type: 'string', minLength: 1 } },
      labels: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
      ports: {
        'type': 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port'],
        'items': { type: 'object', required: ['port'], properties: { port: { type: 'integer' } } },
      },
      ...extra,
    },
  };
  return {
    ...CRD,
    spec: { ...CRD.spec, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }] },
  };
}

describe('validateCustomResources', () => {
  // As for built-ins: nodes that every object reaching them surely passes are not compiled.
  test('reports each keyword that prunes valid subtrees, beside objects that pass it', () => {
    const crd = keywordsCrd();
    const ok = { replicas: 3, ratio: 0.5, name: 'abc', mode: 'a', when: '2024-01-31T12:00:00Z', tags: ['x'], labels: { a: 'b' }, ports: [{ port: 1 }, { port: 2 }] };
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ replicas: 10 }, 'spec.replicas'],
      [{ ratio: 0 }, 'spec.ratio'],
      [{ name: 'abcdef' }, 'spec.name'],
      [{ name: 'ab1' }, 'spec.name'],
      [{ mode: 'c' }, 'spec.mode'],
      [{ when: 'yesterday' }, 'spec.when'],
      [{ tags: ['a', 'b', 'c'] }, 'spec.tags'],
      [{ tags: [''] }, 'spec.tags[0]'],
      [{ labels: { a: 'b', c: 'd' } }, 'spec.labels'],
      [{ ports: [{ port: 1 }, { port: 1 }] }, 'spec.ports[1]'],
      [{ extra: 1 }, 'spec.extra'],
    ];
    const objs = [model('ok', ok), ...bad.map(([spec], i) => model(`bad${i}`, { ...ok, ...spec })), model('null', { ...ok, mode: null })];
    const together = validateCustomResources(objs, crd);
    expect(together).toEqual(objs.map((o) => validateCustomResource(o, crd)));
    expect(together[0]).toEqual([]);
    expect(together[together.length - 1]).toEqual([]);
    bad.forEach(([, at], i) => expect(together[i + 1].map((x) => x.path)).toEqual([at]));
  });

  test('a schema ajv cannot compile fails the same, whether or not the objects reach the bad node', () => {
    const crd = keywordsCrd({ code: { type: 'string', pattern: '(' } });
    const [reached, unreached] = validateCustomResources([model('a', { code: 'x' }), model('b', { name: 'abc' })], crd);
    expect(reached).toMatchObject([{ rule: 'K8S-CRD', message: expect.stringMatching(/^the schema of version v1 cannot be used/) }]);
    expect(validateCustomResource(model('b', { name: 'abc' }), crd)).toEqual(unreached);
  });

  test('gives each object the issues it has alone, for fields only one object of the batch has', () => {
    const objs = [
      model('a', { format: 'onnx' }),
      model('b', { storage: { uri: 's3://x', readOnly: 'yes' } }),
      model('c', { adapters: [{ name: 'x' }, { name: 'x', protocol: 'TCP' }] }),
      model('d', { formatt: 'onnx', storage: { uri: 1 } }),
      { apiVersion: 'serving.example.com/v2', kind: 'Model', metadata: { name: 'e' } },
    ];
    const together = validateCustomResources(objs, CRD);
    expect(together).toEqual(objs.map((o) => validateCustomResource(o, CRD)));
    expect(together[0]).toEqual([]);
    expect(together[1]).toMatchObject([{ path: 'spec.storage.readOnly', message: 'expected boolean, got "yes"' }]);
    expect(together[2].map((i) => i.path)).toEqual(['spec.adapters[1]']);
    expect(together[3]).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'spec.formatt', message: 'unknown field (did you mean format?)' })]));
    expect(together[4][0].path).toBe('apiVersion');
  });
});
