// The CLI and test-suite parts of `npm run bench` (scripts/bench.ts calls them; issue 29):
//
// - CLI: `node bin/mlplatform.js` as a user runs it from a clone (build/ up to date), each
//   command BENCH_RUNS times (default 5): --version, help, list components and validate of
//   one file (the serving platform's controllers file: Deployments, RBAC, Services, cert-manager
//   Certificates). Prints the median wall and CPU (user + system) time of the node process,
//   its peak memory and the number of modules it loads (one run with a --require hook).
// - Tests: `npx projen test` once (opt-in: `npm run bench -- --tests` or MLP_BENCH_TESTS=1;
//   it takes minutes), wall and CPU time of the whole process tree, as GNU time reports them.
//   BENCH_TESTS_COMMAND replaces the command (e.g. to check this parsing on a small one).
//
// `npm run bench -- --cli-only` runs only these two parts.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'mlplatform.js');

/** What the issue asks of each command (seconds of the node process). */
export const CLI_TARGETS = { version: 0.2, help: 0.2, list: 1, validate: 1 } as const;
/** The test suite: wall and CPU seconds on this machine when it is quiet. */
export const TEST_TARGETS = { wallS: 180, cpuS: 420 } as const;

export interface Timing {
  readonly wallS: number;
  /** user + system seconds of the process and its children; NaN without GNU time. */
  readonly cpuS: number;
  readonly peakMb?: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((t) => fs.existsSync(t) && spawnSync(t, ['-f', '%M', 'true']).status === 0);

/**
 * The last line GNU time wrote with `-f '%e %U %S %M'`: wall, user, system seconds and peak
 * KB. Undefined when the file holds no such line.
 */
export function parseGnuTime(text: string): { wallS: number; cpuS: number; peakMb: number } | undefined {
  const last = text.trim().split('\n').pop() ?? '';
  const m = /^(\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+)$/.exec(last.trim());
  if (!m) return undefined;
  return { wallS: Number(m[1]), cpuS: Number(m[2]) + Number(m[3]), peakMb: Number(m[4]) / 1024 };
}

/** Runs a command once and times it (GNU time when present, else wall time only). */
export function timeCommand(cmd: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; outside?: readonly string[] } = {}): Timing {
  const file = path.join(os.tmpdir(), `mlp-bench-cli-${process.pid}.time`);
  // `outside`: a wrapper run around GNU time, so that its own CPU is not counted (the sampler of cpu-by-process.mjs).
  const argv = [...(options.outside ?? []), ...(GNU_TIME ? [GNU_TIME, '-o', file, '-f', '%e %U %S %M', ...cmd] : [...cmd])];
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 2 ** 30 });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.error) throw r.error;
  const parsed = GNU_TIME && fs.existsSync(file) ? parseGnuTime(fs.readFileSync(file, 'utf8')) : undefined;
  fs.rmSync(file, { force: true });
  return { wallS: parsed?.wallS ?? wall, cpuS: parsed?.cpuS ?? NaN, peakMb: parsed?.peakMb, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (n: number | undefined, digits = 2): string => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

/** The modules a run of the CLI loads (Module._load, recorded by a --require hook). */
function modulesLoaded(args: readonly string[], dir: string): number {
  const hook = path.join(dir, 'record-modules.js');
  const out = path.join(dir, 'modules.json');
  fs.writeFileSync(hook, [
    "const Module = require('module');",
    'const seen = new Set();',
    'const load = Module._load;',
    'Module._load = function (request, parent, isMain) {',
    '  const loaded = load.apply(this, arguments);',
    '  try { seen.add(Module._resolveFilename(request, parent, isMain)); } catch { seen.add(request); }',
    '  return loaded;',
    '};',
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, String(seen.size)));`,
  ].join('\n'));
  spawnSync(process.execPath, ['--require', hook, BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return Number(fs.readFileSync(out, 'utf8'));
}

export interface CliResult {
  readonly name: string;
  readonly args: readonly string[];
  readonly targetS: number;
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMb?: number;
  readonly modules: number;
}

/** Times each CLI command `runs` times (median), after one run that brings build/ up to date. */
export function benchCli(runs: number, say: (line?: string) => void): CliResult[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-bench-cli-'));
  try {
    // The file validate reads: one phase file of the serving platform, as synth writes it (not timed).
    const synth = timeCommand([process.execPath, BIN, 'synth', '--platform', 'serving', '--out', path.join(dir, 'out'), '--formats', 'none']);
    if (synth.status !== 0) throw new Error(`bench: mlplatform synth failed:\n${synth.stderr}`);
    const file = path.join(dir, 'out', 'serving', '10-controllers', 'kserve.yaml');
    const commands: Array<{ name: keyof typeof CLI_TARGETS; label: string; args: string[] }> = [
      { name: 'version', label: '--version', args: ['--version'] },
      { name: 'help', label: 'help', args: ['help'] },
      { name: 'list', label: 'list components', args: ['list', 'components'] },
      { name: 'validate', label: `validate (one file, ${Math.round(fs.statSync(file).size / 1024)} KB)`, args: ['validate', file] },
    ];
    const results: CliResult[] = [];
    for (const c of commands) {
      const timings: Timing[] = [];
      for (let i = 0; i < runs; i++) {
        const t = timeCommand([process.execPath, BIN, ...c.args], { cwd: dir });
        if (t.status !== 0) throw new Error(`bench: mlplatform ${c.args.join(' ')} exited ${t.status}:\n${t.stderr}${t.stdout}`);
        timings.push(t);
      }
      const peaks = timings.map((t) => t.peakMb).filter((m): m is number => m !== undefined);
      results.push({
        name: c.label,
        args: c.args,
        targetS: CLI_TARGETS[c.name],
        wallS: median(timings.map((t) => t.wallS)),
        cpuS: median(timings.map((t) => t.cpuS)),
        peakMb: peaks.length ? Math.max(...peaks) : undefined,
        modules: modulesLoaded(c.args, dir),
      });
    }
    say(`CLI: \`node bin/mlplatform.js ...\` from the clone (build/ up to date), median of ${runs}; target: node time of the process.`);
    say('command                               wall s   CPU s  peak MB  modules  target s  met (wall, CPU)');
    for (const r of results) {
      say(`${r.name.padEnd(36)} ${f(r.wallS).padStart(7)} ${f(r.cpuS).padStart(7)} ${f(r.peakMb, 0).padStart(8)} ${String(r.modules).padStart(8)} ${f(r.targetS, 1).padStart(9)}  ${met(r.wallS, r.targetS)}, ${met(r.cpuS, r.targetS)}`);
    }
    say(`  (the floor: \`node -e 0\` takes ${floor(runs)})`);
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function met(value: number, target: number): string {
  return Number.isNaN(value) ? 'n/a' : value <= target ? 'met' : 'NOT met';
}

function floor(runs: number): string {
  const t = Array.from({ length: runs }, () => timeCommand([process.execPath, '-e', '0']));
  return `${f(median(t.map((x) => x.wallS)))} s wall, ${f(median(t.map((x) => x.cpuS)))} s CPU`;
}

export interface TestsResult {
  readonly command: string;
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMb?: number;
  readonly status: number | null;
  /** Where the CPU went, by process (scripts/cpu-by-process.mjs); undefined where it cannot sample (not Linux). */
  readonly byProcess?: readonly ProcessCpu[];
}

/** CPU seconds of the processes of one kind (a row of scripts/cpu-by-process.mjs's output). */
export interface ProcessCpu {
  readonly group: string;
  readonly name: string;
  readonly cpuS: number;
  readonly processes: number;
}

/**
 * The lines of the CPU split: each group with its total and its largest rows, then what the
 * samples missed (GNU time's total less their sum: processes shorter than the interval, the
 * last moments of the others).
 */
export function byProcessLines(rows: readonly ProcessCpu[], totalCpuS: number, intervalMs: number): string[] {
  const groups = new Map<string, ProcessCpu[]>();
  for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const sum = (xs: readonly ProcessCpu[]) => xs.reduce((a, r) => a + r.cpuS, 0);
  const pct = (x: number) => (totalCpuS > 0 ? ` (${((100 * x) / totalCpuS).toFixed(0)}%)` : '');
  const lines = [`  CPU by process (sampled every ${intervalMs} ms):`];
  for (const [group, xs] of [...groups].sort((a, b) => sum(b[1]) - sum(a[1]))) {
    const top = [...xs].sort((a, b) => b.cpuS - a.cpuS);
    const shown = top.slice(0, 6).map((r) => `${r.name} ${f(r.cpuS, 1)}${r.processes > 1 ? ` (${r.processes} processes)` : ''}`);
    const rest = top.slice(6);
    if (rest.length) shown.push(`${rest.length} more ${f(sum(rest), 1)}`);
    lines.push(`    ${group}: ${f(sum(xs), 1)} s${pct(sum(xs))}: ${shown.join('; ')}`);
  }
  const unseen = Math.max(0, totalCpuS - sum(rows));
  if (Number.isFinite(totalCpuS)) lines.push(`    not seen by the samples (shorter than ${intervalMs} ms, or the last moments of a process): ${f(unseen, 1)} s${pct(unseen)}`);
  return lines;
}

/** Whether the test suite is part of this bench run (opt-in: it takes minutes). */
export function testsRequested(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--tests') || ['1', 'true', 'yes'].includes((env.MLP_BENCH_TESTS ?? '').toLowerCase());
}

/** Runs the test suite once (`npx projen test`, or BENCH_TESTS_COMMAND) and reports its wall and CPU time. */
export function benchTests(say: (line?: string) => void, env: NodeJS.ProcessEnv = process.env): TestsResult {
  const command = env.BENCH_TESTS_COMMAND ?? 'npx projen test';
  const apiserver = env.KUBEBUILDER_ASSETS ? `with the API-server tests (KUBEBUILDER_ASSETS=${env.KUBEBUILDER_ASSETS})` : 'without the API-server tests (KUBEBUILDER_ASSETS unset)';
  say(`Test suite: \`${command}\` ${apiserver}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}.`);
  const split = path.join(os.tmpdir(), `mlp-bench-cpu-${process.pid}.json`);
  const sampler = [process.execPath, path.join(ROOT, 'scripts', 'cpu-by-process.mjs'), '--out', split, '--'];
  const t = timeCommand(['sh', '-c', command], { env: { ...env, CI: 'true' }, outside: sampler });
  let byProcess: ProcessCpu[] | undefined;
  let intervalMs = 0;
  try {
    const data = JSON.parse(fs.readFileSync(split, 'utf8'));
    if (data.supported) [byProcess, intervalMs] = [data.rows, data.intervalMs];
  } catch {
    // No split (the sampler could not run): the totals alone.
  }
  fs.rmSync(split, { force: true });
  const result = { command, wallS: t.wallS, cpuS: t.cpuS, peakMb: t.peakMb, status: t.status, byProcess };
  say(`  ${f(t.wallS, 1)} s wall, ${f(t.cpuS, 1)} s CPU (user + system, every process), peak ${f(t.peakMb, 0)} MB (one process)${t.status === 0 ? '' : `; it FAILED (exit ${t.status})`}`);
  if (byProcess) for (const line of byProcessLines(byProcess, t.cpuS, intervalMs)) say(line);
  say(`  targets: wall <= ${TEST_TARGETS.wallS} s ${met(t.wallS, TEST_TARGETS.wallS)}; CPU <= ${TEST_TARGETS.cpuS} s ${met(t.cpuS, TEST_TARGETS.cpuS)}`);
  return result;
}

/** The CLI targets as lines for the bench's Targets section. */
export function cliTargetLines(results: readonly CliResult[]): string[] {
  // Judged on both: on a loaded machine a bare `node -e 0` alone can take more wall time than the target.
  return results.map((r) => `  mlplatform ${r.args[0] === 'validate' ? 'validate FILE' : r.args.join(' ')} <= ${r.targetS} s: wall ${met(r.wallS, r.targetS)} (${f(r.wallS)} s), CPU ${met(r.cpuS, r.targetS)} (${f(r.cpuS)} s); ${r.modules} modules`);
}
