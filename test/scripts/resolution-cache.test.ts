import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/app.js keeps the file each require() resolves to (build/.code-cache/resolutions.json)
// and keys V8's code cache by file stamps. These tests hold both to noticing what changes the
// answer: a module moved, a package.json changed by npm, a node_modules/ that shadows, a
// rebuilt file.

const APP = path.resolve(__dirname, '..', '..', 'scripts', 'app.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const app = require(APP) as {
  codeStamp(filename: string, built: string, npm: string): string | undefined;
};

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** A project with scripts/app.js, a module of build/ requiring another and a package. */
function project(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-resolve-'));
  made.push(root);
  write(root, 'scripts/app.js', fs.readFileSync(APP, 'utf8'));
  write(root, 'package.json', '{"name":"p","version":"1.0.0"}');
  write(root, 'package-lock.json', '{"v":1}');
  write(root, 'node_modules/.package-lock.json', '{"v":1}');
  write(root, 'node_modules/pkg/package.json', '{"name":"pkg","main":"main.js"}');
  write(root, 'node_modules/pkg/main.js', 'exports.where = "pkg/main";\n');
  write(root, 'node_modules/pkg/main2.js', 'exports.where = "pkg/main2";\n');
  write(root, 'node_modules/other/index.js', 'exports.where = "other";\n');
  write(root, 'build/lib/a.js', 'exports.where = "a";\n');
  write(root, 'build/lib/b.js', 'exports.where = "b";\n');
  write(root, 'build/main.js', 'process.stdout.write(JSON.stringify({ a: require("./lib/a").where, pkg: require("pkg").where }));\n');
  return root;
}

function run(root: string, env: Record<string, string> = {}): { a: string; pkg: string } {
  const script = `require(${JSON.stringify(path.join(root, 'scripts', 'app.js'))}).useResolutionCache(); require(${JSON.stringify(path.join(root, 'build', 'main.js'))});`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, MLP_CODE_CACHE: '', ...env } });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

const RESOLUTIONS = 'build/.code-cache/resolutions.json';
interface Resolutions { head: string; guards: Array<[string, string]>; entries: Array<[string, string, ...number[]]> }

/** Points the kept entry of request (from build/ or build/lib/) to another file, as if found there: shows whether the entry is used. */
function redirect(root: string, request: string, to: string): void {
  const file = path.join(root, RESOLUTIONS);
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Resolutions;
  const entry = m.entries.find((e) => e[0].endsWith(`\0${request}`));
  expect(entry).toBeDefined();
  entry![1] = path.join(root, to);
  fs.writeFileSync(file, JSON.stringify(m));
}

describe('the resolution cache (useResolutionCache)', () => {
  test('RESOLVE-KEPT: what require() found is kept and used by the next process', () => {
    const root = project();
    expect(run(root)).toEqual({ a: 'a', pkg: 'pkg/main' });
    const m = JSON.parse(fs.readFileSync(path.join(root, RESOLUTIONS), 'utf8')) as Resolutions;
    expect(m.entries.map((e) => [e[0].split('\0')[1], path.relative(root, e[1])]).sort()).toEqual([['./lib/a', 'build/lib/a.js'], ['pkg', 'node_modules/pkg/main.js']]);
    redirect(root, './lib/a', 'build/lib/b.js');
    expect(run(root).a).toBe('b');
  });

  test('RESOLVE-MOVED: a module moved (a/index.js for a.js) is found where it is now', () => {
    const root = project();
    run(root);
    redirect(root, './lib/a', 'build/lib/b.js');
    fs.rmSync(path.join(root, 'build/lib/a.js'));
    write(root, 'build/lib/a/index.js', 'exports.where = "a/index";\n');
    expect(run(root).a).toBe('a/index');
    // A file added beside the one found (a.js again, which comes before a/index.js) is found too.
    write(root, 'build/lib/a.js', 'exports.where = "a";\n');
    expect(run(root).a).toBe('a');
  });

  test('RESOLVE-NPM: a change npm makes (a package\'s main) resolves again; MLP_CODE_CACHE=0 keeps nothing', () => {
    const root = project();
    run(root);
    redirect(root, 'pkg', 'node_modules/other/index.js');
    expect(run(root).pkg).toBe('other');
    write(root, 'node_modules/pkg/package.json', '{"name":"pkg","main":"main2.js"}');
    write(root, 'node_modules/.package-lock.json', '{"v":2}');
    expect(run(root).pkg).toBe('pkg/main2');
    // package-lock.json alone (npm install without node_modules/ changing name or size) resolves again too.
    redirect(root, 'pkg', 'node_modules/other/index.js');
    write(root, 'package-lock.json', '{"v":3}');
    expect(run(root).pkg).toBe('pkg/main2');

    const off = project();
    expect(run(off, { MLP_CODE_CACHE: '0' })).toEqual({ a: 'a', pkg: 'pkg/main' });
    expect(fs.existsSync(path.join(off, RESOLUTIONS))).toBe(false);
  });

  test('RESOLVE-SHADOW: a node_modules/ that appears nearer the requester than the project\'s is used', () => {
    const root = project();
    run(root);
    write(root, 'build/node_modules/pkg/index.js', 'exports.where = "shadow";\n');
    expect(run(root).pkg).toBe('shadow');
    // A request whose search met a node_modules/ between the requester and the root is not kept.
    const m = JSON.parse(fs.readFileSync(path.join(root, RESOLUTIONS), 'utf8')) as Resolutions;
    expect(m.entries.map((e) => e[0].split('\0')[1])).toEqual(['./lib/a']);
  });
});

describe('the code cache (useCodeCache: one pack, entries by stamp)', () => {
  test('CODE-CACHE-STAMP: a file of build/ is stamped by its size and mtime; one of node_modules/ also by the npm state; a file gone has none', () => {
    const root = project();
    const built = path.join(root, 'build') + path.sep;
    const a = path.join(root, 'build/lib/a.js');
    const pkg = path.join(root, 'node_modules/pkg/main.js');
    const first = app.codeStamp(a, built, 'n1');
    expect(app.codeStamp(a, built, 'n2')).toBe(first);
    fs.utimesSync(a, new Date(2020, 1, 1), new Date(2020, 1, 1));
    expect(app.codeStamp(a, built, 'n1')).not.toBe(first);
    const p = app.codeStamp(pkg, built, 'n1');
    expect(app.codeStamp(pkg, built, 'n2')).not.toBe(p);
    write(root, 'node_modules/pkg/main.js', 'exports.where = "pkg/MAIN";\n'); // same size, new mtime
    expect(app.codeStamp(pkg, built, 'n1')).not.toBe(p);
    expect(app.codeStamp(path.join(root, 'build/lib/gone.js'), built, 'n1')).toBeUndefined();
  });

  test('CODE-PACK: what V8 compiled is kept in one pack and used; a module rewritten with the same size runs its new code; a damaged pack is a miss', () => {
    const root = project();
    const runCached = () => {
      const script = `require(${JSON.stringify(path.join(root, 'scripts', 'app.js'))}).useCodeCache(); require(${JSON.stringify(path.join(root, 'build', 'main.js'))});`;
      const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, MLP_CODE_CACHE: '' } });
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as { a: string; pkg: string };
    };
    const pack = path.join(root, 'build/.code-cache/pack');
    const entries = () => {
      const text = fs.readFileSync(pack, 'latin1');
      return (JSON.parse(text.slice(0, text.indexOf('\n'))).entries as Array<[string, string, number, number]>).map((e) => path.relative(root, e[0])).sort();
    };
    expect(runCached()).toEqual({ a: 'a', pkg: 'pkg/main' });
    expect(entries()).toEqual(['build/lib/a.js', 'build/main.js', 'node_modules/pkg/main.js']);
    const kept = fs.statSync(pack).mtimeMs;
    expect(runCached()).toEqual({ a: 'a', pkg: 'pkg/main' });
    expect(fs.statSync(pack).mtimeMs).toBe(kept); // every module had its code cache: nothing written
    write(root, 'build/lib/a.js', 'exports.where = "A";\n'); // the same size
    expect(runCached().a).toBe('A');
    expect(entries()).toEqual(['build/lib/a.js', 'build/main.js', 'node_modules/pkg/main.js']);
    fs.truncateSync(pack, fs.statSync(pack).size - 10);
    expect(runCached()).toEqual({ a: 'A', pkg: 'pkg/main' });
    // A module removed drops out of the pack when it is next written.
    fs.rmSync(path.join(root, 'node_modules/pkg/main.js'));
    write(root, 'node_modules/pkg/package.json', '{"name":"pkg","main":"main2.js"}');
    write(root, 'node_modules/.package-lock.json', '{"v":2}');
    expect(runCached().pkg).toBe('pkg/main2');
    expect(entries()).toEqual(['build/lib/a.js', 'build/main.js', 'node_modules/pkg/main2.js']);
  });
});
