// `npm run bench`: how fast synth is, against the tool it replaces, and how it grows.
//
// 1. Every default platform (what `npx cdk8s synth` writes): the documented command, whole
//    process, every check on, one platform at a time (MLP_PLATFORMS), BENCH_RUNS times
//    (default 5), alternating in the same run with `kubectl kustomize` re-rendering the
//    output just written. A first synth (MLP_SYNTH_CACHE=0: everything built, checked and
//    written) and a second one (inputs unchanged: scripts/app.js reuses the first one's
//    output) are measured separately. Prints the median wall and CPU time, the peak memory
//    (the largest resident set of any process of the command, as GNU time reports it) and
//    the ratios. Without kubectl on the PATH (or in KUBECTL) the comparison is skipped.
//    Between them, a synth after an edit: an input changed (MLP_TARGET_REVISION, new each
//    run, so the output cannot be reused), the checks' verdicts and the phase files' YAML of
//    the unchanged objects kept (lib/cache.ts). Our own command, `npx mlplatform synth --platform
//    NAME`, is measured in the same rounds, first (MLP_SYNTH_CACHE=0) and after an edit. The
//    largest platform (by output bytes, which is what kustomize's time follows) is the one the
//    targets are judged on (SYNTH_GOALS, peak memory).
// 2. A scaling sweep on synthetic platforms (scripts/bench-platforms.ts), nothing reused: tenants
//    (Namespace, Role, RoleBinding, ResourceQuota, NetworkPolicy each) and components (a
//    CRD embedding a pod template, its controller and one custom resource each). Each size
//    runs in its own process; prints time and memory per object and the marginal cost
//    between sizes, so that growth can be read off.
//
// 3. The CLI (scripts/bench-cli.ts): `node bin/mlplatform.js` --version, help, list components
//    and validate of one file, median wall and CPU time and the modules each loads.
// 4. The test suite, opt-in (`npm run bench -- --tests` or MLP_BENCH_TESTS=1): `npx projen test`
//    (the README's test command: generated-file checks, type-check and lint at the same time,
//    then jest) once, wall and CPU time; the API-server tests run when KUBEBUILDER_ASSETS is set.
//    `npm run bench -- --cli-only` runs only 3 (and 4 when asked).
//
// Results are printed and written to .bench/bench-<time>.txt, .bench/latest.txt and
// .bench/latest.json. Environment: BENCH_RUNS, BENCH_TENANTS and BENCH_COMPONENTS
// (comma-separated sizes), BENCH_PLATFORMS (comma-separated names), BENCH_SKIP_SWEEP=1,
// BENCH_SKIP_APPLY=1, KUBECTL. With KUBEBUILDER_ASSETS, apply speed on a real API
// server against kubectl apply --server-side, phase by phase (scripts/bench-apply.ts).
import { spawnSync, SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { benchCli, benchTests, CliResult, cliTargetLines, TEST_TARGETS, testsRequested, TestsResult } from './bench-cli';

const ROOT = path.resolve(__dirname, '..');
const BENCH = path.join(ROOT, '.bench');
const OUT = path.join(BENCH, 'out');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const sizes = (env: string | undefined, dflt: number[]) => (env ? env.split(',').map(Number) : dflt);
const TENANTS = sizes(process.env.BENCH_TENANTS, [10, 100, 1000, 10000]);
const COMPONENTS = sizes(process.env.BENCH_COMPONENTS, [10, 50, 100, 200]);
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
/** The documented synth command (README), without the cdk8s CLI's online upgrade check. */
const SYNTH = ['npx', 'cdk8s', 'synth', '--check-upgrade=false'];
/** Only the CLI and (when asked) the test suite: `npm run bench -- --cli-only`. */
const CLI_ONLY = process.argv.includes('--cli-only');
/** Our own synth command (README), for one platform. */
const CLI_SYNTH = (platform: string, out: string) => ['npx', 'mlplatform', 'synth', '--platform', platform, '--out', out];
const TARGET = { ratio: 0.2, peakMb: 250, marginalMs: 0.2 };
/**
 * The synth goals (issue 29), ratios of wall time to `kubectl kustomize` of the same phase
 * folders, on the largest default platform: `mlplatform synth --platform` and `npx cdk8s synth`
 * with nothing reused, and a synth after an edit (either command; both are printed).
 */
const SYNTH_GOALS = { cli: 0.2, cdk8s: 0.25, edit: 0.15 };

const lines: string[] = [];
function say(line = ''): void {
  lines.push(line);
  process.stdout.write(`${line}\n`);
}

interface Run {
  readonly wallS: number;
  /** user + system CPU seconds of the command and its children. */
  readonly cpuS: number;
  /** Largest resident set of any of its processes, MB (undefined without GNU time). */
  readonly peakMb?: number;
  readonly stdout: string;
}

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((t) => fs.existsSync(t) && spawnSync(t, ['-f', '%M', 'true']).status === 0);

/** Runs a command to completion and measures it; throws with its output if it fails. */
function measure(cmd: string[], opts: SpawnSyncOptions = {}): Run {
  const timing = path.join(os.tmpdir(), `mlp-bench-${process.pid}.time`);
  const argv = GNU_TIME ? [GNU_TIME, '-o', timing, '-f', '%e %U %S %M', ...cmd] : cmd;
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', maxBuffer: 2 ** 30, ...opts });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${r.status}):\n${r.stderr}${r.stdout ?? ''}`);
  if (!GNU_TIME) return { wallS: wall, cpuS: NaN, stdout: String(r.stdout ?? '') };
  const [e, u, s, m] = fs.readFileSync(timing, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  fs.rmSync(timing, { force: true });
  return { wallS: e, cpuS: u + s, peakMb: m / 1024, stdout: String(r.stdout ?? '') };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const max = (xs: Array<number | undefined>) => (xs.every((x) => x !== undefined) ? Math.max(...(xs as number[])) : undefined);
const f = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const pad = (s: string, n: number) => s.padStart(n);

function summary(runs: Run[]) {
  return { wallS: median(runs.map((r) => r.wallS)), cpuS: median(runs.map((r) => r.cpuS)), peakMb: max(runs.map((r) => r.peakMb)) };
}

/**
 * Objects and bytes of a platform folder, read from the files its kustomization lists; a
 * listed folder (a phase folder, with the GitOps files on) is read through its own.
 */
function outputSize(dir: string): { objects: number; bytes: number } {
  const resources: string[] = YAML.parse(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8')).resources ?? [];
  let objects = 0;
  let bytes = 0;
  for (const r of resources) {
    if (fs.statSync(path.join(dir, r)).isDirectory()) {
      const inner = outputSize(path.join(dir, r));
      objects += inner.objects;
      bytes += inner.bytes;
      continue;
    }
    const text = fs.readFileSync(path.join(dir, r), 'utf8');
    bytes += Buffer.byteLength(text);
    objects += text.split(/^---$/m).length;
  }
  return { objects, bytes };
}

function kubectlVersion(): string | undefined {
  const r = spawnSync(KUBECTL, ['version', '--client'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return undefined;
  return /Client Version: (\S+)/.exec(r.stdout)?.[1] ?? 'unknown version';
}

interface PlatformResult {
  readonly name: string;
  readonly objects: number;
  readonly bytes: number;
  /** A first synth: MLP_SYNTH_CACHE=0. */
  readonly synth: ReturnType<typeof summary>;
  /** A second synth, inputs unchanged: the output is reused. */
  readonly second: ReturnType<typeof summary>;
  /** A synth after an edit: the output is not reused, the verdicts of unchanged objects are. */
  readonly edited: ReturnType<typeof summary>;
  readonly app: ReturnType<typeof summary>;
  /** `npx mlplatform synth --platform NAME`, nothing reused (MLP_SYNTH_CACHE=0). */
  readonly cli: ReturnType<typeof summary>;
  /** `npx mlplatform synth --platform NAME` after an edit (a new MLP_TARGET_REVISION; verdicts and YAML of unchanged objects reused). */
  readonly cliEdited: ReturnType<typeof summary>;
  /** The same two, run from a project that depends on the package (consumerProject). */
  readonly dep: ReturnType<typeof summary>;
  readonly depEdited: ReturnType<typeof summary>;
  readonly kustomize?: ReturnType<typeof summary>;
  readonly ratio?: number;
  readonly secondRatio?: number;
}

/**
 * A project that depends on this package, as `npm install` leaves it: node_modules/<name>
 * links this clone, node_modules/.bin/<bin> the package's bin. From there `npx mlplatform`
 * finds the bin at once, as in a user's project. From the clone itself npm runs a package's
 * own bin by installing the package into its npx cache first (npm's self-execution path: it
 * reads the whole installed tree), which costs about half a second more before our code runs.
 */
function consumerProject(): string {
  const dir = path.join(BENCH, 'consumer');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'bench-consumer', private: true, dependencies: { [pkg.name]: `file:${ROOT}` } }, null, 2)}\n`);
  fs.symlinkSync(ROOT, path.join(dir, 'node_modules', pkg.name));
  for (const [bin, target] of Object.entries(pkg.bin)) fs.symlinkSync(path.join('..', pkg.name, target), path.join(dir, 'node_modules', '.bin', bin));
  return dir;
}

function benchPlatforms(kubectl: string | undefined): PlatformResult[] {
  const consumer = consumerProject();
  // Warm-up: brings build/ up to date and finds the default platforms.
  const all = path.join(OUT, 'all');
  fs.rmSync(all, { recursive: true, force: true });
  measure([...SYNTH, '--output', all]);
  const only = process.env.BENCH_PLATFORMS?.split(',').map((n) => n.trim()).filter((n) => n);
  const names = fs.readdirSync(all).filter((d) => fs.existsSync(path.join(all, d, 'kustomization.yaml')) && (!only || only.includes(d))).sort();
  const results: PlatformResult[] = [];
  for (const name of names) {
    const outdir = path.join(OUT, name);
    const env = { ...process.env, MLP_PLATFORMS: name, MLP_SYNTH_CACHE: '' };
    const cold = { ...env, MLP_SYNTH_CACHE: '0' };
    const synth: Run[] = [];
    const second: Run[] = [];
    const edited: Run[] = [];
    const kustomize: Run[] = [];
    const app: Run[] = [];
    const cli: Run[] = [];
    const cliEdited: Run[] = [];
    const dep: Run[] = [];
    const depEdited: Run[] = [];
    const cliOut = path.join(OUT, 'cli');
    // Saves the output for the second synths (the same command, output folder and environment).
    measure([...SYNTH, '--output', outdir], { env });
    for (let i = 0; i < RUNS; i++) {
      synth.push(measure([...SYNTH, '--output', outdir], { env: cold }));
      if (kubectl) kustomize.push(measure([KUBECTL, 'kustomize', path.join(outdir, name)]));
      const again = measure([...SYNTH, '--output', outdir], { env });
      if (!fs.existsSync(path.join(outdir, name, 'kustomization.yaml'))) throw new Error(`the second synth of ${name} wrote no output`);
      second.push(again);
      edited.push(measure([...SYNTH, '--output', outdir], { env: { ...env, MLP_TARGET_REVISION: `bench-edit-${process.pid}-${i}` } }));
      if (/output reused/.test(edited[i].stdout)) throw new Error(`the synth of ${name} after an edit reused its output`);
      cli.push(measure(CLI_SYNTH(name, cliOut), { env: cold }));
      cliEdited.push(measure(CLI_SYNTH(name, cliOut), { env: { ...env, MLP_TARGET_REVISION: `bench-cli-edit-${process.pid}-${i}` } }));
      dep.push(measure(CLI_SYNTH(name, cliOut), { env: cold, cwd: consumer }));
      const depEdit = { ...env, MLP_TARGET_REVISION: `bench-dep-edit-${process.pid}-${i}` };
      depEdited.push(measure(CLI_SYNTH(name, cliOut), { env: depEdit, cwd: consumer }));
    }
    // The same first synth without the cdk8s CLI around it (what the app itself costs).
    for (let i = 0; i < Math.min(RUNS, 3); i++) {
      fs.rmSync(outdir, { recursive: true, force: true });
      app.push(measure(['node', 'scripts/app.js'], { env: { ...cold, CDK8S_OUTDIR: outdir } }));
    }
    const size = outputSize(path.join(outdir, name));
    const s = summary(synth);
    const s2 = summary(second);
    const k = kubectl ? summary(kustomize) : undefined;
    const ratios = { ratio: k ? s.wallS / k.wallS : undefined, secondRatio: k ? s2.wallS / k.wallS : undefined };
    const ours = { cli: summary(cli), cliEdited: summary(cliEdited), dep: summary(dep), depEdited: summary(depEdited) };
    results.push({ name, ...size, synth: s, second: s2, edited: summary(edited), app: summary(app), ...ours, kustomize: k, ...ratios });
  }
  return results;
}

interface SweepPoint {
  readonly kind: string;
  readonly count: number;
  readonly objects: number;
  readonly bytes: number;
  readonly ms: Record<string, number>;
  readonly totalMs: number;
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMb?: number;
}

function sweep(kind: string, counts: number[]): SweepPoint[] {
  const out = path.join(OUT, 'sweep');
  return counts.map((count) => {
    // Nothing kept from earlier runs (lib/cache.ts): the sweep measures the work itself.
    const run = measure(['node', path.join('build', 'scripts', 'bench-synth.js'), kind, String(count), out], { env: { ...process.env, MLP_SYNTH_CACHE: '0' } });
    const point = JSON.parse(run.stdout.trim().split('\n').pop()!);
    return { ...point, wallS: run.wallS, cpuS: run.cpuS, peakMb: run.peakMb ?? point.maxRssKb / 1024 };
  });
}

function printSweep(title: string, points: SweepPoint[]): void {
  say(title);
  say('    size  objects   out MB  whole s  CPU s  synth ms  ms/object  marginal ms/object (whole, synth)  peak MB  marginal KB/object');
  points.forEach((p, i) => {
    const prev = points[i - 1];
    const dObj = prev ? p.objects - prev.objects : 0;
    const marginal = prev ? `${f(((p.wallS - prev.wallS) * 1000) / dObj, 3)}, ${f((p.totalMs - prev.totalMs) / dObj, 3)}` : '-';
    const memMarginal = prev && p.peakMb !== undefined && prev.peakMb !== undefined ? f(((p.peakMb - prev.peakMb) * 1024) / dObj, 2) : '-';
    say(`${pad(String(p.count), 8)} ${pad(String(p.objects), 8)} ${pad(f(p.bytes / 1e6), 8)} ${pad(f(p.wallS), 8)} ${pad(f(p.cpuS), 6)} ${pad(f(p.totalMs, 0), 9)} ${pad(f(p.totalMs / p.objects, 3), 10)}  ${pad(marginal, 34)} ${pad(f(p.peakMb, 0), 8)} ${pad(memMarginal, 19)}`);
  });
  const last = points[points.length - 1];
  say(`    steps at ${last.count}: ${Object.entries(last.ms).map(([k, v]) => `${k} ${f(v, 0)} ms`).join(', ')}`);
}

/** `npm run bench -- --cli-only`: the CLI and (when asked) the test suite, nothing else. */
function cliOnly(started: Date): void {
  say();
  const cli = benchCli(RUNS, say);
  say();
  let tests: TestsResult | undefined;
  if (testsRequested()) tests = benchTests(say);
  else say('Test suite: not run (it takes minutes): `npm run bench -- --tests` or MLP_BENCH_TESTS=1 adds it.');
  say();
  say('Targets:');
  for (const l of cliTargetLines(cli)) say(l);
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(BENCH, `bench-cli-${stamp}.txt`), `${lines.join('\n')}\n`);
  fs.writeFileSync(path.join(BENCH, 'latest-cli.json'), JSON.stringify({ started, runs: RUNS, cli, tests }, null, 2));
  process.stdout.write(`\nwritten to .bench/bench-cli-${stamp}.txt and .bench/latest-cli.json\n`);
}

/** The `npx mlplatform synth --platform` rows (beside the table of `npx cdk8s synth`). */
function printCliRows(results: PlatformResult[]): void {
  say(`\`${CLI_SYNTH('NAME', 'DIR').join(' ')}\`, alternating with the runs above; median of ${RUNS}:`);
  say(`${'platform'.padEnd(30)} first s  first CPU s  first peak MB   edit s  edit CPU s  edit peak MB   first/kustomize  (CPU)  edit/kustomize  (CPU)`);
  for (const r of results) {
    const k = r.kustomize;
    const ratios = (x: ReturnType<typeof summary>, width: number) => `${pad(f(k ? x.wallS / k.wallS : undefined), width)}  (${f(k ? x.cpuS / k.cpuS : undefined)})`;
    const row = (label: string, first: ReturnType<typeof summary>, edit: ReturnType<typeof summary>) =>
      say(`${label.padEnd(30)} ${pad(f(first.wallS), 7)} ${pad(f(first.cpuS), 12)} ${pad(f(first.peakMb, 0), 14)} ${pad(f(edit.wallS), 8)} ${pad(f(edit.cpuS), 11)} ${pad(f(edit.peakMb, 0), 13)} ${ratios(first, 17)} ${ratios(edit, 15)}`);
    row(r.name, r.cli, r.cliEdited);
    row(`  ${r.name}, dependent project`, r.dep, r.depEdited);
  }
  say('  (from a dependent project: .bench/consumer, where node_modules links this clone as `npm install` would; from the clone, npm first installs the package into its npx cache)');
}

/** The synth goals (SYNTH_GOALS) and peak memory, judged on the largest platform. */
function synthGoals(largest: PlatformResult): void {
  const k = largest.kustomize;
  say(`  largest default platform (by output bytes): ${largest.name} (${largest.objects} objects, ${f(largest.bytes / 1e6)} MB); kubectl kustomize ${f(k?.wallS)} s, ${f(k?.cpuS)} s CPU`);
  const line = (what: string, goal: number, x: ReturnType<typeof summary>) => {
    if (!k) return `  ${what} <= ${f(goal)} of kubectl kustomize: not measured (no kubectl)`;
    const ratio = x.wallS / k.wallS;
    return `  ${what.padEnd(62)} <= ${f(goal)} of kustomize: ${f(ratio)} ${ratio <= goal ? 'met' : 'NOT met'} (${f(x.wallS)} s; CPU ${f(x.cpuS)} s, CPU ratio ${f(x.cpuS / k.cpuS)})`;
  };
  say(line(`mlplatform synth --platform ${largest.name}, nothing reused`, SYNTH_GOALS.cli, largest.cli));
  say(line('npx cdk8s synth, nothing reused (MLP_SYNTH_CACHE=0)', SYNTH_GOALS.cdk8s, largest.synth));
  say(line('synth after an edit, npx cdk8s synth', SYNTH_GOALS.edit, largest.edited));
  say(line('synth after an edit, mlplatform synth', SYNTH_GOALS.edit, largest.cliEdited));
  say(line('second synth, inputs unchanged (npx cdk8s synth)', TARGET.ratio, largest.second));
  if (k) say(`  (mlplatform synth from a project that depends on the package: nothing reused ${f(largest.dep.wallS / k.wallS)}, after an edit ${f(largest.depEdited.wallS / k.wallS)} of kustomize)`);
  if (k) say(`  (the app alone, \`node scripts/app.js\` nothing reused: ${f(largest.app.wallS)} s, ratio ${f(largest.app.wallS / k.wallS)})`);
  const peaks = [largest.synth, largest.edited, largest.cli, largest.cliEdited, largest.dep, largest.depEdited].map((x) => x.peakMb);
  say(peaks.some((p) => p === undefined)
    ? `  peak memory <= ${TARGET.peakMb} MB: not measured (no GNU time)`
    : `  peak memory <= ${TARGET.peakMb} MB: ${f(Math.max(...(peaks as number[])), 0)} MB ${Math.max(...(peaks as number[])) <= TARGET.peakMb ? 'met' : 'NOT met'} (npx cdk8s synth ${f(peaks[0], 0)} first, ${f(peaks[1], 0)} after an edit; mlplatform synth ${f(peaks[2], 0)} first, ${f(peaks[3], 0)} after an edit; from a dependent project ${f(peaks[4], 0)} and ${f(peaks[5], 0)})`);
}

function main(): void {
  fs.mkdirSync(OUT, { recursive: true });
  const started = new Date();
  say(`npm run bench: ${started.toISOString()}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const build = spawnSync('node', ['scripts/app.js', '--build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);
  if (!GNU_TIME) say('GNU time (/usr/bin/time) not found: CPU time and peak memory are not measured.');
  if (CLI_ONLY) return cliOnly(started);
  const kubectl = kubectlVersion();
  if (!kubectl) {
    say(`kubectl not found (looked for '${KUBECTL}'; set KUBECTL to its path): the comparison with kubectl kustomize is skipped.`);
  }
  say();
  say(`Default platforms: \`${SYNTH.join(' ')}\` (whole process, all checks, one platform at a time)${kubectl ? `, alternating with \`kubectl kustomize\` (${kubectl}) on the same output` : ''}; median of ${RUNS}.`);
  const results = benchPlatforms(kubectl);
  say('platform   objects   out MB   synth s  synth CPU s  synth peak MB  edit s  edit CPU s  edit peak MB   2nd s  2nd CPU s  2nd peak MB   app s  app CPU s   kustomize s  kustomize CPU s  kustomize peak MB   synth/kustomize  (CPU)  edit/kustomize  (CPU)   2nd/kustomize  (CPU)');
  for (const r of results) {
    const k = r.kustomize;
    const ratios = (x: ReturnType<typeof summary>, width: number) => `${pad(f(k ? x.wallS / k.wallS : undefined), width)}  (${f(k ? x.cpuS / k.cpuS : undefined)})`;
    say(`${r.name.padEnd(10)} ${pad(String(r.objects), 7)} ${pad(f(r.bytes / 1e6), 8)} ${pad(f(r.synth.wallS), 9)} ${pad(f(r.synth.cpuS), 12)} ${pad(f(r.synth.peakMb, 0), 14)} ${pad(f(r.edited.wallS), 7)} ${pad(f(r.edited.cpuS), 11)} ${pad(f(r.edited.peakMb, 0), 13)} ${pad(f(r.second.wallS), 7)} ${pad(f(r.second.cpuS), 10)} ${pad(f(r.second.peakMb, 0), 12)} ${pad(f(r.app.wallS), 7)} ${pad(f(r.app.cpuS), 10)} ${pad(f(k?.wallS), 13)} ${pad(f(k?.cpuS), 16)} ${pad(f(k?.peakMb, 0), 18)} ${ratios(r.synth, 17)} ${ratios(r.edited, 15)} ${ratios(r.second, 15)}`);
  }
  say('  (synth: a first synth, MLP_SYNTH_CACHE=0, nothing reused; edit: after an edit (a new MLP_TARGET_REVISION), the checks\' verdicts and the YAML');
  say('   of unchanged objects reused (lib/cache.ts); 2nd: the same synth again, inputs unchanged, output reused; app: the first synth as');
  say('   `node scripts/app.js`, without the cdk8s CLI process around it; CPU: user + system time of all processes)');
  printCliRows(results);
  const floor = measure(['npx', 'cdk8s', '--version']);
  say(`  (the entry point alone: \`npx cdk8s --version\` takes ${f(floor.wallS)} s, ${f(floor.cpuS)} s CPU)`);

  // 3. The CLI, in the same run (scripts/bench-cli.ts).
  say();
  const cli: CliResult[] = benchCli(RUNS, say);

  let tenants: SweepPoint[] = [];
  if (!process.env.BENCH_SKIP_SWEEP) {
    say();
    say('Scaling sweep: synthetic platforms, every check, one process per size (node build/scripts/bench-synth.js).');
    say('whole s: the process; synth ms: construct + build + write inside it; marginal: the difference to the previous size per added object.');
    tenants = sweep('tenants', TENANTS);
    printSweep(`Tenants (typed: ProfileController.addTenant, ~${tenants.length ? Math.round(tenants[tenants.length - 1].objects / tenants[tenants.length - 1].count) : 0} objects each: Profile, Namespace, RoleBindings, ResourceQuota, NetworkPolicy, AuthorizationPolicy):`, tenants);
    printSweep('Components (a CRD embedding a pod template, a controller owning it, one custom resource each):', sweep('components', COMPONENTS));
  }

  // 3b. Apply speed on a real API server (scripts/bench-apply.ts), with KUBEBUILDER_ASSETS.
  if (process.env.KUBEBUILDER_ASSETS && !process.env.BENCH_SKIP_APPLY) {
    say();
    const r = spawnSync('npx', ['ts-node', '--transpile-only', 'scripts/bench-apply.ts'], { cwd: ROOT, encoding: 'utf8' });
    for (const l of r.stdout.trim().split('\n')) if (l) say(l);
    if (r.status !== 0) say(`  apply bench failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  }

  // 4. The test suite, opt-in (scripts/bench-cli.ts).
  let tests: TestsResult | undefined;
  say();
  if (testsRequested()) tests = benchTests(say);
  else say('Test suite: not run (it takes minutes): `npm run bench -- --tests` or MLP_BENCH_TESTS=1 adds it.');

  say();
  say('Targets:');
  // Largest by output bytes: kustomize's time follows them (and so the ratio's denominator).
  const largest = [...results].sort((a, b) => b.bytes - a.bytes || b.objects - a.objects)[0];
  if (largest) synthGoals(largest);
  if (tenants.length >= 2) {
    const a = tenants[tenants.length - 2];
    const b = tenants[tenants.length - 1];
    const whole = ((b.wallS - a.wallS) * 1000) / (b.objects - a.objects);
    const cpu = ((b.cpuS - a.cpuS) * 1000) / (b.objects - a.objects);
    const inside = (b.totalMs - a.totalMs) / (b.objects - a.objects);
    say(`  marginal cost <= ${TARGET.marginalMs} ms/object up to ${b.count} tenants: ${whole <= TARGET.marginalMs ? 'met' : 'NOT met'} (${a.count} -> ${b.count} tenants: ${f(whole, 3)} ms/object whole process, ${f(cpu, 3)} ms/object CPU, ${f(inside, 3)} ms/object inside synth; per object at each size: ${tenants.map((p) => f(p.totalMs / p.objects, 3)).join(', ')} ms)`);
  }

  for (const l of cliTargetLines(cli)) say(l);
  if (tests) say(`  test suite <= ${TEST_TARGETS.wallS} s wall and <= ${TEST_TARGETS.cpuS} s CPU: ${tests.wallS <= TEST_TARGETS.wallS && tests.cpuS <= TEST_TARGETS.cpuS ? 'met' : 'NOT met'} (${f(tests.wallS, 1)} s wall, ${f(tests.cpuS, 1)} s CPU)`);

  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const text = `${lines.join('\n')}\n`;
  fs.writeFileSync(path.join(BENCH, `bench-${stamp}.txt`), text);
  fs.writeFileSync(path.join(BENCH, 'latest.txt'), text);
  fs.writeFileSync(path.join(BENCH, 'latest.json'), JSON.stringify({ started, runs: RUNS, kubectl, platforms: results, tenants, cli, tests }, null, 2));
  process.stdout.write(`\nwritten to .bench/bench-${stamp}.txt and .bench/latest.txt\n`);
}

main();
