// Prints the parity of every default component with upstream's facts (test/parity/facts/):
// per install, facts compared, differences, declared deviations, known defects and
// undeclared differences; then, with --list, every undeclared difference and stale entry.
//   ts-node --transpile-only scripts/parity-report.ts [--list]
import { describePattern } from '../lib/parity';
import { parityTable, runParity, undeclaredLines } from '../test/parity/harness';

const run = runParity();
console.log(parityTable(run));
if (process.argv.includes('--list')) {
  for (const l of undeclaredLines(run)) console.log(`undeclared ${l}`);
  for (const s of run.staleDeviations) console.log(`stale deviation ${s.component}: ${describePattern(s.deviation.fact)}`);
  for (const k of run.staleDefects) console.log(`stale known defect ${k.install} ${k.defect}: ${describePattern(k.fact)}`);
}
