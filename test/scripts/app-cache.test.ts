import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/app.js (what `npx cdk8s synth` runs) reuses the output of a synth whose inputs did
// not change. These tests hold it to being safe: every input is in the key, a tampered entry is
// not used, a failed or warning synth is not saved, and MLP_SYNTH_CACHE=0 bypasses it.

const ROOT = path.resolve(__dirname, '../..');
const APP = path.join(ROOT, 'scripts', 'app.js');
interface Cache { readonly key: string; readonly entry: string; restore(): boolean; save(): void }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const app = require(APP) as {
  readonly CACHE_LIB_SOURCES: readonly string[];
  inputKey(root: string, env: Record<string, string | undefined>, outdir: string, cwd?: string): string;
  outputCache(env?: Record<string, string | undefined>, outdir?: string): Cache | undefined;
};

const made: string[] = [];
function tmp(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mlp-cache-${name}-`));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A small project tree with one file of each kind of input. */
function project(): string {
  const root = tmp('project');
  const files: Record<string, string> = {
    'package.json': '{"name":"x","version":"1.0.0"}',
    'package-lock.json': '{"packages":{"node_modules/cdk8s":{"version":"2.0.0"}}}',
    'node_modules/.package-lock.json': '{"packages":{"node_modules/cdk8s":{"version":"2.0.0"}}}',
    'tsconfig.json': '{}',
    'cdk8s.yaml': 'app: node scripts/app.js\n',
    'scripts/app.js': '// app\n',
    'main.ts': 'export {};\n',
    'lib/a.ts': 'export const a = 1;\n',
    'constructs/c/c.ts': 'export const c = 1;\n',
    'platforms/p.ts': 'export const p = 1;\n',
    'imports/k8s.ts': 'export const k = 1;\n',
    'versions.json': '{}',
  };
  for (const [f, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), t);
  }
  return root;
}

test('scripts/app.js transpiles lib/cache.ts with every project module it imports (a fresh clone has no build/: a missing one fails the first synth)', () => {
  const needed = new Set<string>();
  const visit = (rel: string) => {
    if (needed.has(rel)) return;
    needed.add(rel);
    const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
    for (const m of text.matchAll(/^import[^'";]*from '(\.{1,2}\/[^']+)'/gm)) visit(path.posix.join(path.posix.dirname(rel), `${m[1]}.ts`));
  };
  visit('lib/cache.ts');
  expect([...app.CACHE_LIB_SOURCES].sort()).toEqual([...needed].sort());
});

describe('the input key', () => {
  const env = { MLP_PLATFORMS: 'serving', HOME: '/home/a' };
  const root = project();
  const key = () => app.inputKey(root, env, 'dist', root);
  const base = key();

  test.each([
    'package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'cdk8s.yaml', 'scripts/app.js',
    'main.ts', 'lib/a.ts', 'constructs/c/c.ts', 'platforms/p.ts', 'imports/k8s.ts', 'versions.json',
  ])('changes with the content of %s', (file) => {
    const abs = path.join(root, file);
    const before = fs.readFileSync(abs);
    fs.writeFileSync(abs, Buffer.concat([before, Buffer.from(' ')]));
    try {
      expect(key()).not.toBe(base);
    } finally {
      fs.writeFileSync(abs, before);
    }
    expect(key()).toBe(base);
  });

  test('changes with a new or removed source file, not with a touched one', () => {
    fs.writeFileSync(path.join(root, 'lib/b.ts'), '');
    expect(key()).not.toBe(base);
    fs.rmSync(path.join(root, 'lib/b.ts'));
    expect(key()).toBe(base);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'lib/a.ts'), later, later);
    expect(key()).toBe(base);
  });

  test('changes with MLP_* and CDK8S_* variables, the output directory and the working directory, not with other variables or the cache switches', () => {
    expect(app.inputKey(root, { ...env, MLP_PLATFORMS: 'training' }, 'dist', root)).not.toBe(base);
    expect(app.inputKey(root, { ...env, MLP_REPO_URL: 'https://example.com/x.git' }, 'dist', root)).not.toBe(base);
    expect(app.inputKey(root, { ...env, CDK8S_RECORD_CONSTRUCT_METADATA: 'true' }, 'dist', root)).not.toBe(base);
    expect(app.inputKey(root, env, 'out', root)).not.toBe(base);
    expect(app.inputKey(root, env, 'dist', path.join(root, 'lib'))).not.toBe(base);
    expect(app.inputKey(root, { ...env, HOME: '/home/b', MLP_SYNTH_CACHE: '1', MLP_SYNTH_CACHE_DIR: '/x', MLP_CACHE_DIR: '/y', MLP_CODE_CACHE: '0' }, 'dist', root)).toBe(base);
  });
});

describe('synth through scripts/app.js', () => {
  const work = tmp('synth');
  const cacheDir = path.join(work, 'cache');
  const caches = path.join(work, 'caches');
  const env = { ...process.env, MLP_PLATFORMS: 'serving', MLP_SYNTH_CACHE_DIR: cacheDir, MLP_SYNTH_CACHE: '', MLP_CACHE_DIR: caches };
  const run = (outdir: string, extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [APP], { cwd: work, encoding: 'utf8', env: { ...env, ...extra, CDK8S_OUTDIR: outdir } });
  const tree = (dir: string) => {
    const out: Record<string, string> = {};
    const walk = (rel: string) => {
      for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const r = path.join(rel, e.name);
        if (e.isDirectory()) walk(r);
        else out[r] = fs.readFileSync(path.join(dir, r), 'utf8');
      }
    };
    walk('');
    return out;
  };
  const entries = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).filter((n) => /^[0-9a-f]{64}$/.test(n)) : []);

  /**
   * The output of a synth into dist/ with every cache off (MLP_SYNTH_CACHE=0: neither the output
   * nor the checks' verdicts nor the phase files' YAML; MLP_CODE_CACHE=0: no V8 code cache): what
   * every synth with the same inputs below must write. Run once, by the first test that needs it.
   */
  let reference: Record<string, string> | undefined;
  const referenceOutput = () => {
    if (reference) return reference;
    const off = run('dist', { MLP_SYNTH_CACHE: '0', MLP_CODE_CACHE: '0' });
    expect(off.status).toBe(0);
    expect(entries()).toEqual([]);
    // MLP_SYNTH_CACHE=0 keeps no verdicts of the checks (nor any other work) either; a synth that runs keeps them.
    expect(fs.existsSync(caches)).toBe(false);
    reference = tree(path.join(work, 'dist'));
    expect(Object.keys(reference)).toContain(path.join('serving', 'kustomization.yaml'));
    expect(Object.keys(reference)).toContain(path.join('serving', '00-foundation', 'kserve.yaml'));
    fs.rmSync(path.join(work, 'dist'), { recursive: true });
    return reference;
  };

  test('a second synth with the same inputs reuses the first one\'s output, byte for byte; a tampered entry is rebuilt; MLP_SYNTH_CACHE=0 bypasses it', () => {
    const expected = referenceOutput();

    const first = run('dist');
    expect(first.status).toBe(0);
    expect(first.stdout).not.toMatch(/output reused/);
    expect(entries()).toHaveLength(1);
    const [distEntry] = entries();
    expect(tree(path.join(work, 'dist'))).toEqual(expected);
    fs.rmSync(path.join(work, 'dist'), { recursive: true });

    const second = run('dist');
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/inputs unchanged .*output reused/);
    expect(tree(path.join(work, 'dist'))).toEqual(expected);
    fs.rmSync(path.join(work, 'dist'), { recursive: true });

    // A cached file that no longer matches its recorded hash: the entry is not used, synth runs and saves it again.
    const cached = path.join(cacheDir, distEntry, 'out', 'serving', 'kustomization.yaml');
    fs.appendFileSync(cached, '# tampered\n');
    const third = run('dist');
    expect(third.status).toBe(0);
    expect(third.stdout).not.toMatch(/output reused/);
    expect(tree(path.join(work, 'dist'))).toEqual(expected);
    expect(fs.readFileSync(cached, 'utf8')).not.toMatch(/tampered/);

    // The entry holds a second name for each file synth wrote: a file of the output changed in
    // place changes it too, and so fails its hash: the next synth runs rather than reuse it.
    fs.appendFileSync(path.join(work, 'dist', 'serving', 'kustomization.yaml'), '# edited in place\n');
    fs.rmSync(path.join(work, 'dist'), { recursive: true });
    const fourth = run('dist');
    expect(fourth.status).toBe(0);
    expect(fourth.stdout).not.toMatch(/output reused/);
    expect(tree(path.join(work, 'dist'))).toEqual(expected);

    // An existing output folder: no reuse (synth replaces what it writes, and keeps the rest).
    const existing = run('dist');
    expect(existing.stdout).not.toMatch(/output reused/);
  });

  // Every cache changes how fast a synth is, never what it writes: the output of a synth after an
  // edit with every cache on (the checks' verdicts and the phase files' YAML of the synth before,
  // lib/cache.ts; V8's code cache, scripts/app.js) is the output of one with every cache off.
  test('with every cache on, a synth after an edit writes byte for byte what a synth with every cache off writes, and validates no object the synth before it validated', () => {
    const expected = referenceOutput();
    fs.rmSync(path.join(work, 'dist'), { recursive: true, force: true });
    const fresh = path.join(work, 'fresh-caches');
    const on = { MLP_CACHE_DIR: fresh, MLP_SYNTH_CACHE_DIR: path.join(fresh, 'synth') };
    // The synth before the edit: another revision, another output folder (its path is in the GitOps files).
    const before = run('before-edit', { ...on, MLP_TARGET_REVISION: 'before-edit' });
    expect(before.status).toBe(0);
    const [codeFolder] = fs.readdirSync(path.join(fresh, 'verdicts'));
    const verdictFiles = () => fs.readdirSync(path.join(fresh, 'verdicts', codeFolder)).filter((f) => f.endsWith('.tsv'));
    expect(verdictFiles()).toHaveLength(1);
    // The edit (back to the reference's inputs): not the same inputs, so the output is not reused.
    const edited = run('dist', on);
    expect(edited.status).toBe(0);
    expect(edited.stdout).not.toMatch(/output reused/);
    // It used what the one before kept: the objects the edit left as they were are not validated
    // again, so that process found no new verdict to write.
    expect(verdictFiles()).toHaveLength(1);
    expect(fs.existsSync(path.join(ROOT, 'build', '.code-cache'))).toBe(true);
    expect(tree(path.join(work, 'dist'))).toEqual(expected);
    fs.rmSync(path.join(work, 'dist'), { recursive: true });
  });

  test('a synth that fails is not saved', () => {
    const before = entries().length;
    const failed = run('failed', { MLP_PLATFORMS: 'no-such-platform' });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/no platform named no-such-platform/);
    expect(entries()).toHaveLength(before);
  });

  test('a synth that warns is not saved, so that its warning is shown again next time', () => {
    const repo = tmp('repo');
    expect(spawnSync('git', ['init', '-q'], { cwd: repo }).status).toBe(0);
    fs.writeFileSync(path.join(repo, '.gitignore'), 'ignored/\n');
    const before = entries().length;
    for (let i = 0; i < 2; i++) {
      const r = spawnSync(process.execPath, [APP], { cwd: repo, encoding: 'utf8', env: { ...env, CDK8S_OUTDIR: 'ignored', MLP_REPO_URL: 'https://example.com/gitops.git' } });
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/is ignored by git/);
      expect(r.stdout).not.toMatch(/output reused/);
      fs.rmSync(path.join(repo, 'ignored'), { recursive: true });
    }
    expect(entries()).toHaveLength(before);
  });
});

describe('the code cache (useCodeCache)', () => {
  test('CODE-CACHE-ESM: a .js file with ES module syntax in a package that does not say so still loads (Node.js detects it), with the code cache on', () => {
    // Node.js 20 loads such a file as an ES module after its CommonJS compile fails; the code
    // cache compiles CommonJS itself and must leave those files to Node.js (as
    // @kubernetes/client-node's dependencies are loaded by `mlplatform apply`).
    const root = path.resolve(__dirname, '..', '..');
    const dir = fs.mkdtempSync(path.join(root, 'build', '.esm-test-'));
    try {
      fs.writeFileSync(path.join(dir, 'esm.js'), 'export const answer = 42;\n');
      const script = `const app = require(${JSON.stringify(path.join(root, 'scripts', 'app.js'))}); app.useCodeCache(); ` +
        `const m = require(${JSON.stringify(path.join(dir, 'esm.js'))}); process.stdout.write(String(m.answer));`;
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, MLP_CODE_CACHE: '' } });
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr.split('\n').filter((l) => /Error/.test(l)) }).toEqual({ status: 0, stdout: '42', stderr: [] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
