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
  codeCacheKey(filename: string, content: string, built: string, npm: string): string;
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

describe('the code cache\'s key (codeCacheKey)', () => {
  test('CODE-CACHE-STAMP: a file of build/ is keyed by its size and mtime; one of node_modules/ also by the npm state; a file gone, by content', () => {
    const root = project();
    const built = path.join(root, 'build') + path.sep;
    const a = path.join(root, 'build/lib/a.js');
    const pkg = path.join(root, 'node_modules/pkg/main.js');
    const key = (f: string, npm = 'n1') => app.codeCacheKey(f, fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : 'text', built, npm);
    const first = key(a);
    expect(key(a, 'n2')).toBe(first);
    fs.utimesSync(a, new Date(2020, 1, 1), new Date(2020, 1, 1));
    expect(key(a)).not.toBe(first);
    const p = key(pkg);
    expect(key(pkg, 'n2')).not.toBe(p);
    write(root, 'node_modules/pkg/main.js', 'exports.where = "pkg/MAIN";\n'); // same size, new mtime
    expect(key(pkg)).not.toBe(p);
    const gone = path.join(root, 'build/lib/gone.js');
    expect(app.codeCacheKey(gone, 'one', built, 'n1')).not.toBe(app.codeCacheKey(gone, 'two', built, 'n1'));
  });
});
