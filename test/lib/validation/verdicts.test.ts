import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cachingOff, codeKey, contentDigest } from '../../../lib/cache';
import { runChecks } from '../../../lib/checks';
import { PlatformBuild } from '../../../lib/synth';
import { ValidationIssue } from '../../../lib/validation';
import { Verdicts } from '../../../lib/validation/verdicts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-verdicts-'));

/** A validator that counts what it sees: an issue for every item with `bad`. */
function counting() {
  const seen: unknown[] = [];
  const validate = (items: any[]): ValidationIssue[][] => {
    seen.push(...items);
    return items.map((i) => (i.bad ? [{ path: 'bad', message: `is ${String(i.bad)}`, rule: 'K8S-SCHEMA' }] : []));
  };
  return { seen, validate };
}

describe('Verdicts', () => {
  test('an item validated before is not validated again; a changed item, context or kind is', () => {
    const v = new Verdicts(undefined, 'code');
    const c = counting();
    const items = [{ a: 1 }, { a: 2, bad: 'x' }];
    expect(v.of('k', 'ctx', items, c.validate)).toEqual([[], [{ path: 'bad', message: 'is x', rule: 'K8S-SCHEMA' }]]);
    expect(c.seen).toHaveLength(2);
    // Same content, other objects: no validation, the same results.
    expect(v.of('k', 'ctx', [{ a: 2, bad: 'x' }, { a: 1 }], c.validate)).toEqual([[{ path: 'bad', message: 'is x', rule: 'K8S-SCHEMA' }], []]);
    expect(c.seen).toHaveLength(2);
    // Only the changed item is validated.
    expect(v.of('k', 'ctx', [{ a: 1 }, { a: 3, bad: 'y' }], c.validate)[1]).toEqual([{ path: 'bad', message: 'is y', rule: 'K8S-SCHEMA' }]);
    expect(c.seen).toEqual([...items, { a: 3, bad: 'y' }]);
    v.of('k', 'other context', [{ a: 1 }], c.validate);
    v.of('other kind', 'ctx', [{ a: 1 }], c.validate);
    // Data as context (a CRD) is keyed by content.
    v.of('k', { crd: 1 }, [{ a: 1 }], c.validate);
    v.of('k', { crd: 1 }, [{ a: 1 }], c.validate);
    v.of('k', { crd: 2 }, [{ a: 1 }], c.validate);
    expect(c.seen).toHaveLength(7);
    expect(v.stats).toEqual({ hits: 4, misses: 7 });
  });

  test('tells apart what JSON would not, and validates every time what it cannot serialize', () => {
    const v = new Verdicts(undefined, 'code');
    const c = counting();
    for (const item of [{ a: null }, { a: NaN }, { a: undefined }, {}, { a: '1970-01-01T00:00:00.000Z' }, { a: new Date(0) }, { a: [null] }, { a: [undefined] }]) v.of('k', '', [item], c.validate);
    expect(c.seen).toHaveLength(8);
    const f = { a: () => 1 };
    v.of('k', '', [f], c.validate);
    v.of('k', '', [f], c.validate);
    expect(c.seen).toHaveLength(10);
    expect(contentDigest({ a: 1, b: [1, 'x'] })).toBe(contentDigest({ a: 1, b: [1, 'x'] }));
    // JSON data is keyed by its text: shared sub-objects and how V8 stores a number do not matter.
    const shared = { x: [0.5 * 2] };
    expect(contentDigest({ a: shared, b: shared })).toBe(contentDigest({ a: { x: [1] }, b: { x: [1] } }));
    expect(contentDigest({ a: 1 })).not.toBe(contentDigest({ a: '1' }));
    expect(contentDigest(() => 1)).toBeUndefined();
  });

  test('flushed verdicts are read by the next process\'s store; a line that is damaged, of another format or shape is not', () => {
    const dir = tmp();
    const c = counting();
    const first = new Verdicts(dir, 'code-one');
    first.of('k', '', [{ a: 1 }, { a: 2, bad: 'x' }], c.validate);
    // Nothing on disk before a flush.
    expect(new Verdicts(dir, 'code-one').of('k', '', [{ a: 1 }], c.validate)).toEqual([[]]);
    expect(c.seen).toHaveLength(3);
    first.flush();
    const [folder] = fs.readdirSync(dir);
    expect(folder).toBe('code-one');
    const files = fs.readdirSync(path.join(dir, folder));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.tsv$/);
    const second = new Verdicts(dir, 'code-one');
    expect(second.of('k', '', [{ a: 2, bad: 'x' }, { a: 1 }], c.validate)).toEqual([[{ path: 'bad', message: 'is x', rule: 'K8S-SCHEMA' }], []]);
    expect(c.seen).toHaveLength(3);

    // Damage each verdict line in turn: that verdict is a miss, the other still holds.
    const file = path.join(dir, folder, files[0]);
    const [format, ...lines] = fs.readFileSync(file, 'utf8').trim().split('\n');
    expect(format).toBe('mlp-verdicts-2');
    expect(lines).toHaveLength(2);
    for (const at of [0, 1]) {
      const damaged = [
        lines[at].slice(0, -3),
        lines[at].replace(/^[0-9a-f]{4}/, '0000'),
        lines[at].replace('\t', ' '),
        lines[at].replace(/\t.*$/, '\t[{"path":1}]'),
        lines[at].replace(/\t.*$/, '\t{}'),
      ];
      for (const bad of damaged) {
        fs.writeFileSync(file, `${format}\n${lines.map((l, i) => (i === at ? bad : l)).join('\n')}\n`);
        const before = c.seen.length;
        new Verdicts(dir, 'code-one').of('k', '', [{ a: 1 }, { a: 2, bad: 'x' }], c.validate);
        expect(c.seen.length - before).toBe(1);
      }
    }
    // A file of another format: every verdict in it is a miss.
    fs.writeFileSync(file, `mlp-verdicts-1\n${lines.join('\n')}\n`);
    const before = c.seen.length;
    new Verdicts(dir, 'code-one').of('k', '', [{ a: 1 }, { a: 2, bad: 'x' }], c.validate);
    expect(c.seen.length - before).toBe(2);
  });

  test('verdicts of other code are not used; the folders of the newest four code keys are kept', () => {
    const dir = tmp();
    const c = counting();
    for (const code of ['c1', 'c2', 'c3', 'c4', 'c5']) {
      const v = new Verdicts(dir, code);
      v.of('k', '', [{ a: 1 }], c.validate);
      v.flush();
      // Folder times a second apart, oldest first.
      const t = new Date(Date.now() - (10 - Number(code[1])) * 1000);
      fs.utimesSync(path.join(dir, code), t, t);
    }
    expect(c.seen).toHaveLength(5);
    // c5's flush kept the newest four; c6 makes no folder before it flushes.
    new Verdicts(dir, 'c6').of('k', '', [{ a: 1 }], c.validate);
    expect(fs.readdirSync(dir).sort()).toEqual(['c2', 'c3', 'c4', 'c5']);
    const v6 = new Verdicts(dir, 'c6');
    v6.of('k', '', [{ a: 1 }], c.validate);
    v6.flush();
    expect(fs.readdirSync(dir).sort()).toEqual(['c3', 'c4', 'c5', 'c6']);
    // The code key is a digest of this package's code (lib/, imports/), the same all process long.
    expect(codeKey()).toMatch(/^[0-9a-f]{64}$/);
    expect(codeKey()).toBe(codeKey());
  });

  test('past sixteen files, a flush merges the folder into one file holding every verdict', () => {
    const dir = tmp();
    const c = counting();
    for (let i = 0; i < 16; i++) {
      const v = new Verdicts(dir, 'code');
      v.of('k', '', [{ i }], c.validate);
      v.flush();
    }
    expect(fs.readdirSync(path.join(dir, 'code'))).toHaveLength(16);
    const v = new Verdicts(dir, 'code');
    v.of('k', '', [{ i: 16 }], c.validate);
    v.flush();
    expect(fs.readdirSync(path.join(dir, 'code'))).toHaveLength(1);
    const all = new Verdicts(dir, 'code');
    all.of('k', '', Array.from({ length: 17 }, (_, i) => ({ i })), c.validate);
    expect(all.stats).toEqual({ hits: 17, misses: 0 });
    expect(c.seen).toHaveLength(17);
  });

  test('a merge keeps the verdicts this process used first, then the newest files\', up to its limit', () => {
    const dir = tmp();
    const c = counting();
    const limits = { files: 2, entries: 3 };
    for (const i of [1, 2]) {
      const v = new Verdicts(dir, 'code', limits);
      v.of('k', '', [{ i }, { i: i + 10 }], c.validate);
      v.flush();
    }
    // Three files now: a merge. This process used { i: 1 } (a hit) and found { i: 3 }.
    const v = new Verdicts(dir, 'code', limits);
    v.of('k', '', [{ i: 1 }, { i: 3 }], c.validate);
    v.flush();
    expect(fs.readdirSync(path.join(dir, 'code'))).toHaveLength(1);
    const after = new Verdicts(dir, 'code', limits);
    after.of('k', '', [{ i: 1 }, { i: 3 }, { i: 2 }, { i: 12 }, { i: 11 }], c.validate);
    // Kept: the two used, then the newest file's first verdict ({ i: 2 }).
    expect(after.stats).toEqual({ hits: 3, misses: 2 });
  });

  test('a folder that cannot be written only costs time', () => {
    const file = path.join(tmp(), 'not-a-folder');
    fs.writeFileSync(file, '');
    const v = new Verdicts(file, 'code');
    const c = counting();
    v.of('k', '', [{ a: 1 }], c.validate);
    expect(() => v.flush()).not.toThrow();
    expect(v.of('k', '', [{ a: 1 }], c.validate)).toEqual([[]]);
    expect(c.seen).toHaveLength(1);
  });

  test('the environment: MLP_SYNTH_CACHE=0 turns verdicts off, MLP_CACHE_DIR places them, else node_modules/.cache above the working directory', () => {
    for (const off of ['0', 'false', 'OFF', 'no']) {
      expect(cachingOff({ MLP_SYNTH_CACHE: off })).toBe(true);
      expect(Verdicts.fromEnvironment({ MLP_SYNTH_CACHE: off })).toBeUndefined();
    }
    expect(cachingOff({})).toBe(false);
    const dir = tmp();
    const v = Verdicts.fromEnvironment({ MLP_CACHE_DIR: dir })!;
    expect(Verdicts.fromEnvironment({ MLP_CACHE_DIR: dir })).toBe(v);
    v.of('k', '', [{ where: 'env' }], counting().validate);
    v.flush();
    expect(fs.readdirSync(path.join(dir, 'verdicts'))).toEqual([codeKey().slice(0, 16)]);
    // Found from a folder below the project: its node_modules/.cache.
    const project = tmp();
    fs.mkdirSync(path.join(project, 'node_modules'));
    fs.mkdirSync(path.join(project, 'sub', 'deeper'), { recursive: true });
    const below = Verdicts.fromEnvironment({}, path.join(project, 'sub', 'deeper'))!;
    below.of('k', '', [{ where: 'below' }], counting().validate);
    below.flush();
    expect(fs.readdirSync(path.join(project, 'node_modules', '.cache', 'cdk8s-mlplatform', 'verdicts'))).toEqual([codeKey().slice(0, 16)]);
  });
});

describe('synth checks with verdicts', () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  /**
   * Builds the serving platform (or, `small`, a platform of one Namespace) with fresh modules, as
   * a new process would, and the verdicts its checks used.
   */
  function buildFresh(keepRendered = true, small = false) {
    let out: { build: PlatformBuild; verdicts?: Verdicts } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const [synth, cdk8s, verdicts] = ['../../../lib/synth', 'cdk8s', '../../../lib/validation/verdicts'].map((m) => require(m));
      let platform;
      if (small) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const support = require('../support');
        platform = support.newPlatform();
        new support.TestComponent(platform, 'test', 'test-system', (c: any) => c.namespaceObject());
      } else {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        platform = new (require('../../../platforms').ServingPlatform)(new cdk8s.App({ outdir: '/nonexistent' }), 'serving');
      }
      const build = synth.buildPlatform(platform, { keepRendered });
      out = { build, verdicts: verdicts.Verdicts.fromEnvironment() };
    });
    return out!;
  }

  test('find what a run without them finds; an object changed after a run is validated again', () => {
    const cacheDir = tmp();
    process.env.MLP_CACHE_DIR = cacheDir;
    process.env.MLP_SYNTH_CACHE = '0';
    const off = buildFresh();
    expect(off.verdicts).toBeUndefined();
    process.env.MLP_SYNTH_CACHE = '';
    const cold = buildFresh();
    expect(cold.verdicts!.stats.hits).toBe(0);
    expect(cold.verdicts!.stats.misses).toBeGreaterThan(50);
    // Fresh modules read the verdicts the first build wrote. (In one process V8 may write a string
    // or a shared sub-object differently the second time, a miss; test/scripts/app-cache.test.ts
    // shows a new process validating nothing again.)
    const warm = buildFresh();
    expect(warm.verdicts!.stats.hits + warm.verdicts!.stats.misses).toBe(cold.verdicts!.stats.misses);
    expect(warm.verdicts!.stats.hits).toBeGreaterThan(cold.verdicts!.stats.misses / 2);
    for (const b of [cold.build, warm.build]) {
      expect([...b.files]).toEqual([...off.build.files]);
      expect(b.warnings).toEqual(off.build.warnings);
    }
    expect(off.build.warnings.length).toBeGreaterThan(0);
    // The phase files' YAML was kept too (lib/rendered.ts), and the warm build's files are the same.
    const [yamlFolder] = fs.readdirSync(path.join(cacheDir, 'yaml'));
    expect(fs.readdirSync(path.join(cacheDir, 'yaml', yamlFolder)).length).toBe([...off.build.files.keys()].filter((f) => /^\d\d-[a-z-]+\/[^/]+\.yaml$/.test(f) && !f.endsWith('/kustomization.yaml')).length);
    // Only synth's writers keep YAML (PlatformApp, `mlplatform synth`); other builds keep verdicts only.
    const other = tmp();
    process.env.MLP_CACHE_DIR = other;
    const small = buildFresh(false, true);
    expect(small.build.model.objects.map((o) => o.json.kind)).toEqual(['Namespace']);
    expect(small.verdicts!.stats.misses).toBeGreaterThan(0);
    expect(fs.readdirSync(other)).toEqual(['verdicts']);
    process.env.MLP_CACHE_DIR = cacheDir;

    // The same model, objects broken in place: their new content has no verdict.
    const model = warm.build.model;
    const deployment = model.objects.find((o) => o.json.kind === 'Deployment')!;
    deployment.json.spec.replicas = 'three';
    const crd = model.objects.find((o) => o.json.kind === 'CustomResourceDefinition' && JSON.stringify(o.json).includes('x-kubernetes-validations'))!;
    // Its schema subtrees are shared and frozen (lib/subtree-sharing.ts): the version's schema is replaced by a copy that can change.
    const version = crd.json.spec.versions.find((v: any) => findRules(v));
    version.schema = JSON.parse(JSON.stringify(version.schema));
    findRules(version.schema).push({ rule: 'self.nope(', message: 'broken' });
    const findings = runChecks(model);
    expect(findings.filter((f) => f.rule === 'MLP001' && f.path === deployment.path).map((f) => f.message).join('\n')).toMatch(/replicas/);
    expect(findings.some((f) => f.rule === 'MLP003' && f.path === crd.path)).toBe(true);
  });
});

/** The first x-kubernetes-validations list in a CRD. */
function findRules(node: any): any[] {
  if (node && typeof node === 'object') {
    if (Array.isArray(node['x-kubernetes-validations'])) return node['x-kubernetes-validations'];
    for (const v of Object.values(node)) {
      const found = findRules(v);
      if (found) return found;
    }
  }
  return undefined as any;
}
