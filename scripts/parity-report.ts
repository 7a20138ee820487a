// Prints the parity of every default component with upstream's facts (test/parity/facts/):
// per install, facts compared, differences, declared deviations, known defects and
// undeclared differences; then, with --list, every undeclared difference and stale entry.
//   ts-node --transpile-only scripts/parity-report.ts [--list]
import { describePattern, FactKind, ParityDifference } from '../lib/parity';
import { parityTable, runParity, undeclaredLines } from '../test/parity/harness';

const run = runParity();
console.log(parityTable(run));
if (process.argv.includes('--list')) {
  for (const l of undeclaredLines(run)) console.log(`undeclared ${l}`);
  for (const s of run.staleDeviations) console.log(`stale deviation ${s.component}: ${describePattern(s.deviation.fact)}`);
  for (const k of run.staleDefects) console.log(`stale known defect ${k.entry.install} ${k.entry.defect}: ${describePattern(k.fact)}`);
}
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(run.results.flatMap((r) => r.classification.undeclared.map((d) => ({ install: r.target.install, ...d })))));
}
// Entries for test/parity/known-defects.ts covering every undeclared difference, grouped by
// install, kind, object and status (to be attributed to a defect ID, or declared as deviations).
if (process.argv.includes('--emit-known')) {
  for (const r of run.results) {
    const groups = new Map<string, ParityDifference[]>();
    for (const d of r.classification.undeclared) {
      const k = JSON.stringify([d.kind, d.object, d.status]);
      groups.set(k, [...(groups.get(k) ?? []), d]);
    }
    for (const [k, ds] of groups) {
      const [kind, object, status] = JSON.parse(k);
      const items = ds.map((d) => d.item).filter((i): i is string => i !== undefined);
      const fact = `{ kind: F.${Object.entries(FactKind).find(([, v]) => v === kind)![0]}, object: ${JSON.stringify(object)}, status: '${status}' }`;
      const what = { missing: 'upstream has, we lack', extra: 'we add, upstream has not', differs: 'differs from upstream' }[status as string];
      const values = status === 'differs' ? ` (${ds.map((d) => `${d.item ?? ''} upstream ${d.expected}, ours ${d.actual}`).join('; ')})` : '';
      const note = `${kind} ${what}${values}`;
      console.log(`  { install: '${r.target.install}', defect: 'UNTRIAGED', fact: ${fact}, ${items.length ? `items: ${JSON.stringify(items)}, ` : ''}note: ${JSON.stringify(note)} },`);
    }
  }
}
