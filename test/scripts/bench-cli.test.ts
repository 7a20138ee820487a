import { benchTests, parseGnuTime, testsRequested } from '../../scripts/bench-cli';

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

test('the test-suite step runs the command once and reports its wall and CPU time', () => {
  const lines: string[] = [];
  const r = benchTests((l = '') => lines.push(l), { ...process.env, BENCH_TESTS_COMMAND: `${process.execPath} -e "let x = 0; for (let i = 0; i < 1e7; i++) x += i"` });
  expect(r.status).toBe(0);
  expect(r.wallS).toBeGreaterThan(0);
  // CPU time is measured where GNU time is installed (NaN, printed n/a, where it is not).
  if (!Number.isNaN(r.cpuS)) expect(r.cpuS).toBeGreaterThanOrEqual(0);
  expect(lines[0]).toMatch(/^Test suite: `.+ -e .+` with(out)? the API-server tests/);
  expect(lines[1]).toMatch(/^ {2}(\d+\.\d|n\/a) s wall, (\d+\.\d|n\/a) s CPU \(user \+ system, every process\)/);
  expect(lines[2]).toMatch(/^ {2}targets: wall <= 180 s (met|NOT met); CPU <= 420 s (met|NOT met|n\/a)$/);
});
