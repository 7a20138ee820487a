import { App } from 'cdk8s';
import { factsInstalls, parityTable, readFacts, runParity, ParityRun, undeclaredLines } from './harness';
import { KNOWN_DEFECTS, KnownDefect } from './known-defects';
import { COMPONENTS_WITHOUT_FACTS, PARITY_TARGETS, UNCOMPARED_INSTALLS } from './targets';
import { describeDifference, describePattern, Fact, FactKind, PARITY_FACTS_VERSION } from '../../lib/parity';
import { DEFAULT_PLATFORMS } from '../../platforms';

/**
 * Every default component against the facts of upstream's own default install at the
 * release it models (test/parity/facts/, extracted by scripts/extract-upstream-facts.ts).
 * A difference must be a deviation its construct (or lib/, for a mechanism) declares, or a
 * known defect (known-defects.ts); declarations and known defects that match nothing fail.
 */
describe('parity with upstream\'s default installs', () => {
  let run: ParityRun;
  beforeAll(() => {
    run = runParity();
  });
  afterAll(() => {
    // The per-install numbers (also: ts-node --transpile-only scripts/parity-report.ts).
    if (run && process.env.MLP_PARITY_TABLE) process.stdout.write(`${parityTable(run)}\n`);
  });

  test('facts files come from the current extractor and name their source', () => {
    for (const install of factsInstalls()) {
      const f = readFacts(install);
      expect({ install, version: f.extractor.version, script: f.extractor.script }).toEqual({ install, version: PARITY_FACTS_VERSION, script: 'scripts/extract-upstream-facts.ts' });
      expect(f.source.install).toEqual(install);
      expect(f.source.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(f.source.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(f.source.tag).toBeTruthy();
    }
  });

  test('every facts file is compared with a default platform, or says why not', () => {
    const compared = new Set(PARITY_TARGETS.map((t) => t.install));
    expect(factsInstalls().filter((i) => !compared.has(i) && !UNCOMPARED_INSTALLS[i])).toEqual([]);
    expect(Object.keys(UNCOMPARED_INSTALLS).filter((i) => compared.has(i) || !factsInstalls().includes(i))).toEqual([]);
  });

  test('every component of every default platform has upstream facts, or says why not', () => {
    const covered = new Set(PARITY_TARGETS.flatMap((t) => t.components));
    const all = new Set(DEFAULT_PLATFORMS.flatMap((p) => p.create(new App({ outdir: '/nonexistent' })).components.map((c) => c.componentName)));
    expect([...all].filter((c) => !covered.has(c) && !COMPONENTS_WITHOUT_FACTS[c]).sort()).toEqual([]);
    expect(Object.keys(COMPONENTS_WITHOUT_FACTS).filter((c) => covered.has(c) || !all.has(c))).toEqual([]);
  });

  test.each(PARITY_TARGETS.map((t) => [t.install]))('%s: every difference from upstream is a declared deviation or a known defect', (install) => {
    const r = run.results.find((x) => x.target.install === install)!;
    expect(r.classification.undeclared.map(describeDifference)).toEqual([]);
  });

  test('no declared deviation is stale (each still matches a difference)', () => {
    expect(run.staleDeviations.map((s) => `${s.component}: ${describePattern(s.deviation.fact)}`)).toEqual([]);
  });

  test('no known defect is stale (delete the entry, or the item, once its fix merges)', () => {
    expect(run.staleDefects.map((k) => `${k.entry.install} ${k.entry.defect}: ${describePattern(k.fact)}`)).toEqual([]);
  });

  test('known defects name a compared install; UNTRIAGED ones say what is wrong', () => {
    expect(run.unknownInstalls.map((k) => `${k.install}: ${describePattern(k.fact)}`)).toEqual([]);
    expect(KNOWN_DEFECTS.filter((k) => k.defect === 'UNTRIAGED' && !k.note?.trim()).map((k) => describePattern(k.fact))).toEqual([]);
  });

  describe('fails', () => {
    const kueue = PARITY_TARGETS.filter((t) => t.install === 'kueue');
    const visibility = KNOWN_DEFECTS.filter((k) => k.install === 'kueue');

    test('when a difference is neither declared nor known', () => {
      // Kueue's own output differs from upstream only where it declares so (the visibility
      // server's emptyDir is fixed); Kueue's facts against JobSet's objects are not.
      expect(undeclaredLines(runParity(kueue, []))).toEqual([]);
      const wrong = kueue.map((t) => ({ ...t, components: ['jobset'] }));
      expect(undeclaredLines(runParity(wrong, []))).toContain('kueue: workload Deployment/kueue-controller-manager missing');
    });

    test('when upstream\'s value changes: the value differs, and a value deviation stating the old value is stale', () => {
      const changed = (f: Fact): Fact => {
        if (f.kind === FactKind.CONFIGMAP_KEY && f.object === 'kueue-manager-config') return { ...f, value: `sha256:${'0'.repeat(64)}` };
        if (f.kind === FactKind.PROBE && f.item === 'liveness') return { ...f, value: 'httpGet HTTP :8081/livez' };
        return f;
      };
      const r = runParity(kueue, visibility, (install) => {
        const f = readFacts(install);
        return { ...f, facts: f.facts.map(changed) };
      });
      expect(undeclaredLines(r)).toEqual([
        `kueue: configmap-key kueue-manager-config [controller_manager_config.yaml] differs: upstream sha256:${'0'.repeat(64)}, ours ${r.results[0].differences.find((d) => d.kind === FactKind.CONFIGMAP_KEY)!.actual}`,
        'kueue: probe Deployment/kueue-controller-manager container manager [liveness] differs: upstream httpGet HTTP :8081/livez, ours httpGet HTTP :8081/healthz',
      ]);
      // (lib's deviations are stale here because one install alone is compared.)
      expect(r.staleDeviations.filter((s) => s.component !== '(lib)').map((s) => `${s.component}: ${describePattern(s.deviation.fact)}`)).toEqual([
        'kueue: configmap-key kueue-manager-config [controller_manager_config.yaml] differs (upstream sha256:e4474ef018ee11c11ed574abe0d9d8ab2f9c95d7ea2aaccd908d9dbfbe39038b)',
      ]);
    });

    test('when a known defect matches nothing, or only what a deviation declares', () => {
      const gone: KnownDefect = { install: 'kueue', defect: 'UNTRIAGED', fact: { kind: FactKind.ENV, object: 'Deployment/kueue-controller-manager container manager', status: 'missing' }, items: ['GONE'], note: 'n' };
      const declared: KnownDefect = { install: 'kueue', defect: 'UNTRIAGED', fact: { kind: FactKind.WEBHOOK, object: 'mutating mpod.kb.io', status: 'missing' }, note: 'n' };
      const r = runParity(kueue, [...visibility, gone, declared]);
      expect(r.staleDefects.map((k) => k.entry)).toEqual([gone, declared]);
    });
  });
});

