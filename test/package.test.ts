import { execFileSync, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// The package as a user gets it: `npx projen package` compiles pkg/ and packs the tarball; a
// fresh project installs it with only its runtime dependencies, offline, composes a platform
// from the package's constructs in TypeScript, and runs the installed `mlplatform` command.
//
// Offline: `npm ci` fills the npm cache with the tarballs the lock file pins, not with the
// registry's metadata (packuments), and `npm install --offline` without a lock file needs
// that metadata to pick versions (ENOTCACHED). So the fresh project gets a lock file naming
// exactly the versions (tarball URL and integrity) our own lock file pins for the runtime
// dependencies, and `npm install --offline` installs them from the cache: no request leaves
// the machine (--offline makes npm fail rather than fetch).

const ROOT = path.join(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const LOCK = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** The runtime part of our lock file, with tarball URLs, as the fresh project's lock file. */
function lockFor(tarball: string, deps: Record<string, string>): unknown {
  const packages: Record<string, any> = { '': { name: 'app', version: '1.0.0', dependencies: deps } };
  for (const [key, entry] of Object.entries<any>(LOCK.packages)) {
    if (!key || entry.dev || entry.link) continue;
    const name = key.split('node_modules/').pop()!;
    packages[key] = { resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`, ...entry };
  }
  packages['node_modules/cdk8s-mlplatform'] = {
    version: PKG.version,
    resolved: `file:${path.basename(tarball)}`,
    integrity: `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`,
    license: PKG.license,
    dependencies: PKG.dependencies,
    bin: PKG.bin,
    engines: PKG.engines,
  };
  return { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

const APP = `
import { App } from 'cdk8s';
import { architectureOf, buildPlatform, CERT_MANAGER, GatewayApiInferenceExtension, KServe, Kueue, Platform, writePlatform } from 'cdk8s-mlplatform';

declare const console: { log(s: string): void };

const app = new App();
const platform = new Platform(app, 'mine', { name: 'mine', prerequisites: [CERT_MANAGER], images: { registryMirror: 'mirror.example.com/ml' } });
new Kueue(platform, 'kueue');
new GatewayApiInferenceExtension(platform, 'gateway-api-inference-extension');
new KServe(platform, 'kserve', { localModel: false });
const build = buildPlatform(platform);
writePlatform(build, 'out', { gitops: { repoURL: 'https://git.example.com/mine.git' } });
const arch = architectureOf(build.model, build.largeCrds);
console.log(JSON.stringify({ components: arch.components.map((c) => c.name), images: arch.images, files: [...build.files.keys()] }));
`;

/** The README's package example shape: a PlatformApp run by runApp (main.ts's runner). */
const MAIN = `
import { CERT_MANAGER, KServe, Platform, PlatformApp, runApp } from 'cdk8s-mlplatform';

const app = new PlatformApp({ outdir: 'clusters/prod', gitops: { repoURL: 'https://git.example.com/mine.git' } });
const platform = new Platform(app, 'broken', { name: 'broken', prerequisites: [CERT_MANAGER] });
new KServe(platform, 'kserve', { localModel: false });   // without the inference extension: fails its checks
runApp(app);
`;

/** A working app in the same shape, for `mlplatform report --app`. */
const INSPECTED = `
import { CERT_MANAGER, Kueue, Platform, PlatformApp, runApp } from 'cdk8s-mlplatform';

const app = new PlatformApp({ outdir: 'never-written' });
const platform = new Platform(app, 'mine', { name: 'mine', prerequisites: [CERT_MANAGER], images: { registryMirror: 'mirror.example.com/ml' } });
new Kueue(platform, 'kueue');
runApp(app);
`;

test('the packed package installs offline without devDependencies, composes a platform, and runs mlplatform', () => {
  const started = Date.now();
  // Packed as `npm pack` and `npm publish` pack it, from a clone where nothing was built yet:
  // npm's prepack compiles pkg/ (issue day two 1: the tarball held 4 files, main pointing at
  // a pkg/index.js only `npx projen package` built).
  fs.rmSync(path.join(ROOT, 'pkg'), { recursive: true, force: true });
  const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-pack-'));
  // Compiled without type-checking (MLP_PREPACK_NO_CHECK, scripts/prepack.mjs: the same pkg/):
  // the test task's scripts/check-types-and-lint.mjs type-checks the package's sources, with
  // --package what only the package's compile would reject.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MLP_PREPACK_NO_CHECK: '1' } }));
  const packedFiles = (packed[0].files as Array<{ path: string }>).map((f) => f.path);
  expect(packedFiles).toEqual(expect.arrayContaining([PKG.main, PKG.types, 'pkg/cli/main.js', 'bin/mlplatform.js']));
  expect(packed[0].entryCount).toBeGreaterThan(100);
  const tarball = path.join(packDir, packed[0].filename);
  const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
  expect(listing).toEqual(expect.arrayContaining(['package/package.json', 'package/bin/mlplatform.js', 'package/pkg/index.js', 'package/pkg/index.d.ts', 'package/pkg/cli/main.js', 'package/pkg/imports/k8s/core-types.json', 'package/pkg/imports/ecosystem/index.json', 'package/pkg/imports/ecosystem/argoproj.io.json']));
  // Only the compiled package: no sources, tests or build tooling.
  expect(listing.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  expect(listing.filter((f) => /^package\/(test|scripts|build|node_modules)\//.test(f))).toEqual([]);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-package-'));
  fs.copyFileSync(tarball, path.join(dir, path.basename(tarball)));
  const deps = { 'cdk8s-mlplatform': `file:${path.basename(tarball)}`, 'cdk8s': PKG.dependencies.cdk8s, 'constructs': PKG.dependencies.constructs };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: deps }, null, 2));
  fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(lockFor(tarball, deps), null, 2));
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
  expect({ status: install.status, stderr: install.stderr }).toEqual({ status: 0, stderr: expect.any(String) });

  // No devDependency came along, unless a runtime dependency needs it in turn (the
  // Kubernetes client depends on @types/node, for one): the lock file says who pulled it in.
  const installed = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', '.package-lock.json'), 'utf8')).packages as Record<string, { dependencies?: Record<string, string> }>;
  const neededAtRunTime = (name: string) => PKG.dependencies[name] !== undefined
    || Object.entries(installed).some(([at, p]) => at.startsWith('node_modules/') && p.dependencies?.[name] !== undefined);
  for (const dev of Object.keys(PKG.devDependencies)) expect([dev, fs.existsSync(path.join(dir, 'node_modules', dev))]).toEqual([dev, neededAtRunTime(dev)]);

  // The app type-checks against the package's declarations (with our compiler: the fresh project has none) and runs.
  fs.writeFileSync(path.join(dir, 'app.ts'), APP);
  fs.writeFileSync(path.join(dir, 'main.ts'), MAIN);
  fs.writeFileSync(path.join(dir, 'inspected.ts'), INSPECTED);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'ES2022', lib: ['es2022'], types: [], skipLibCheck: true, esModuleInterop: true }, files: ['app.ts', 'main.ts', 'inspected.ts'] }));
  execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, stdio: 'pipe' });
  const result = JSON.parse(execFileSync(process.execPath, ['app.js'], { cwd: dir, encoding: 'utf8' }));
  expect(result.components).toEqual(['kueue', 'gateway-api-inference-extension', 'kserve']);
  expect(result.images.length).toBeGreaterThan(3);
  for (const image of result.images) expect(image).toMatch(/^mirror\.example\.com\/ml\//);
  expect(result.files).toEqual(expect.arrayContaining(['REPORT.md', 'kustomization.yaml']));
  const controllers = fs.readdirSync(path.join(dir, 'out', 'mine', '10-controllers'));
  // Named by component (day two 9).
  expect(controllers).toEqual(expect.arrayContaining(['kueue.yaml', 'kserve.yaml']));
  const kueue = fs.readFileSync(path.join(dir, 'out', 'mine', '10-controllers', 'kueue.yaml'), 'utf8');
  expect(kueue).toMatch(/kind: Deployment\n[\s\S]*name: kueue-controller-manager/);
  // writePlatform writes the GitOps files too, with paths where the files are (issues 17.1, 17.3).
  const root = fs.readFileSync(path.join(dir, 'out', 'mine', 'argocd', 'root.yaml'), 'utf8');
  expect(root).toContain('repoURL: https://git.example.com/mine.git');
  expect(root).toMatch(/path: (out\/)?mine\/argocd\/apps\n/);
  expect(fs.existsSync(path.join(dir, 'out', 'mine', 'flux', 'kustomizations.yaml'))).toBe(true);

  // Errors from the exported runner: the problem list once, exit code 1, no stack trace (issue 17.4).
  const failed = spawnSync(process.execPath, ['main.js'], { cwd: dir, encoding: 'utf8', env: { ...process.env, DEBUG: '' } });
  expect(failed.status).toBe(1);
  expect(failed.stderr).toMatch(/^synth failed: /);
  expect(failed.stderr).toContain('broken/kserve');
  expect(failed.stderr).not.toMatch(/^\s+at /m);
  const problem = failed.stderr.split('\n').find((l) => l.includes('broken/kserve'))!;
  expect(failed.stderr.split(problem).length - 1).toBe(1);
  expect(fs.existsSync(path.join(dir, 'clusters'))).toBe(false);

  // The installed command runs the compiled CLI (no TypeScript at run time), SVG rendering included.
  const bin = path.join(dir, 'node_modules', '.bin', 'mlplatform');
  expect(execFileSync(bin, ['--version'], { cwd: dir, encoding: 'utf8' })).toBe(`${PKG.version}\n`);
  expect(execFileSync(bin, ['list'], { cwd: dir, encoding: 'utf8' })).toMatch(/^serving +KServe/);
  expect(execFileSync(bin, ['graph', '--platform', 'serving', '--format', 'svg'], { cwd: dir, encoding: 'utf8' })).toMatch(/<title>n_kserve<\/title>/);
  const synth = spawnSync(bin, ['synth', '--platform', 'serving', '--out', 'dist'], { cwd: dir, encoding: 'utf8' });
  expect(synth.status).toBe(0);
  expect(fs.existsSync(path.join(dir, 'dist', 'serving', 'REPORT.md'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'dist', 'serving', 'argocd', 'root.yaml'))).toBe(true);
  // The installed command knows the ecosystem's kinds (Argo CD, Flux, cert-manager...): the whole output validates (day two 10).
  const validated = spawnSync(bin, ['validate', 'dist/serving'], { cwd: dir, encoding: 'utf8' });
  expect({ status: validated.status, stdout: validated.stdout.split('\n').slice(-2).join('\n') }).toEqual({ status: 0, stdout: '0 errors, 0 warnings\n' });
  // The consumer's own app, inspected without synthesizing (issue 17.12).
  const report = spawnSync(bin, ['report', '--app', 'inspected.js'], { cwd: dir, encoding: 'utf8' });
  expect({ status: report.status, stderr: report.stderr }).toEqual({ status: 0, stderr: '' });
  expect(report.stdout).toMatch(/^# Architecture of platform mine\n/);
  const mirror = spawnSync(bin, ['mirror', '--app', 'inspected.js'], { cwd: dir, encoding: 'utf8' });
  expect(mirror.stdout).toMatch(/^skopeo copy --all docker:\/\/\S+ docker:\/\/mirror\.example\.com\/ml\//);
  expect(fs.existsSync(path.join(dir, 'never-written'))).toBe(false);
  expect(fs.existsSync(path.join(dir, 'node_modules', 'cdk8s-mlplatform', 'pkg', 'cli', 'main.js'))).toBe(true);

  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(packDir, { recursive: true, force: true });
  // Visible in the test output: the package test is the slow one.
  process.stderr.write(`package test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}, 300_000);

test('the test task lints without fixing; fixing and the tarball have their own places (issue 17.16)', () => {
  const tasks = JSON.parse(fs.readFileSync(path.join(ROOT, '.projen', 'tasks.json'), 'utf8')).tasks;
  const steps = (name: string) => JSON.stringify(tasks[name].steps);
  // The type check and eslint (scripts/check-types-and-lint.mjs, the eslint task's folders)
  // run with the other checks and jest, at the same time (scripts/concurrently.mjs); jest in CI
  // mode, never updating snapshots.
  expect(steps('test')).toMatch(/"exec":"node scripts\/concurrently\.mjs [^"]*'(node scripts\/unless-unchanged\.mjs )?node scripts\/check-types-and-lint\.mjs [^']*--package tsconfig\.package\.json [^']*lib constructs platforms cli test scripts[^']*' -- jest --passWithNoTests --ci","receiveArgs":true/);
  expect(fs.readFileSync(path.join(ROOT, 'scripts', 'check-types-and-lint.mjs'), 'utf8')).not.toMatch(/\bfix:/);
  expect(steps('test')).not.toMatch(/ -u\b|--updateSnapshot/);
  expect(steps('eslint')).not.toContain('--fix');
  expect(steps('eslint:fix')).toContain('--fix');
  expect(steps('package')).toContain('npm pack --pack-destination artifacts');
  expect(steps('package')).not.toContain('dist/');
  // npm pack and npm publish build the package first (issue day two 1).
  expect(PKG.scripts.prepack).toBe('node scripts/prepack.mjs');
});

test('prepack fails, saying what to do, where TypeScript is not installed: no package without its library (issue day two 1)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-prepack-'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'prepack.mjs'), path.join(dir, 'scripts', 'prepack.mjs'));
  const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'prepack.mjs')], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_PATH: '' } });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^prepack: cannot build pkg\/ .*TypeScript is not installed\. Run `npm ci`/);
});
