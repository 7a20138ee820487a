import { CRD_CONSTRAINT_DECLARATIONS } from './crd-constraint-declarations';
import { constraintSummary, ConstraintRun, readConstraintFiles, runConstraints, CRD_SOURCES } from './crd-constraints-harness';
import { compareConstraints, ConstraintDeclaration, constraintFacts, declares, describeConstraintDifference } from '../../lib/crd-constraints';
import { JSONSchemaProps } from '../../lib/schema/types';

/**
 * The validation of every CRD the default platforms emit against upstream's, keyword by
 * keyword, path by path and version by version (test/parity/crd-constraints/, extracted by
 * scripts/extract-crd-constraints.ts from upstream's rendered installs). A difference must be
 * declared with a class and a reason (crd-constraint-declarations.ts); declarations that match
 * nothing fail. CEL rule texts are reported (ours are our own words), their count per path is compared.
 */
describe('CRD constraints are upstream\'s', () => {
  let run: ConstraintRun;
  beforeAll(() => {
    run = runConstraints();
    process.stdout.write(`${constraintSummary(run)}\n`);
  });

  test('every upstream constraint is ours, or a declared difference', () => {
    expect(run.undeclared.map(describeConstraintDifference)).toEqual([]);
  });

  test('no declared difference is stale (each still matches one)', () => {
    expect(run.stale.map((d) => `${d.crd} ${d.path} ${String(d.keyword ?? '*')} (${d.class})`)).toEqual([]);
  });

  test('every declaration has a reason, and names a CRD that is compared', () => {
    const compared = new Set(run.compared.map((c) => c.crd));
    for (const d of CRD_CONSTRAINT_DECLARATIONS) {
      expect({ crd: d.crd, path: d.path, reason: d.reason.length > 20, compared: d.crd === '*' || compared.has(d.crd) }).toEqual({ crd: d.crd, path: d.path, reason: true, compared: true });
    }
  });

  test('CRDs compared with another install than their component\'s name one that ships them', () => {
    const files = readConstraintFiles();
    for (const [crd, src] of Object.entries(CRD_SOURCES)) expect({ crd, shipped: Boolean(files.get(src.install)?.crds[crd]) }).toEqual({ crd, shipped: true });
  });

  test('only CRDs without an upstream install are left uncompared', () => {
    // cert-manager's release manifest is not among the rendered installs; the MLflow operator's
    // platform component CRD ships in the Open Data Hub operator, not in the MLflow operator's install.
    expect(run.withoutUpstream.filter((c) => !c.endsWith('.cert-manager.io') && c !== 'mlflowoperators.components.platform.opendatahub.io')).toEqual([]);
  });
});

describe('the comparison', () => {
  const schema = (o: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec: o } });
  const upstream = constraintFacts(schema({ type: 'object', required: ['a'], properties: { a: { type: 'string', pattern: '^x$' }, l: { 'type': 'array', 'items': { type: 'string' }, 'x-kubernetes-list-type': 'set' } } }));

  test('a missing, a different and an extra keyword are each a difference naming path, keyword and values', () => {
    const ours = constraintFacts(schema({ type: 'object', properties: { a: { type: 'string', pattern: '^y$', maxLength: 3 }, l: { type: 'array', items: { type: 'string' } } } }));
    const c = compareConstraints('xs.example.com', 'v1', upstream, ours);
    expect(c.differences.map(describeConstraintDifference).sort()).toEqual([
      'xs.example.com v1 spec.a maxLength: upstream (absent), ours 3',
      'xs.example.com v1 spec.a pattern: upstream "^x$", ours "^y$"',
      'xs.example.com v1 spec.a required: upstream true, ours (absent)',
      'xs.example.com v1 spec.l x-kubernetes-list-type: upstream "set", ours (absent)',
    ]);
    expect(c.total - c.identical).toBe(3);
  });

  test('a declaration covers a subtree, a keyword and a side', () => {
    const d: ConstraintDeclaration = { crd: 'xs.example.com', path: 'spec.**', keyword: 'pattern', side: 'upstream', class: 'deliberate', reason: 'for the test of declarations' };
    const diff = { crd: 'xs.example.com', version: 'v1', path: 'spec.a', keyword: 'pattern' as const, upstream: '^x$', ours: undefined };
    expect(declares(d, diff)).toBe(true);
    expect(declares(d, { ...diff, ours: '^y$' })).toBe(false);
    expect(declares(d, { ...diff, keyword: 'maxLength' })).toBe(false);
    expect(declares(d, { ...diff, path: 'status.a' })).toBe(false);
  });
});
