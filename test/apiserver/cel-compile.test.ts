/**
 * CRD rules compiled as the API server compiles them (lib/validation/cel-crd.ts), checked
 * against a real kube-apiserver: for each class of rule, a CRD carrying it is created (as a
 * server-side dry run) and the server's verdict must be ours for the server's version.
 */
import { ApiError, KubeClient } from '../../lib/cluster/client';
import { crdCelIssues } from '../../lib/validation/cel-crd';
import { describeWithApiServer } from '../support/apiserver';

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });

/** A CRD whose spec has the given properties and rules. */
function crd(name: string, spec: Schema, rootRules: Schema[] = []): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.cel.example.com` },
    spec: {
      group: 'cel.example.com',
      scope: 'Namespaced',
      names: { kind: name.charAt(0).toUpperCase() + name.slice(1), plural: `${name}s`, singular: name, listKind: `${name.charAt(0).toUpperCase() + name.slice(1)}List` },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', ...spec } }, ...(rootRules.length ? { 'x-kubernetes-validations': rootRules } : {}) } },
      }],
    },
  };
}

const rule = (r: string): Schema => ({ rule: r, message: 'm' });

/** Each case: a CRD, and whether a server of 1.28 accepts it (what we must say too). */
const CASES: Array<[string, any, boolean]> = [
  // Scopes: the root sees metadata.name and generateName only; embedded resources likewise.
  ['root metadata.name', crd('rootname', {}, [rule("self.metadata.name.startsWith('a')")]), true],
  ['root metadata.namespace', crd('rootns', {}, [rule("self.metadata.namespace == 'x'")]), false],
  ['root metadata.labels', crd('rootlabels', {}, [rule('has(self.metadata.labels)')]), false],
  ['embedded resource metadata.name', crd('embname', { properties: { tpl: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [rule("self.metadata.name != ''")] } } }), true],
  ['embedded resource metadata.namespace', crd('embns', { properties: { tpl: { 'type': 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [rule("self.metadata.namespace == ''")] } } }), false],
  // A property named with a reserved word: plain before 1.32 is undefined, escaped is fine.
  ['reserved word, plain', crd('resplain', { 'properties': { namespace: str({ maxLength: 63 }) }, 'x-kubernetes-validations': [rule("self.namespace != 'x'")] }), false],
  ['reserved word, escaped', crd('resesc', { 'properties': { namespace: str({ maxLength: 63 }) }, 'x-kubernetes-validations': [rule("self.__namespace__ != 'x'")] }), true],
  ['an undeclared field', crd('undeclared', { 'properties': { a: str({ maxLength: 8 }) }, 'x-kubernetes-validations': [rule("self.b == 'x'")] }), false],
  // String literals: CEL escapes, not regex escapes.
  ['\\. in a string literal', crd('badescape', { 'properties': { host: str({ maxLength: 253 }) }, 'x-kubernetes-validations': [rule("self.host.matches('^a\\.b$')")] }), false],
  ['\\\\. in a string literal', crd('goodescape', { 'properties': { host: str({ maxLength: 253 }) }, 'x-kubernetes-validations': [rule("self.host.matches('^a\\\\.b$')")] }), true],
  ['\\. in a raw string', crd('rawescape', { 'properties': { host: str({ maxLength: 253 }) }, 'x-kubernetes-validations': [rule("self.host.matches(r'^a\\.b$')")] }), true],
  // Libraries: quantity and IP arrive in new CRD rules after 1.28; lists, regex and URLs are there.
  ['quantity()', crd('qty', { 'properties': { size: str({ maxLength: 16 }) }, 'x-kubernetes-validations': [rule("quantity(self.size).isGreaterThan(quantity('0'))")] }), false],
  ['isIP()', crd('ipaddr', { 'properties': { addr: str({ maxLength: 64 }) }, 'x-kubernetes-validations': [rule('isIP(self.addr)')] }), false],
  ['url() and list functions', crd('urllist', { 'properties': { u: str({ maxLength: 256 }), w: { type: 'array', maxItems: 8, items: { type: 'integer' } } }, 'x-kubernetes-validations': [rule("url(self.u).getScheme() == 'https' && self.w.isSorted() && self.w.sum() == 100")] }), true],
  // Cost: per rule (10,000,000) and per CRD (100,000,000).
  ['a regex over unbounded strings of an unbounded list', crd('costlist', { 'properties': { n: { type: 'array', items: str() } }, 'x-kubernetes-validations': [rule("self.n.all(x, x.matches('^[a-z]+$'))")] }), false],
  ['the same, bounded', crd('costbounded', { 'properties': { n: { type: 'array', maxItems: 64, items: str({ maxLength: 63 }) } }, 'x-kubernetes-validations': [rule("self.n.all(x, x.matches('^[a-z]+$'))")] }), true],
  ['a regex over one unbounded string', crd('coststring', { 'properties': { s: str() }, 'x-kubernetes-validations': [rule("self.s.matches('^[a-z]+$')")] }), true],
  ['a pairwise uniqueness rule over 20 unbounded strings', crd('costpairs', { properties: { c: { 'type': 'array', 'maxItems': 20, 'items': str(), 'x-kubernetes-validations': [rule('self.all(x, self.exists_one(y, y == x))')] } } }), false],
  ['the same over bounded strings', crd('costpairsok', { properties: { c: { 'type': 'array', 'maxItems': 20, 'items': str({ maxLength: 256 }), 'x-kubernetes-validations': [rule('self.all(x, self.exists_one(y, y == x))')] } } }), true],
  ['a rule in an unbounded list of objects, run once per item', crd('costcard', { properties: { items: { type: 'array', items: { 'type': 'object', 'required': ['name'], 'properties': { name: str() }, 'x-kubernetes-validations': [rule("self.name.matches('^[a-z]+$')")] } } } }), false],
  ['many cheap rules over the per-CRD budget together', crd('costtotal', {
    properties: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`s${i}`, { 'type': 'array', 'maxItems': 10, 'items': str(), 'x-kubernetes-validations': [rule("self.all(x, x.matches('^[a-z]+$'))")] }])),
  }), false],
  // Comprehension results: compared with == they are unbounded on 1.28 (Kueue's Workload).
  ['comparing two map() results (transition rule)', crd('mapeq', { 'properties': { p: { type: 'array', maxItems: 8, items: { type: 'object', required: ['name'], properties: { name: str({ maxLength: 63 }) } } } }, 'x-kubernetes-validations': [rule('self.p.map(x, x.name) == oldSelf.p.map(x, x.name)')] }), false],
  ['size() of a filter() result', crd('filtersize', { properties: { c: { 'type': 'array', 'maxItems': 20, 'items': str({ maxLength: 256 }), 'x-kubernetes-validations': [rule('size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0')] } } }), true],
  ['an immutable object (self == oldSelf)', crd('immutable', { properties: { o: { 'type': 'object', 'properties': { a: str() }, 'x-kubernetes-validations': [rule('self == oldSelf')] } } }), true],
];

describeWithApiServer('CRD rules: our compilation agrees with a real API server', (server) => {
  test.each(CASES.map(([what, c, accepted]) => [what, accepted, c] as const))('%s: accepted %s', async (_what, accepted, c) => {
    const client = new KubeClient(server().kubeConfig);
    let message: string | undefined;
    try {
      await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', c);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      message = e.message;
    }
    const ours = crdCelIssues(c, server().version);
    // The server's verdict is the fact this case records; ours must agree with it.
    expect({ server: message === undefined, ours: ours.length === 0 }).toEqual({ server: accepted, ours: accepted });
  });
});
