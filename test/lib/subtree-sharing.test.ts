import { App, Chart } from 'cdk8s';
import { stringify } from 'yaml';
import { widgetDef } from './support';
import { contentDigest } from '../../lib/cache';
import { CustomResourceDefinition } from '../../lib/crd';
import { s } from '../../lib/schema/dsl';
import { isSharedJson } from '../../lib/subtree-sharing';
import { compileCelRules, crdIssues, validateBuiltins } from '../../lib/validation';
import { toYamlDocument, toYamlDocuments } from '../../lib/yaml-writer';

// CRDs hold one frozen copy of each schema subtree the DSL renders (lib/crd.ts), and the walks
// over every node do a shared subtree's work once (lib/subtree-sharing.ts). What they find must be
// what they find in a copy where nothing is shared: in each place, with each place's path.

/** A list map whose key is neither required nor defaulted (K8S-CRD), with a rule that does not parse (MLP003). */
const broken = s.array(s.object({ name: s.string(), port: s.int32() }).rule('self.port >', 'bad rule'), { listType: 'map', listMapKeys: ['name'] });
/** A clean subtree that appears at several depths. */
const clean = s.object({ image: s.string(), args: s.array(s.string()), document: s.string().default('--- a') });

function crdJson(id: string, kind: string): any {
  const schema = s.object({
    spec: s.object({ a: broken, b: s.object({ deeper: broken, c: clean }), c: clean, list: s.array(clean), either: s.intOrString() }),
  });
  const def = widgetDef({ kind, plural: `${kind.toLowerCase()}s`, versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v2', served: true, storage: false, schema }] });
  return new CustomResourceDefinition(new Chart(new App(), id), 'C', { definition: def }).apiObject.toJson();
}

const unshared = (v: unknown): any => JSON.parse(JSON.stringify(v));

describe('walks over shared schema subtrees', () => {
  test('the CRD holds shared subtrees (else this file tests nothing)', () => {
    const json = crdJson('x', 'Widget');
    const spec = json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(isSharedJson(spec.a)).toBe(true);
    expect(spec.a).toBe(spec.b.properties.deeper);
    expect(spec.c).toBe(json.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.c);
  });

  test('the structural rules, the CEL rules and the built-in validation find a shared subtree\'s problems in every place, as in a copy', () => {
    // The copy first, then the shared CRD twice, then another CRD holding the same subtrees: the memos are filled by then.
    for (const json of [crdJson('x', 'Widget'), crdJson('y', 'Gadget')]) {
      const copy = unshared(json);
      const expected = { structural: crdIssues(copy), cel: compileCelRules(copy, '1.32'), builtin: validateBuiltins([copy])[0] };
      expect(expected.structural.filter((i) => /key "name" must be required/.test(i.message)).map((i) => i.path)).toEqual([
        'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a.x-kubernetes-list-map-keys',
        'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.b.properties.deeper.x-kubernetes-list-map-keys',
        'spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.a.x-kubernetes-list-map-keys',
        'spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.b.properties.deeper.x-kubernetes-list-map-keys',
      ]);
      expect(expected.cel.length).toBeGreaterThanOrEqual(4);
      expect(expected.builtin.length).toBeGreaterThanOrEqual(4);
      for (let round = 0; round < 2; round++) {
        expect(crdIssues(json)).toEqual(expected.structural);
        expect(compileCelRules(json, '1.32')).toEqual(expected.cel);
        expect(validateBuiltins([json])[0]).toEqual(expected.builtin);
      }
    }
  });

  test('a content digest (the verdicts\' and the kept YAML\'s key) is the copy\'s', () => {
    const json = crdJson('x', 'Widget');
    expect(contentDigest(json)).toBe(contentDigest(unshared(json)));
    expect(contentDigest(json)).toBe(contentDigest(json));
    // A shared subtree inside a value that is not JSON data does not make it JSON data.
    const spec = json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;
    expect(contentDigest({ a: spec.c, b: undefined })).not.toBe(contentDigest({ a: spec.c }));
    expect(contentDigest({ a: spec.c, n: NaN })).not.toBe(contentDigest({ a: spec.c, n: null }));
  });

  test('the YAML writer writes a shared subtree at each depth as the yaml package does', () => {
    const json = crdJson('x', 'Widget');
    const expected = stringify(unshared(json), { lineWidth: 0, aliasDuplicateObjects: false });
    expect(toYamlDocument(json)).toBe(expected);
    expect(toYamlDocument(json)).toBe(expected);
    // The shared subtree alone (depth 0), then inside its CRD again.
    const c = json.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.c;
    expect(toYamlDocument(c)).toBe(stringify(unshared(c), { lineWidth: 0, aliasDuplicateObjects: false }));
    expect(toYamlDocuments([c, json])).toBe(`${toYamlDocument(c)}---\n${expected}`);
  });
});
