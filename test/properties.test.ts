/**
 * Property-based tests (fast-check): the component graph is ordered for any DAG of
 * requirements, any cycle is reported with a real cycle named, and synth is deterministic.
 */
import { ApiObject, App } from 'cdk8s';
import * as fc from 'fast-check';
import { TestComponent, widgetDef } from './lib/support';
import { CERT_MANAGER } from '../lib/component';
import { Platform, PlatformError } from '../lib/platform';
import { parseQuantity, resourceProblems } from '../lib/resources';
import { buildPlatform } from '../lib/synth';

/** A graph of n components: edges[i] lists the components i requires (each provides kind K<j>). */
interface Graph {
  readonly n: number;
  readonly edges: number[][];
  /** The order in which components are declared in the platform. */
  readonly declaration: number[];
}

const kindOf = (i: number) => `K${i}`;
const idOf = (i: number) => `c${i}`;

/** A random DAG: component i may require only components j < i (then declared in a random order). */
const dag: fc.Arbitrary<Graph> = fc.integer({ min: 1, max: 7 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    edges: fc.tuple(...Array.from({ length: n }, (_, i) => (i === 0 ? fc.constant<number[]>([]) : fc.uniqueArray(fc.integer({ min: 0, max: i - 1 }), { maxLength: i })))),
    declaration: fc.shuffledSubarray(Array.from({ length: n }, (_, i) => i), { minLength: n, maxLength: n }),
  }),
);

/** A DAG plus a cycle through k >= 2 components (k = 1 would be a component requiring its own kind, which is allowed). */
const cyclic: fc.Arbitrary<Graph & { cycle: number[] }> = dag
  .filter((g) => g.n >= 2)
  .chain((g) => fc.record({ g: fc.constant(g), cycle: fc.shuffledSubarray(Array.from({ length: g.n }, (_, i) => i), { minLength: 2, maxLength: g.n }) }))
  .map(({ g, cycle }) => {
    const edges = g.edges.map((e) => [...e]);
    cycle.forEach((c, i) => {
      const next = cycle[(i + 1) % cycle.length];
      if (!edges[c].includes(next)) edges[c].push(next);
    });
    return { ...g, edges, cycle };
  });

function platformOf(g: Graph, extra?: (c: TestComponent, i: number) => void): Platform {
  const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
  for (const i of g.declaration) {
    new TestComponent(p, idOf(i), `${idOf(i)}-system`, (c) => {
      c.crd(widgetDef({ kind: kindOf(i), plural: `k${i}s` }));
      for (const j of g.edges[i]) c.needs({ group: 'example.com', kind: kindOf(j), reason: `${idOf(i)} uses ${kindOf(j)}` });
      extra?.(c, i);
    });
  }
  return p;
}

describe('component order (property)', () => {
  test('for any DAG of requirements, every provider is ordered before each component that requires it', () => {
    fc.assert(
      fc.property(dag, (g) => {
        const order = platformOf(g).resolve().components.map((c) => c.componentName);
        expect([...order].sort()).toEqual(Array.from({ length: g.n }, (_, i) => idOf(i)).sort());
        for (let i = 0; i < g.n; i++) {
          for (const j of g.edges[i]) expect(order.indexOf(idOf(j))).toBeLessThan(order.indexOf(idOf(i)));
        }
      }),
      { numRuns: 100 },
    );
  });

  test('with no requirement between them, components keep their declaration order', () => {
    fc.assert(
      fc.property(dag.map((g) => ({ ...g, edges: g.edges.map(() => []) })), (g) => {
        expect(platformOf(g).resolve().components.map((c) => c.componentName)).toEqual(g.declaration.map(idOf));
      }),
      { numRuns: 50 },
    );
  });

  test('any graph with a cycle fails with one problem naming a cycle that is really in the graph', () => {
    fc.assert(
      fc.property(cyclic, (g) => {
        let error: unknown;
        try {
          platformOf(g).resolve();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(PlatformError);
        const problems = (error as PlatformError).problems;
        expect(problems).toHaveLength(1);
        const m = /^p: components depend on each other in a cycle: (c\d+(?: -> c\d+)+); break it by removing a requirement, declaring a kind as a prerequisite, or marking a requirement runtimeOnly where it is needed only at run time$/.exec(problems[0]);
        expect(m).not.toBeNull();
        const named = m![1].split(' -> ').map((x) => Number(x.slice(1)));
        expect(named.length).toBeGreaterThanOrEqual(3);
        expect(named[0]).toBe(named[named.length - 1]);
        expect(new Set(named.slice(0, -1)).size).toBe(named.length - 1);
        for (let k = 0; k + 1 < named.length; k++) expect(g.edges[named[k]]).toContain(named[k + 1]);
      }),
      { numRuns: 100 },
    );
  });
});

describe('synth determinism (property)', () => {
  // Plain objects: cdk8s cannot serialize a null-prototype object (fast-check generates them by default).
  const data = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.string({ maxLength: 40 }), { maxKeys: 4, noNullPrototype: true });

  test('building the same valid platform twice gives byte-identical files', () => {
    fc.assert(
      fc.property(dag, fc.array(data, { minLength: 7, maxLength: 7 }), (g, configs) => {
        const make = () => platformOf(g, (c, i) => {
          c.namespaceObject({ 'example.com/index': String(i) });
          new ApiObject(c, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${idOf(i)}-config`, namespace: c.namespaceName }, data: configs[i] });
        });
        const a = buildPlatform(make()).files;
        const b = buildPlatform(make()).files;
        expect([...a.keys()]).toEqual([...b.keys()]);
        for (const [file, text] of a) expect(b.get(file)).toBe(text);
      }),
      { numRuns: 30 },
    );
  });
});

describe('resource quantities (property)', () => {
  const suffixes: Array<[string, number]> = [['', 1], ['m', 1e-3], ['k', 1e3], ['M', 1e6], ['G', 1e9], ['Ki', 1024], ['Mi', 1024 ** 2], ['Gi', 1024 ** 3]];

  test('a whole number with a suffix parses to number x multiplier', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100000 }), fc.constantFrom(...suffixes), (n, [suffix, mult]) => {
        expect(parseQuantity(`${n}${suffix}`)).toBeCloseTo(n * mult, 6);
      }),
      { numRuns: 100 },
    );
  });

  test('a request is rejected exactly when it is above its limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 }), (req, lim) => {
        const problems = resourceProblems({ requests: { cpu: `${req}m` }, limits: { cpu: `${lim}m` } });
        expect(problems).toEqual(req > lim ? [`resources: requests.cpu '${req}m' is above limits.cpu '${lim}m'; raise the limit or lower the request`] : []);
      }),
      { numRuns: 100 },
    );
  });

  test('strings that are not quantities are reported', () => {
    for (const bad of ['lots', '1.2.3', 'Gi', '1 Gi', '1gi', '']) expect(parseQuantity(bad)).toBeUndefined();
  });
});
