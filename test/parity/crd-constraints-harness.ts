import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { CRD_CONSTRAINT_DECLARATIONS } from './crd-constraint-declarations';
import { PARITY_TARGETS } from './targets';
import {
  compareConstraints, ConstraintDeclaration, ConstraintDifference, constraintFacts, CrdConstraintsFile, declares, loadFacts, StoredVersion,
} from '../../lib/crd-constraints';
import { JSONSchemaProps } from '../../lib/schema/types';
import { DEFAULT_PLATFORMS } from '../../platforms';

export const CONSTRAINTS_DIR = path.join(__dirname, 'crd-constraints');

/**
 * CRDs compared with another install than the one the parity targets pair with their
 * component, and why.
 */
export const CRD_SOURCES: Readonly<Record<string, { install: string; reason: string }>> = Object.fromEntries(
  ['clusterworkflowtemplates', 'cronworkflows', 'workflowartifactgctasks', 'workfloweventbindings', 'workflows', 'workflowtaskresults', 'workflowtasksets', 'workflowtemplates'].map((p) => [
    `${p}.argoproj.io`,
    { install: 'kubeflow-pipelines-multi-user', reason: 'Argo Workflows as Kubeflow Pipelines installs it: the minimal CRDs of its third-party manifests, not Argo\'s full ones' },
  ]),
);

/** Every constraints file, by install. */
export function readConstraintFiles(): Map<string, CrdConstraintsFile> {
  const out = new Map<string, CrdConstraintsFile>();
  for (const f of fs.readdirSync(CONSTRAINTS_DIR).filter((x) => x.endsWith('.json')).sort()) {
    const file = JSON.parse(fs.readFileSync(path.join(CONSTRAINTS_DIR, f), 'utf8')) as CrdConstraintsFile;
    out.set(file.install, file);
  }
  return out;
}

function storedOf(files: Map<string, CrdConstraintsFile>, install: string, crd: string): Record<string, StoredVersion> | undefined {
  const entry = files.get(install)?.crds[crd];
  if (!entry) return undefined;
  if ('sameAs' in entry) return storedOf(files, entry.sameAs as string, crd);
  return entry as Record<string, StoredVersion>;
}

interface EmittedCrd {
  readonly platform: string;
  readonly component: string;
  readonly json: { metadata: { name: string }; spec: { versions: Array<{ name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }> } };
}

/** One CRD compared: which platform and component emitted it, which install it is compared with. */
export interface ComparedCrd {
  readonly crd: string;
  readonly platforms: string[];
  readonly component: string;
  readonly install: string;
  readonly identical: number;
  readonly total: number;
  readonly differences: ConstraintDifference[];
  readonly rules: { identical: number; total: number; differences: ConstraintDifference[] };
}

export interface ConstraintRun {
  readonly compared: ComparedCrd[];
  /** Emitted CRDs no upstream install ships. */
  readonly withoutUpstream: string[];
  readonly undeclared: ConstraintDifference[];
  readonly stale: ConstraintDeclaration[];
  readonly identical: number;
  readonly total: number;
  /** Per keyword: upstream facts, and those ours holds alike. */
  readonly keywords: Map<string, { identical: number; total: number }>;
}

/**
 * Each distinct CRD the default platforms emit (the same CRD emitted alike by several
 * platforms is compared once) against upstream's, in the install the parity targets pair
 * with its component, else the first install (by name) that ships it.
 */
export function runConstraints(declarations: readonly ConstraintDeclaration[] = CRD_CONSTRAINT_DECLARATIONS): ConstraintRun {
  const files = readConstraintFiles();
  const emitted = new Map<string, EmittedCrd[]>();
  for (const p of DEFAULT_PLATFORMS) {
    const m = p.create(new App({ outdir: '/nonexistent' })).resolve();
    for (const o of m.objects) {
      if (o.json.kind !== 'CustomResourceDefinition') continue;
      const versions = (o.json.spec as EmittedCrd['json']['spec']).versions.map((v) => [v.name, v.schema]);
      const key = `${o.json.metadata.name}\u0000${JSON.stringify(versions)}`;
      const list = emitted.get(key) ?? [];
      list.push({ platform: p.name, component: o.component.componentName, json: o.json as EmittedCrd['json'] });
      emitted.set(key, list);
    }
  }
  const compared: ComparedCrd[] = [];
  const keywords = new Map<string, { identical: number; total: number }>();
  const withoutUpstream = new Set<string>();
  for (const list of emitted.values()) {
    const first = list[0];
    const crd = first.json.metadata.name;
    const paired = PARITY_TARGETS.filter((t) => list.some((e) => e.platform === t.platform) && t.components.includes(first.component)).map((t) => t.install);
    const install = [...(CRD_SOURCES[crd] ? [CRD_SOURCES[crd].install] : []), ...paired, ...files.keys()].find((i) => storedOf(files, i, crd));
    if (!install) {
      withoutUpstream.add(crd);
      continue;
    }
    const upstream = storedOf(files, install, crd)!;
    const differences: ConstraintDifference[] = [];
    const rules = { identical: 0, total: 0, differences: [] as ConstraintDifference[] };
    let identical = 0;
    let total = 0;
    for (const [version, stored] of Object.entries(upstream)) {
      for (const [, k] of loadFacts(stored)) {
        const e = keywords.get(k) ?? { identical: 0, total: 0 };
        e.total++;
        e.identical++;
        keywords.set(k, e);
      }
      const ours = first.json.spec.versions.find((v) => v.name === version);
      const c = compareConstraints(crd, version, loadFacts(stored), ours ? constraintFacts(ours.schema?.openAPIV3Schema ?? {}) : []);
      identical += c.identical;
      total += c.total;
      differences.push(...c.differences);
      rules.identical += c.rules.identical;
      rules.total += c.rules.total;
      rules.differences.push(...c.rules.differences);
      for (const d of [...c.differences, ...c.rules.differences]) if (d.upstream !== undefined) keywords.get(d.keyword)!.identical--;
    }
    compared.push({ crd, platforms: list.map((e) => e.platform), component: first.component, install, identical, total, differences, rules });
  }
  const used = new Set<ConstraintDeclaration>();
  const undeclared: ConstraintDifference[] = [];
  for (const c of compared) {
    for (const d of c.differences) {
      const decl = declarations.find((x) => declares(x, d));
      if (decl) used.add(decl);
      else undeclared.push(d);
    }
  }
  compared.sort((a, b) => (a.crd < b.crd ? -1 : a.crd > b.crd ? 1 : a.platforms.join() < b.platforms.join() ? -1 : 1));
  return {
    compared,
    withoutUpstream: [...withoutUpstream].sort(),
    undeclared,
    stale: declarations.filter((d) => !used.has(d)),
    identical: compared.reduce((n, c) => n + c.identical, 0),
    total: compared.reduce((n, c) => n + c.total, 0),
    keywords,
  };
}

function pct(a: number, b: number): string {
  return b ? `${((100 * a) / b).toFixed(1)}%` : '-';
}

/** The overall and per-keyword identical shares, one line each. */
export function constraintSummary(run: ConstraintRun): string {
  const noType = [...run.keywords].filter(([k]) => k !== 'type' && k !== 'rule').reduce((a, [, e]) => ({ identical: a.identical + e.identical, total: a.total + e.total }), { identical: 0, total: 0 });
  const rules = run.compared.reduce((a, c) => ({ identical: a.identical + c.rules.identical, total: a.total + c.rules.total }), { identical: 0, total: 0 });
  const lines = [
    `CRD constraints identical to upstream's: ${run.identical}/${run.total} (${pct(run.identical, run.total)}) over ${run.compared.length} CRDs; without type facts ${noType.identical}/${noType.total} (${pct(noType.identical, noType.total)}); CEL rule texts ${rules.identical}/${rules.total} (${pct(rules.identical, rules.total)})`,
  ];
  for (const [k, e] of [...run.keywords].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`  ${k}: ${e.identical}/${e.total} (${pct(e.identical, e.total)})`);
  return lines.join('\n');
}
