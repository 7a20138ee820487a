import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { serialize } from 'v8';
import { ApiObject, App } from 'cdk8s';
import { Document, stringify } from 'yaml';
import { dataDifference } from './support';
import { CustomResourceDefinition, objectJson } from '../../lib/crd';
import { Platform } from '../../lib/platform';
import { CORE_TAG_TESTS, toYamlDocument, toYamlDocuments } from '../../lib/yaml-writer';
import { digest, ToolMemo } from '../support/tool-memo';

// The fast writer must produce exactly what the `yaml` package writes with synth's options.
const REFERENCE_OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false } as const;
const reference = (doc: unknown) => stringify(doc, REFERENCE_OPTIONS);

/**
 * The digest of what the `yaml` package wrote for a document (by its dataKey) in an earlier run,
 * with these options and this copy of the package (test/support/tool-memo.ts): a document the
 * writer writes to that digest is written as the package would write it, without running the
 * package on it again (it takes some 7 s of CPU over the default platforms, the writer 0.3 s).
 * Anything else is compared with the package's output, live.
 */
const referenceMemo = () => ToolMemo.open(`yaml-stringify-${digest(JSON.stringify(REFERENCE_OPTIONS)).slice(0, 8)}`, [path.join(path.dirname(require.resolve('yaml')), '..')]);

/** Expects the writer to write `doc` (whose dataKey is `key`) as the `yaml` package does, asking the package unless the memo knows the answer. */
function expectAsPackageWrites(doc: unknown, key: string, memo: ToolMemo): void {
  const ours = toYamlDocument(doc);
  if (memo.get(key) === digest(ours)) return;
  const want = reference(doc);
  expect(ours).toBe(want);
  memo.set(key, digest(want));
}

/**
 * Every Platform class exported by platforms/*.ts that builds with its default props, each
 * once (platforms/index.ts re-exports the others: building them twice doubled this suite).
 */
function defaultPlatforms(): Platform[] {
  if (platformsBuilt) return platformsBuilt;
  const dir = path.join(__dirname, '..', '..', 'platforms');
  const out: Platform[] = [];
  const seen = new Set<unknown>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(dir, file));
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'function' && value.prototype instanceof Platform && !seen.has(value)) {
        seen.add(value);
        out.push(new (value as any)(new App({ outdir: '/nonexistent' }), name));
      }
    }
  }
  return platformsBuilt = out;
}
/** Built once for the tests of this file that read them (none changes them). */
let platformsBuilt: Platform[] | undefined;

/**
 * A key equal for two documents exactly when they are the same data: the structured-clone
 * serialization keeps what JSON would blur (undefined, -0, NaN, Dates, key order). Platforms
 * share most objects (the same CRDs in several platforms); writing each distinct one once
 * checks the same thing, since both writers are functions of the data.
 */
function dataKey(doc: unknown): string {
  return createHash('sha256').update(serialize(doc)).digest('hex');
}

/** A small deterministic PRNG (Park-Miller). */
function random(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

// Pieces that exercise every branch of scalar styling: indicators, document markers,
// strings that look like other types, whitespace around newlines, escapes, quotes.
const PIECES = [
  'a', 'name', 'x-y', 'Z9', ' ', '  ', '\n', '\n\n', '\t', ':', ': ', '#', ' #', '-', '- ', '?', '? ', '"', '\'', '%', '---', '...', '.',
  '|', '>', '[', ']', '{', '}', ',', '&', '*', '!', '@', '`', '~', '\u0007', '\u001b', '\u0000', '\u0085', '\u00a0', '\u2028', 'é', '日本',
  '\ud800', 'true', 'False', 'NULL', 'null', '0x1F', '0o17', '.inf', '-.Inf', '.nan', '1e3', '+12', '-0.5', '.5', '3.', '12', 'yes', '\\', '\\n',
  'a long run of words to pass the forty character double-quoted multi-line threshold',
];

function randomString(next: () => number): string {
  const n = Math.floor(next() * 6);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

function randomValue(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.45) {
    const k = Math.floor(next() * 8);
    switch (k) {
      case 0: return Math.floor(next() * 2000) - 1000;
      case 1: return (next() - 0.5) * 10 ** Math.floor(next() * 30 - 10);
      case 2: return next() < 0.5;
      case 3: return null;
      case 4: return [-0, 1e21, 2 ** 53, 0.1, 1e-7][Math.floor(next() * 5)];
      default: return randomString(next);
    }
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) o[randomString(next)] = randomValue(next, depth + 1);
  if (next() < 0.1) o.skipped = undefined;
  return o;
}

describe('toYamlDocument', () => {
  test('writes every object of every default platform exactly as the yaml package does', () => {
    const platforms = defaultPlatforms();
    expect(platforms.length).toBeGreaterThan(0);
    const memo = referenceMemo();
    let count = 0;
    const checked = new Set<string>();
    for (const p of platforms) {
      const docs = p.resolve().objects.map((o) => o.json);
      count += docs.length;
      for (const d of docs) {
        const key = dataKey(d);
        if (checked.has(key)) continue;
        checked.add(key);
        expectAsPackageWrites(d, key, memo);
      }
    }
    memo.flush();
    expect(count).toBeGreaterThan(50);
    expect(checked.size).toBeGreaterThan(50);
  });

  // A CRD's JSON is written in one copy instead of by cdk8s's resolve (lib/crd.ts): the same
  // data, key order and all, as cdk8s's own toJson on every CRD of every default platform.
  test('every CRD of every default platform has the JSON cdk8s\'s toJson gives', () => {
    let count = 0;
    const checked = new Set<string>();
    for (const p of defaultPlatforms()) {
      for (const crd of p.node.findAll().filter((c): c is CustomResourceDefinition => c instanceof CustomResourceDefinition)) {
        count++;
        const json = crd.apiObject.toJson();
        const key = dataKey(json);
        if (checked.has(key)) continue;
        checked.add(key);
        expect(dataDifference(json, ApiObject.prototype.toJson.call(crd.apiObject))).toBeUndefined();
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(checked.size).toBeGreaterThan(50);
  });

  // The synth's path writes a plain ApiObject's JSON the same way (objectJson): the same data as
  // cdk8s's toJson on every object of every default platform, whichever way it took.
  test('OBJECT-JSON: every object of every default platform has, by objectJson, the JSON cdk8s\'s toJson gives', () => {
    let plain = 0;
    for (const p of defaultPlatforms()) {
      for (const o of p.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject)) {
        if (o.constructor === ApiObject) plain++;
        expect([o.node.path, dataDifference(objectJson(o), o.toJson())]).toEqual([o.node.path, undefined]);
      }
    }
    expect(plain).toBeGreaterThan(200);
  });

  test('the memo of the package\'s answers: only a digest of what the package wrote for the same data passes unasked; other code, another use, MLP_TEST_MEMO=0 or a damaged file start empty; answers no longer asked for do not pile up', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-tool-memo-'));
    try {
      const file = path.join(dir, 'x-1.json');
      const doc = { a: 'true', b: [1, { c: 'd' }] };
      const key = dataKey(doc);
      // A wrong digest kept for the document: the package is asked, and its answer's digest replaces it.
      const memo = new ToolMemo(file, 'x');
      memo.set(key, digest('a: true\n'));
      expectAsPackageWrites(doc, key, memo);
      expect(memo.get(key)).toBe(digest(reference(doc)));
      memo.flush();
      expect(new ToolMemo(file, 'x').get(key)).toBe(digest(reference(doc)));
      // Flushing the memo of other code for the same use removes this one's file.
      const other = new ToolMemo(path.join(dir, 'x-2.json'), 'x');
      other.set('k', 'v');
      other.flush();
      expect(fs.readdirSync(dir)).toEqual(['x-2.json']);
      // Answers no longer asked for are dropped once they outnumber the used ones (past 1,000).
      const old = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`old-${i}`, 'v']));
      fs.writeFileSync(path.join(dir, 'x-2.json'), JSON.stringify(old));
      const pruned = new ToolMemo(path.join(dir, 'x-2.json'), 'x');
      expect(pruned.get('old-1')).toBe('v');
      pruned.set('new', 'v');
      pruned.flush();
      expect(Object.keys(JSON.parse(fs.readFileSync(path.join(dir, 'x-2.json'), 'utf8'))).sort()).toEqual(['new', 'old-1']);
      fs.writeFileSync(path.join(dir, 'x-2.json'), '{"k": "v"');
      expect(new ToolMemo(path.join(dir, 'x-2.json'), 'x').get('k')).toBeUndefined();
      // Keyed by the tool's code and the use: an edited file of the tool is another memo.
      const tool = path.join(dir, 'tool');
      fs.mkdirSync(tool);
      fs.writeFileSync(path.join(tool, 'index.js'), 'one');
      // (An environment without MLP_TEST_MEMO: the memo on, also in a run with MLP_TEST_MEMO=0.)
      const before = ToolMemo.open('use', [tool], {}).file;
      expect(before).toBeDefined();
      expect(ToolMemo.open('use', [tool], {}).file).toBe(before);
      expect(ToolMemo.open('other-use', [tool], {}).file).not.toBe(before);
      fs.writeFileSync(path.join(tool, 'index.js'), 'two');
      expect(ToolMemo.open('use', [tool], {}).file).not.toBe(before);
      expect(ToolMemo.open('use', [tool], { MLP_TEST_MEMO: '0' }).file).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('checks each distinct document once, and only documents that are the same data count as one', () => {
    expect(dataKey({ a: [1, { b: 'x' }] })).toBe(dataKey({ a: [1, { b: 'x' }] }));
    for (const [x, y] of [[{ a: 0 }, { a: -0 }], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [{ a: undefined }, {}], [{ a: null }, {}], [{ a: '1' }, { a: 1 }], [[1, 2], { 0: 1, 1: 2 }]]) {
      expect(dataKey(x)).not.toBe(dataKey(y));
    }
  });

  test('writes generated data (tricky keys, strings, numbers, nesting) exactly as the yaml package does', () => {
    const next = random(20261130);
    for (let i = 0; i < 3000; i++) {
      const doc = i % 3 === 0 ? Array.from({ length: 3 }, () => randomValue(next, 1)) : { [randomString(next)]: randomValue(next, 0), k: randomValue(next, 1) };
      const want = reference(doc);
      const got = toYamlDocument(doc);
      if (got !== want) throw new Error(`differs on ${JSON.stringify(doc)}:\n--- yaml\n${want}--- ours\n${got}`);
    }
  });

  test('breaks double-quoted multi-line strings from exactly the length the yaml package does', () => {
    // The generated data rarely lands on this threshold (a mutant moving it by one survived 3000 documents).
    for (let n = 20; n <= 40; n++) {
      for (const doc of [{ s: `${'a'.repeat(n)}\u0007\nb` }, [`\u0007${'b'.repeat(n)}\n\nc`]]) expect(toYamlDocument(doc)).toBe(reference(doc));
    }
  });

  test('hands data outside the JSON subset to the yaml package', () => {
    for (const doc of [{ a: [1, undefined] }, { d: new Date(0) }, { n: NaN, i: -Infinity }, { ['k'.repeat(1100)]: 1 }, 'scalar', 42, null, { m: new Map([['a', 1]]) }]) {
      expect(toYamlDocument(doc)).toBe(reference(doc));
    }
  });

  test('separates documents with ---', () => {
    expect(toYamlDocuments([{ a: 1 }, { b: [] }])).toBe('a: 1\n---\nb: []\n');
  });

  test('quotes exactly the strings the core schema would read as something else', () => {
    const tags = (new Document().schema as any).tags.filter((t: any) => t.default && t.tag !== 'tag:yaml.org,2002:str' && t.test);
    expect(CORE_TAG_TESTS.map((r) => r.source).sort()).toEqual(tags.map((t: any) => t.test.source).sort());
  });

  test('fails when it differs from the yaml package (the comparison is live)', () => {
    const doc = { s: 'true' };
    expect(toYamlDocument(doc)).toBe('s: "true"\n');
    expect(toYamlDocument(doc)).not.toBe('s: true\n');
  });
});
