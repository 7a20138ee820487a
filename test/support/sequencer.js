// The order in which jest starts the test files (jestConfig.testSequencer in .projenrc.ts).
//
// Jest runs the longest files first so that no worker is left alone with a long one at the
// end; it knows how long each took from its previous runs (its cache). A fresh clone has no
// such cache, and jest then orders by file size, which says little here: the test files that
// run a real kube-apiserver are among the smallest and the slowest (one started last keeps
// the run going for its 15 to 40 s while the other core idles). Without a measured duration,
// this orders by an estimate: the slow kinds of file below by what they took on a 2-core
// machine, every other file by its size (about a second for a typical one). With measured
// durations (a previous run), jest's own figures are used. Failed files still run first.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;

/** Path fragment -> estimated milliseconds, first match wins (measured: `npx jest --ci`, 2 cores). */
const ESTIMATES = [
  // motion-odh (two platforms and the DSC checks on one control plane) is the longest file:
  // started first, the other worker runs everything else beside it.
  ['/test/apiserver/motion-odh.test.ts', 240_000],
  ['/test/apiserver/motion-kubeflow.test.ts', 150_000],
  ['/test/apiserver/motion-', 60_000],
  ['/test/apiserver/cluster.test.ts', 40_000],
  ['/test/package.test.ts', 23_000],
  ['/test/apiserver/platform-', 20_000],
  // The slowest files that start no API server (CPU of the file alone, 2026-12-02; a fresh
  // clone has no memo of test/support/tool-memo.ts, so yaml-writer's is its cold figure).
  ['/test/lib/cluster/cluster.test.ts', 15_000],
  ['/test/lib/cluster/plan.test.ts', 14_000],
  ['/test/lib/yaml-writer.test.ts', 13_000],
  ['/test/scripts/app-cache.test.ts', 12_000],
  // Six runs of scripts/check-types-and-lint.mjs on small projects: about 15 s of CPU, one core.
  ['/test/scripts/check-types-and-lint.test.ts', 12_000],
  ['/test/cli/main.test.ts', 11_000],
  ['/test/validation/platforms.test.ts', 10_000],
  ['/test/apiserver/', 10_000],
];

class EstimatingSequencer extends Sequencer {
  sort(tests) {
    const key = (test) => {
      const measured = this.time(test);
      if (measured != null) return measured;
      const known = ESTIMATES.find(([fragment]) => test.path.includes(fragment));
      if (known) return known[1];
      return 1000 + (test.context.hasteFS.getSize(test.path) ?? 0) / 10;
    };
    const keys = new Map(tests.map((t) => [t, key(t)]));
    return [...tests].sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      return keys.get(b) - keys.get(a) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    });
  }
}

module.exports = EstimatingSequencer;
