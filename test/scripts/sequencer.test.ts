// eslint-disable-next-line @typescript-eslint/no-require-imports
const EstimatingSequencer = require('../support/sequencer');

/** A jest Test as the sequencer sees it; `config.cache: false` means no durations from earlier runs. */
const fake = (path: string, size: number) => ({
  path,
  context: { config: { cache: false }, hasteFS: { getSize: () => size } },
});

describe('the jest test sequencer (test/support/sequencer.js)', () => {
  const sequencer = new EstimatingSequencer({ contexts: [], globalConfig: {} });

  test('without earlier durations: the API-server and package files first (by estimate), then the rest by size', () => {
    const tests = [
      fake('/r/test/lib/big.test.ts', 90_000),
      fake('/r/test/apiserver/motion-training.test.ts', 200),
      fake('/r/test/apiserver/motion-odh.test.ts', 100),
      fake('/r/test/apiserver/platform-serving.test.ts', 300),
      fake('/r/test/lib/small.test.ts', 1_000),
      fake('/r/test/package.test.ts', 5_000),
      fake('/r/test/apiserver/cluster.test.ts', 4_000),
    ];
    expect(sequencer.sort(tests).map((t: { path: string }) => t.path)).toEqual([
      '/r/test/apiserver/motion-odh.test.ts',
      '/r/test/apiserver/motion-training.test.ts',
      '/r/test/apiserver/cluster.test.ts',
      '/r/test/package.test.ts',
      '/r/test/apiserver/platform-serving.test.ts',
      '/r/test/lib/big.test.ts',
      '/r/test/lib/small.test.ts',
    ]);
  });

  test('with earlier durations: those, longest first; a file that failed last time first of all', () => {
    const s = new EstimatingSequencer({ contexts: [], globalConfig: {} });
    const durations: Record<string, [number, number]> = {
      '/r/test/apiserver/cluster.test.ts': [1, 30_000],
      '/r/test/lib/slow.test.ts': [1, 50_000],
      '/r/test/lib/failed.test.ts': [0, 10],
    };
    s._getCache = () => durations;
    const tests = Object.keys(durations).map((p) => fake(p, 100));
    expect(s.sort(tests).map((t: { path: string }) => t.path)).toEqual(['/r/test/lib/failed.test.ts', '/r/test/lib/slow.test.ts', '/r/test/apiserver/cluster.test.ts']);
  });
});
