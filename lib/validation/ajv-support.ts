import Ajv, { ErrorObject } from 'ajv';
import { dedupe, joinPath, pointerToPath, show, ValidationIssue } from './issues';
import { annotationIssues, labelIssues } from './names';
import { QUANTITY_PATTERN } from '../schema/dsl';

/**
 * The ajv set-up shared by the built-in and custom resource validators: string formats,
 * the Kubernetes-specific keywords, and ajv errors turned into plain-words issues.
 */

/** String formats we check, with the words used when a value does not match. */
export const FORMATS: Record<string, { pattern: RegExp; expect: string }> = {
  'quantity': { pattern: new RegExp(QUANTITY_PATTERN), expect: 'a quantity such as 500m, 2Gi or 1.5' },
  'date-time': { pattern: /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/, expect: 'an RFC 3339 date-time such as 2024-01-31T12:00:00Z' },
  'date': { pattern: /^\d{4}-\d{2}-\d{2}$/, expect: 'a date such as 2024-01-31' },
  'byte': { pattern: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, expect: 'base64-encoded data' },
  'uuid': { pattern: /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/, expect: 'a UUID' },
  'ipv4': { pattern: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/, expect: 'an IPv4 address' },
};

/** Private schema keys (ignored by ajv) that say what a node expects, for messages. */
export const EXPECT = 'x-expect';

/** Private schema key: the rule id of a failure at this node (overrides the keyword's). */
export const RULE = 'x-rule';

/** A list whose items are unique by some keys (x-kubernetes-list-type: map). */
export const LIST_MAP = 'x-list-map';
export interface ListMapSpec { readonly keys: readonly string[]; readonly defaults?: Record<string, unknown> }

/** A map of labels (keys and values checked) or annotations (keys checked). */
export const LABELS = 'x-labels';
export const ANNOTATIONS = 'x-annotations';

export function newAjv(): Ajv {
  // code.optimize: false skips ajv's optimizing passes over the generated code, which cost
  // more than they save for validators that run on a few objects each.
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, unicodeRegExp: false, validateSchema: false, code: { optimize: false } });
  for (const [name, f] of Object.entries(FORMATS)) ajv.addFormat(name, f.pattern);
  ajv.addKeyword({ keyword: LIST_MAP, type: 'array', errors: true, validate: listMapKeyword });
  ajv.addKeyword({ keyword: LABELS, type: 'object', errors: true, validate: mapKeyword(labelIssues) });
  ajv.addKeyword({ keyword: ANNOTATIONS, type: 'object', errors: true, validate: mapKeyword(annotationIssues) });
  return ajv;
}

type KeywordFn = ((schema: any, data: any, parent: any, cxt: any) => boolean) & { errors?: Partial<ErrorObject>[] };

function issuesToErrors(issues: ValidationIssue[], keyword: string): Partial<ErrorObject>[] {
  // The issue path is carried in params so that the formatter keeps it as is.
  return issues.map((i) => ({ keyword, message: i.message, params: { path: i.path, rule: i.rule } }));
}

const PATH_PLACEHOLDER = '\u0000';

function mapKeyword(check: (map: unknown, path: string) => ValidationIssue[]): KeywordFn {
  const fn: KeywordFn = (_schema, data, _parent, cxt) => {
    // The path is only needed for messages: check with a placeholder, then fill it in.
    let issues = check(data, PATH_PLACEHOLDER);
    if (issues.length) {
      const base = pointerToPath(cxt?.instancePath ?? '');
      issues = issues.map((i) => {
        const rest = i.path.slice(PATH_PLACEHOLDER.length);
        return { ...i, rule: 'K8S-NAME', path: base ? base + rest : rest.replace(/^\./, '') };
      });
    }
    fn.errors = issuesToErrors(issues, 'x-k8s');
    return issues.length === 0;
  };
  return fn;
}

/** Whether the items of a list are unique by the list-map's keys (what the keyword checks, without the messages). */
export function listMapUnique(spec: ListMapSpec, data: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of data) {
    if (item === null || typeof item !== 'object') continue;
    const key = JSON.stringify(spec.keys.map((k) => (item as Record<string, unknown>)[k] ?? spec.defaults?.[k] ?? null));
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

const listMapKeyword: KeywordFn = (spec: ListMapSpec, data: unknown[], _parent, cxt) => {
  const base = pointerToPath(cxt?.instancePath ?? '');
  const seen = new Map<string, number>();
  const issues: ValidationIssue[] = [];
  data.forEach((item, index) => {
    if (item === null || typeof item !== 'object') return;
    const values = spec.keys.map((k) => (item as Record<string, unknown>)[k] ?? spec.defaults?.[k] ?? null);
    // Compared whole: the message shortens long values, the key must not.
    const key = JSON.stringify(values);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else issues.push({ rule: 'K8S-UNIQUE', path: joinPath(base, index), message: `duplicate entry with ${spec.keys.map((k, i) => `${k}=${show(values[i])}`).join(', ')} (same as item ${first}); entries must be unique by ${spec.keys.join(', ')}` });
  });
  listMapKeyword.errors = issuesToErrors(issues, 'x-k8s');
  return issues.length === 0;
};

/** Turns ajv errors into issues with field paths and plain-words messages. */
export function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  return dedupe((errors ?? []).flatMap(toIssue));
}

/** The rule id of an ajv keyword. */
const KEYWORD_RULES: Record<string, string> = {
  additionalProperties: 'K8S-UNKNOWN-FIELD',
  enum: 'K8S-ENUM',
  minimum: 'K8S-RANGE',
  maximum: 'K8S-RANGE',
  exclusiveMinimum: 'K8S-RANGE',
  exclusiveMaximum: 'K8S-RANGE',
  uniqueItems: 'K8S-UNIQUE',
};

function toIssue(e: ErrorObject): ValidationIssue[] {
  const rule = e.keyword === 'x-k8s' ? e.params.rule : e.parentSchema?.[RULE] ?? KEYWORD_RULES[e.keyword];
  return toIssueText(e).map((i) => (rule ? { ...i, rule } : i));
}

function toIssueText(e: ErrorObject): ValidationIssue[] {
  const path = pointerToPath(e.instancePath);
  const p = e.params;
  const parent = e.parentSchema ?? {};
  const got = `got ${show(e.data)}`;
  const expect = parent[EXPECT] as string | undefined;
  switch (e.keyword) {
    case 'x-k8s':
      return [{ path: p.path, message: e.message ?? 'is not valid' }];
    case 'type':
      return [{ path, message: `expected ${[p.type].flat().join(' or ').replace(/\bnull\b/, 'null')}, ${got}` }];
    case 'additionalProperties': {
      const near = suggest(p.additionalProperty, Object.keys(parent.properties ?? {}));
      return [{ path: joinPath(path, p.additionalProperty), message: `unknown field${near ? ` (did you mean ${near}?)` : ''}` }];
    }
    case 'required':
      return [{ path: joinPath(path, p.missingProperty), message: 'required field is missing' }];
    case 'format':
      return [{ path, message: `expected ${FORMATS[p.format]?.expect ?? p.format}, ${got}` }];
    case 'pattern':
      return [{ path, message: `expected ${expect ?? `a string matching ${p.pattern}`}, ${got}` }];
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum': {
      const words = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'greater than', exclusiveMaximum: 'less than' }[e.keyword];
      return [{ path, message: `expected ${expect ?? `a number ${words} ${p.limit}`}, ${got}` }];
    }
    case 'multipleOf':
      return [{ path, message: `expected a multiple of ${p.multipleOf}, ${got}` }];
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).slice(0, 12).map((v) => show(v)).join(', ');
      return [{ path, message: `expected one of ${allowed}${p.allowedValues.length > 12 ? ', …' : ''}; ${got}` }];
    }
    case 'minLength': case 'maxLength':
      return [{ path, message: `expected ${e.keyword === 'minLength' ? 'at least' : 'at most'} ${p.limit} characters, got ${String(e.data).length}` }];
    case 'minItems': case 'maxItems':
      return [{ path, message: `expected ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${p.limit} items, got ${(e.data as unknown[]).length}` }];
    case 'minProperties': case 'maxProperties':
      return [{ path, message: `expected ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${p.limit} entries, got ${Object.keys(e.data as object).length}` }];
    case 'uniqueItems':
      return [{ path: joinPath(path, Math.max(p.i, p.j)), message: `duplicate of item ${Math.min(p.i, p.j)}; the list is a set and its items must be unique` }];
    case 'anyOf':
      return [{ path, message: 'does not match any of the allowed forms (anyOf)' }];
    case 'oneOf':
      return [{ path, message: 'must match exactly one of the allowed forms (oneOf)' }];
    case 'not':
      return [{ path, message: 'matches a form that is not allowed (not)' }];
    case 'if': case 'propertyNames': case 'false schema':
      return [];
    default:
      return [{ path, message: e.message ?? `fails ${e.keyword}` }];
  }
}

/** The closest known name to a misspelt one, if close enough to be a likely typo. */
export function suggest(word: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDist = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === word.toLowerCase() ? 0 : distance(word, k);
    if (d < bestDist) { best = k; bestDist = d; }
  }
  return best !== undefined && bestDist <= Math.max(1, Math.min(3, Math.floor(word.length / 4))) ? best : undefined;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The values of each key over a list of objects (undefined values left out). */
export function valuesByKey(objects: ReadonlyArray<Record<string, unknown>>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const o of objects) {
    for (const k in o) {
      const v = o[k];
      if (v === undefined) continue;
      const list = out.get(k);
      if (list) list.push(v);
      else out.set(k, [v]);
    }
  }
  return out;
}
