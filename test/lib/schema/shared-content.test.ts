import { isSharedSchemaJson, s } from '../../../lib/schema/dsl';

// Nodes made apart that render the same content share one rendered tree (lib/schema/dsl.ts,
// toSharedJson): the CRDs' JSON then holds one frozen copy of it (lib/crd.ts), and the walks
// over the objects do its work once.
describe('rendered schema trees are shared by content', () => {
  test('SCHEMA-SAME-CONTENT: nodes made apart with the same content render to one tree, nested ones too', () => {
    expect(s.string().toSharedJson()).toBe(s.string().toSharedJson());
    const a = s.object({ name: s.string({ maxLength: 63 }).required(), port: s.int32({ minimum: 1 }) }).describe('an endpoint');
    const b = s.object({ port: s.int32({ minimum: 1 }), name: s.string({ maxLength: 63 }).required() }).describe('an endpoint');
    expect(a.toSharedJson()).toBe(b.toSharedJson());
    expect(s.array(a).toSharedJson()).toBe(s.array(b).toSharedJson());
    expect(isSharedSchemaJson(a.toSharedJson())).toBe(true);
    // toJson stays a fresh copy of its own.
    expect(a.toJson()).toEqual(b.toJson());
    expect(a.toJson()).not.toBe(b.toJson());
  });

  test('SCHEMA-OTHER-CONTENT: any difference (a field, a rule, a description, key order of a default, NaN or -0) renders apart', () => {
    const base = s.string({ maxLength: 63 });
    const differ = [
      s.string({ maxLength: 64 }),
      s.string({ maxLength: 63, pattern: '^a' }),
      base.describe('x'),
      base.rule('self != ""', 'empty'),
      base.nullable(),
      s.integer().default(0),
      s.integer().default(-0),
      s.integer().default(NaN),
      s.any().default({ a: 1, b: 2 }),
      s.any().default({ b: 2, a: 1 }),
      s.any().default(null),
    ];
    const trees = [base, ...differ].map((n) => n.toSharedJson());
    expect(new Set(trees).size).toBe(trees.length);
    expect(s.any().default({ b: 2, a: 1 }).toSharedJson()).toBe(trees[trees.length - 2]);
  });

  test('SCHEMA-NOT-JSON: a default that is not JSON data (a Date) is never merged', () => {
    const when = new Date(0);
    expect(s.string().default(when).toSharedJson()).not.toBe(s.string().default(when).toSharedJson());
  });
});
