import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { KNOWN_DEFECTS, KnownDefect, KnownDefectItem, knownDefectItems } from './known-defects';
import { PARITY_TARGETS, ParityTarget } from './targets';
import { Component } from '../../lib/component';
import {
  classifyDifferences, compareFacts, FRAMEWORK_PARITY_DEVIATIONS, describeDifference, extractFacts, ParityClassification, ParityDeviation, ParityDifference, ParityFactsFile,
} from '../../lib/parity';
import { PlatformModel } from '../../lib/platform';
import { DEFAULT_PLATFORMS } from '../../platforms';

export const FACTS_DIR = path.join(__dirname, 'facts');

/** The facts file of an install. */
export function readFacts(install: string): ParityFactsFile {
  return JSON.parse(fs.readFileSync(path.join(FACTS_DIR, `${install}.json`), 'utf8'));
}

/** Every facts file's install name. */
export function factsInstalls(): string[] {
  return fs.readdirSync(FACTS_DIR).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
}

/** The outcome for one install. */
export interface TargetResult {
  readonly target: ParityTarget;
  readonly facts: ParityFactsFile;
  readonly components: Component[];
  readonly differences: ParityDifference[];
  readonly classification: ParityClassification<KnownDefectItem>;
  readonly deviations: ParityDeviation[];
}

/** The parity of every target, each default platform resolved once. */
export interface ParityRun {
  readonly results: TargetResult[];
  /** Declared deviations that no difference of any install matches, with their component. */
  readonly staleDeviations: Array<{ component: string; deviation: ParityDeviation }>;
  /** Known-defect entries that match no difference (their fix has merged: delete them). */
  readonly staleDefects: KnownDefectItem[];
  /** Known-defect entries naming an install no target compares. */
  readonly unknownInstalls: KnownDefect[];
}

export function runParity(
  targets: readonly ParityTarget[] = PARITY_TARGETS, known: readonly KnownDefect[] = KNOWN_DEFECTS, factsOf: (install: string) => ParityFactsFile = readFacts,
): ParityRun {
  const models = new Map<string, PlatformModel>();
  const modelOf = (name: string): PlatformModel => {
    let m = models.get(name);
    if (!m) {
      const p = DEFAULT_PLATFORMS.find((x) => x.name === name);
      if (!p) throw new Error(`parity target names platform '${name}', which is not a default platform`);
      m = p.create(new App({ outdir: '/nonexistent' })).resolve();
      models.set(name, m);
    }
    return m;
  };
  const results: TargetResult[] = [];
  const used = new Set<ParityDeviation>();
  for (const target of targets) {
    const facts = factsOf(target.install);
    const m = modelOf(target.platform);
    const components = target.components.map((id) => {
      const c = m.components.find((x) => x.componentName === id);
      if (!c) throw new Error(`parity target ${target.install}: platform ${target.platform} has no component '${id}'`);
      return c;
    });
    const mine = m.objects.filter((o) => components.includes(o.component) && (!target.namespace || o.json.metadata?.namespace === target.namespace)).map((o) => o.json);
    // Conversion webhooks of the CRDs upstream's install ships, whichever component emits them.
    const upstreamCrds = new Set(facts.facts.filter((f) => f.kind === 'conversion').map((f) => f.object));
    const crds = m.objects.filter((o) => o.json.kind === 'CustomResourceDefinition' && (components.includes(o.component) || upstreamCrds.has(o.json.metadata.name))).map((o) => o.json);
    const ours = extractFacts(mine, crds).filter((f) => !target.factKinds || target.factKinds.includes(f.kind));
    const differences = compareFacts(facts.facts, ours);
    const deviations = [...FRAMEWORK_PARITY_DEVIATIONS, ...components.flatMap((c) => c.parityDeviations)];
    const classification = classifyDifferences(differences, deviations, knownDefectItems(known.filter((k) => k.install === target.install)));
    for (const d of deviations) if (!classification.staleDeviations.includes(d)) used.add(d);
    results.push({ target, facts, components, differences, classification, deviations });
  }
  const staleDeviations: ParityRun['staleDeviations'] = FRAMEWORK_PARITY_DEVIATIONS.filter((d) => !used.has(d)).map((deviation) => ({ component: '(lib)', deviation }));
  const seen = new Set<ParityDeviation>();
  for (const r of results) {
    for (const c of r.components) {
      for (const d of c.parityDeviations) {
        // A target of some kinds (kubeflow-networkpolicies) judges only its kinds' deviations.
        if (r.target.factKinds && !r.target.factKinds.includes(d.fact.kind)) continue;
        if (used.has(d) || seen.has(d)) continue;
        seen.add(d);
        staleDeviations.push({ component: c.componentName, deviation: d });
      }
    }
  }
  const installs = new Set(targets.map((t) => t.install));
  return {
    results,
    staleDeviations,
    // An entry is stale when it matches nothing, or only differences a deviation declares.
    staleDefects: results.flatMap((r) => [
      ...r.classification.staleTolerated,
      ...[...r.classification.tolerated].filter(([, ds]) => ds.every((d) => r.classification.declared.includes(d))).map(([k]) => k),
    ]),
    unknownInstalls: known.filter((k) => !installs.has(k.install)),
  };
}

/** The per-install table: facts compared, differences, declared deviations, known defects, undeclared. */
export function parityTable(run: ParityRun): string {
  const rows = [['install', 'platform/components', 'facts', 'differences', 'declared deviations', 'known defects', 'undeclared']];
  const total = [0, 0, 0, 0, 0];
  for (const r of run.results) {
    const tolerated = new Set([...r.classification.tolerated.values()].flat());
    const knownOnly = r.differences.filter((d) => tolerated.has(d) && !r.classification.declared.includes(d)).length;
    const n = [r.facts.facts.length, r.differences.length, r.classification.declared.length, knownOnly, r.classification.undeclared.length];
    n.forEach((x, i) => (total[i] += x));
    rows.push([r.target.install, `${r.target.platform}/${r.target.components.join('+')}`, ...n.map(String)]);
  }
  rows.push(['total', '', ...total.map(String)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => `| ${row.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`).join('\n');
}

/** Lines for differences nothing declares, one per difference. */
export function undeclaredLines(run: ParityRun): string[] {
  return run.results.flatMap((r) => r.classification.undeclared.map((d) => `${r.target.install}: ${describeDifference(d)}`));
}
