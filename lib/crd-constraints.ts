/**
 * Validation constraints of a CRD schema as facts (path, keyword, value), to compare our CRDs
 * with upstream's keyword by keyword. scripts/extract-crd-constraints.ts writes upstream's
 * facts (test/parity/crd-constraints/); test/parity/crd-constraints.test.ts compares them with
 * the CRDs the default platforms emit.
 *
 * Paths follow the CRD outlines: `spec.template.spec.containers[].ports[]` (`[]` an array's
 * items, `{}` a map's values), the root is `.`. Descriptions are not facts.
 */
import { JSONSchemaProps } from './schema/types';

/** The keywords compared, each with one value per path. */
export const CONSTRAINT_KEYWORDS = [
  // Every path has a type fact (absent only where the schema leaves the type open): it also
  // tells which paths upstream has.
  'type', 'required', 'default', 'enum', 'pattern', 'format', 'nullable',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'uniqueItems',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
  'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  // The number of CEL rules on the path; each rule's text is a `rule` fact of its own.
  'x-kubernetes-validations',
] as const;

/** A compared keyword, or `rule` (one CEL rule's text; a path may hold several). */
export type ConstraintKeyword = typeof CONSTRAINT_KEYWORDS[number] | 'rule';

/** One fact: [path, keyword, value]. */
export type ConstraintFact = [string, ConstraintKeyword, unknown];

/** The facts of one path as stored: keyword -> value (`rule`: the list of rule texts). */
export type PathConstraints = Partial<Record<ConstraintKeyword, unknown>>;

/** The facts of a CRD version as stored: path -> its facts. */
export type StoredVersion = Record<string, PathConstraints>;

/** A facts file: one per upstream install. */
export interface CrdConstraintsFile {
  readonly generatedBy: string;
  readonly install: string;
  /**
   * CRD name (plural.group) -> version -> stored facts, or the name of an install (earlier
   * in name order) whose file holds the same CRD with the same facts.
   */
  readonly crds: Record<string, Record<string, StoredVersion> | { sameAs: string }>;
}

/** Facts grouped by path, for storing. */
export function storeFacts(facts: ConstraintFact[]): StoredVersion {
  const out: StoredVersion = {};
  for (const [path, k, v] of facts) {
    const p = (out[path] ??= {});
    if (k === 'rule') ((p.rule ??= []) as unknown[]).push(v);
    else p[k] = v;
  }
  return out;
}

/** The facts of a stored version. */
export function loadFacts(stored: StoredVersion): ConstraintFact[] {
  const out: ConstraintFact[] = [];
  for (const [path, p] of Object.entries(stored)) {
    for (const [k, v] of Object.entries(p)) {
      if (k === 'rule') for (const r of v as unknown[]) out.push([path, 'rule', r]);
      else out.push([path, k as ConstraintKeyword, v]);
    }
  }
  return out.sort(compareFacts);
}

const ROOT = '.';

function child(path: string, name: string): string {
  return path === ROOT ? name : `${path}.${name}`;
}

/** The constraint facts of one schema (a CRD version's openAPIV3Schema), sorted. */
export function constraintFacts(schema: JSONSchemaProps): ConstraintFact[] {
  const out: ConstraintFact[] = [];
  walk(schema, ROOT, out);
  return out.sort(compareFacts);
}

function walk(node: JSONSchemaProps, path: string, out: ConstraintFact[]): void {
  const rec = node as Record<string, unknown>;
  for (const k of CONSTRAINT_KEYWORDS) {
    if (k === 'required' || k === 'x-kubernetes-validations') continue;
    if (rec[k] !== undefined) out.push([path, k, k === 'enum' ? [...(rec[k] as unknown[])].map(String).sort() : rec[k]]);
  }
  for (const r of node.required ?? []) out.push([child(path, r), 'required', true]);
  const rules = node['x-kubernetes-validations'] ?? [];
  if (rules.length) {
    out.push([path, 'x-kubernetes-validations', rules.length]);
    for (const r of rules) out.push([path, 'rule', r.rule]);
  }
  for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, child(path, k), out);
  if (node.items) walk(node.items, `${path === ROOT ? '' : path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path === ROOT ? '' : path}{}`, out);
}

function compareFacts(a: ConstraintFact, b: ConstraintFact): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  const x = JSON.stringify(a[2]);
  const y = JSON.stringify(b[2]);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One upstream fact that ours lacks or holds with another value (or a fact only ours has). */
export interface ConstraintDifference {
  readonly crd: string;
  readonly version: string;
  readonly path: string;
  readonly keyword: ConstraintKeyword;
  /** Upstream's value; undefined when only ours has the fact. */
  readonly upstream: unknown;
  /** Ours; undefined when ours lacks it. */
  readonly ours: unknown;
}

/** The outcome of comparing one CRD version. */
export interface ConstraintComparison {
  /** Upstream facts (CEL rule texts aside) that ours holds with the same value. */
  readonly identical: number;
  /** Upstream facts in all, CEL rule texts aside. */
  readonly total: number;
  readonly differences: ConstraintDifference[];
  /**
   * CEL rule texts: ours are written in our own words, so a text that differs is reported, not
   * failed (the rule count per path is a compared fact).
   */
  readonly rules: { readonly identical: number; readonly total: number; readonly differences: ConstraintDifference[] };
}

/** Collapses runs of white space, so that line breaks in a YAML block do not count. */
function normalizeRule(r: unknown): unknown {
  return typeof r === 'string' ? r.replace(/\s+/g, ' ').trim() : r;
}

function factKey(f: ConstraintFact): string {
  return f[1] === 'rule' ? `${f[0]}\u0000rule\u0000${String(normalizeRule(f[2]))}` : `${f[0]}\u0000${f[1]}`;
}

/**
 * Compares upstream's facts of one CRD version with ours: each upstream fact is identical,
 * missing in ours or different; facts only ours has, on paths upstream has, are differences too
 * (upstream undefined). Rule texts are compared apart (see ConstraintComparison.rules).
 */
export function compareConstraints(crd: string, version: string, upstream: ConstraintFact[], ours: ConstraintFact[]): ConstraintComparison {
  const mine = new Map(ours.map((f) => [factKey(f), f]));
  const theirs = new Set(upstream.map(factKey));
  const differences: ConstraintDifference[] = [];
  const ruleDiffs: ConstraintDifference[] = [];
  let identical = 0;
  let ruleSame = 0;
  let ruleTotal = 0;
  for (const f of upstream) {
    const o = mine.get(factKey(f));
    const same = o !== undefined && JSON.stringify(o[2]) === JSON.stringify(f[2]);
    if (f[1] === 'rule') {
      ruleTotal++;
      if (same) ruleSame++;
      else ruleDiffs.push({ crd, version, path: f[0], keyword: f[1], upstream: f[2], ours: undefined });
    } else if (same) {identical++;} else {differences.push({ crd, version, path: f[0], keyword: f[1], upstream: f[2], ours: o?.[2] });}
  }
  // Facts only ours has count on paths upstream has; fields upstream lacks are another test's concern.
  const paths = new Set(upstream.map((f) => f[0]));
  for (const o of ours) {
    if (!paths.has(o[0]) || theirs.has(factKey(o))) continue;
    (o[1] === 'rule' ? ruleDiffs : differences).push({ crd, version, path: o[0], keyword: o[1], upstream: undefined, ours: o[2] });
  }
  return { identical, total: upstream.length - ruleTotal, differences, rules: { identical: ruleSame, total: ruleTotal, differences: ruleDiffs } };
}

/** Why a declared difference is kept. */
export type ConstraintDifferenceClass =
  /** A CEL rule or keyword the target Kubernetes (1.28) cannot compile or accept. */
  | 'needs-newer-kubernetes'
  /** Embedded core types follow @kubernetes/client-node and the 1.28 API's OpenAPI; upstream embeds a newer k8s.io/api. */
  | 'core-types-version'
  /** Ours is deliberately more open (or stricter) than upstream, for the reason given. */
  | 'deliberate'
  /** Not yet modelled: a known gap, to fix. */
  | 'not-yet-modelled';

/**
 * A declared difference. `path` is a pattern: `**` stands for any run of characters, `*` for
 * any within one path segment (`spec.template.**`, `**.podCertificate.userAnnotations**`);
 * `crd` `*` is every CRD, `versions` omitted every version, `keyword` omitted every keyword.
 */
export interface ConstraintDeclaration {
  readonly crd: string;
  /** Only differences where ours has the fact and upstream not (`ours`), or the other way round (`upstream`). */
  readonly side?: 'ours' | 'upstream';
  readonly versions?: readonly string[];
  readonly path: string;
  readonly keyword?: ConstraintKeyword | readonly ConstraintKeyword[];
  readonly class: ConstraintDifferenceClass;
  readonly reason: string;
}

/** Whether a declaration covers a difference. */
export function declares(d: ConstraintDeclaration, diff: ConstraintDifference): boolean {
  if (d.crd !== '*' && d.crd !== diff.crd) return false;
  if (d.versions && !d.versions.includes(diff.version)) return false;
  if (d.side === 'ours' && !(diff.upstream === undefined && diff.ours !== undefined)) return false;
  if (d.side === 'upstream' && !(diff.ours === undefined && diff.upstream !== undefined)) return false;
  if (d.keyword !== undefined && !(typeof d.keyword === 'string' ? d.keyword === diff.keyword : d.keyword.includes(diff.keyword))) return false;
  return pathPattern(d.path).test(diff.path);
}

const patterns = new Map<string, RegExp>();
function pathPattern(p: string): RegExp {
  let re = patterns.get(p);
  if (!re) {
    const body = p.split(/(\*\*|\*)/).map((part) => (part === '**' ? '.*' : part === '*' ? '[^.]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('');
    patterns.set(p, re = new RegExp(`^${body}$`));
  }
  return re;
}

/** One line naming CRD, version, path, keyword and both values. */
export function describeConstraintDifference(d: ConstraintDifference): string {
  const v = (x: unknown) => (x === undefined ? '(absent)' : JSON.stringify(x));
  return `${d.crd} ${d.version} ${d.path} ${d.keyword}: upstream ${v(d.upstream)}, ours ${v(d.ours)}`;
}
