import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { benchTests, byProcessLines, parseGnuTime, testsRequested } from '../../scripts/bench-cli';

// The CLI and test-suite parts of `npm run bench` (issue 29): the parsing and the opt-in, on a
// small command instead of the test suite. No time is asserted, only that it is read.

test('GNU time\'s last line is read as wall, CPU (user + system) and peak memory', () => {
  expect(parseGnuTime('Command exited with non-zero status 1\n12.50 30.25 2.75 204800\n')).toEqual({ wallS: 12.5, cpuS: 33, peakMb: 200 });
  expect(parseGnuTime('0.01 0.00 0.00 1024')).toEqual({ wallS: 0.01, cpuS: 0, peakMb: 1 });
  expect(parseGnuTime('Command terminated by signal 9')).toBeUndefined();
  expect(parseGnuTime('')).toBeUndefined();
});

test('the test suite is opt-in: --tests or MLP_BENCH_TESTS=1', () => {
  expect(testsRequested([], {})).toBe(false);
  expect(testsRequested(['--cli-only'], { MLP_BENCH_TESTS: '0' })).toBe(false);
  expect(testsRequested(['--tests'], {})).toBe(true);
  expect(testsRequested([], { MLP_BENCH_TESTS: '1' })).toBe(true);
});

test('the test-suite step runs the command once and reports its wall and CPU time, and which processes spent the CPU', () => {
  const lines: string[] = [];
  // A child that spins for 1.2 s: more than twice the sampler's interval, so it is seen after at
  // least 0.7 s of it (some CPU time however loaded the machine).
  const spin = `${process.execPath} -e "const s = Date.now(); while (Date.now() < s + 1200);"`;
  const r = benchTests((l = '') => lines.push(l), { ...process.env, BENCH_TESTS_COMMAND: `${spin}; exit 3` });
  expect(r.status).toBe(3);
  expect(r.wallS).toBeGreaterThan(0);
  // CPU time is measured where GNU time is installed (NaN, printed n/a, where it is not).
  if (!Number.isNaN(r.cpuS)) expect(r.cpuS).toBeGreaterThanOrEqual(0);
  expect(lines[0]).toMatch(/^Test suite: `.+ -e .+` with(out)? the API-server tests/);
  expect(lines[1]).toMatch(/^ {2}(\d+\.\d|n\/a) s wall, (\d+\.\d|n\/a) s CPU \(user \+ system, every process\).*; it FAILED \(exit 3\)$/);
  expect(lines[lines.length - 1]).toMatch(/^ {2}targets: wall <= 180 s (met|NOT met); CPU <= 420 s (met|NOT met|n\/a)$/);
  if (process.platform === 'linux') {
    // The spinning node process, under the test task's own processes (no jest worker above it).
    // (The shell and GNU time above it, if a tick of CPU was seen of them, come after it.)
    expect(r.byProcess![0]).toEqual(expect.objectContaining({ group: 'the test task (checks, npm, projen)', name: 'node -e', processes: 1 }));
    expect(r.byProcess![0].cpuS).toBeGreaterThan(0.2);
    expect(lines[2]).toBe('  CPU by process (sampled every 500 ms):');
    expect(lines[3]).toMatch(/^ {4}the test task \(checks, npm, projen\): \d+\.\d s( \(\d+%\))?: node -e \d+\.\d(;|$)/);
  }
});

test('the CPU split: groups by total, their largest rows, and what the samples missed', () => {
  const rows = [
    { group: 'jest', name: 'workers', cpuS: 100, processes: 3 },
    { group: 'control planes (API-server tests)', name: 'kube-apiserver', cpuS: 150, processes: 9 },
    { group: 'control planes (API-server tests)', name: 'etcd', cpuS: 20, processes: 9 },
    ...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n, i) => ({ group: 'run by the tests', name: `node ${n}`, cpuS: 7 - i, processes: 1 })),
  ];
  expect(byProcessLines(rows, 400, 500)).toEqual([
    '  CPU by process (sampled every 500 ms):',
    '    control planes (API-server tests): 170.0 s (43%): kube-apiserver 150.0 (9 processes); etcd 20.0 (9 processes)',
    '    jest: 100.0 s (25%): workers 100.0 (3 processes)',
    '    run by the tests: 28.0 s (7%): node a 7.0; node b 6.0; node c 5.0; node d 4.0; node e 3.0; node f 2.0; 1 more 1.0',
    '    not seen by the samples (shorter than 500 ms, or the last moments of a process): 102.0 s (26%)',
  ]);
  // Without GNU time (total NaN): no percentages, nothing said of what was missed.
  expect(byProcessLines(rows.slice(0, 1), NaN, 500)).toEqual(['  CPU by process (sampled every 500 ms):', '    jest: 100.0 s: workers 100.0 (3 processes)']);
});

test('the sampler, given no command or no output file: exit 2 with its usage', () => {
  const script = path.join(__dirname, '..', '..', 'scripts', 'cpu-by-process.mjs');
  for (const args of [['--out', 'x.json'], ['--', 'true'], ['--out', 'x.json', '--interval-ms', '0', '--', 'true']]) {
    const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 2, stderr: expect.stringMatching(/^usage: node scripts\/cpu-by-process\.mjs --out FILE/) });
  }
});

test('the sampler names a jest worker as such, and what it runs as run by the tests', () => {
  if (process.platform !== 'linux') return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-sampler-'));
  try {
    // A stand-in for jest's worker (found by its script's path) that runs two children, each
    // spinning for about 0.5 s of CPU (`node -e CODE`, and a script named tsc given its own -p),
    // and spins itself.
    const worker = path.join(dir, 'node_modules', 'jest-worker', 'build', 'processChild.js');
    fs.mkdirSync(path.dirname(worker), { recursive: true });
    const spin = 'const s = Date.now(); while (Date.now() < s + 500);';
    fs.writeFileSync(path.join(dir, 'tsc'), spin);
    fs.writeFileSync(worker, [
      `require('child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(spin)}]);`,
      `require('child_process').execFileSync(process.execPath, [${JSON.stringify(path.join(dir, 'tsc'))}, '-p', 'tsconfig.json']);`,
      spin,
    ].join('\n'));
    const out = path.join(dir, 'split.json');
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'cpu-by-process.mjs'), '--out', out, '--interval-ms', '200', '--', process.execPath, worker], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const split = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(split).toEqual(expect.objectContaining({ supported: true, intervalMs: 200 }));
    expect(split.rows.map((x: { group: string; name: string }) => `${x.group}: ${x.name}`).sort()).toEqual(['jest: workers (the tests, with the CLI and synths they run in-process)', 'run by the tests: node -e', 'run by the tests: node tsc']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
