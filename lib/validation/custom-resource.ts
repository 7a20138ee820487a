import { CelInput, isCelError } from '@bufbuild/cel';
import { ValidateFunction } from 'ajv';
import { EXPECT, FORMATS, LIST_MAP, newAjv, suggest, toIssues, valuesByKey } from './ajv-support';
import { compileCel } from './cel';
import { CelSite, celSites, crdCelIssues } from './cel-crd';
import { dedupe, joinPath, show, ValidationIssue } from './issues';
import { metadataIssues } from './names';
import { sureOf } from './sure';
import { KubernetesVersion } from '../kubernetes-version';
import { coreTypeEntry } from '../schema/core';

/**
 * Validation of a custom resource against the CustomResourceDefinition we emit: the
 * version's openAPIV3Schema (as the API server checks it, unknown fields being errors),
 * then its x-kubernetes-validations CEL rules.
 */

type Props = Record<string, any>;

const ajv = newAjv();

/** Validates a custom resource against its CRD (the JSON of the CustomResourceDefinition). */
export function validateCustomResource(obj: any, crd: any): ValidationIssue[] {
  return validateCustomResources([obj], crd)[0];
}

/**
 * Validates custom resources against their CRD, one list of issues per object.
 *
 * The schema of each version is compiled once for all the objects that use it, and only
 * as far as they reach: subtrees of the schema that none of the objects has data for
 * are left out of the compiled validator (ajv only applies a property's schema when the
 * property is present, so the issues are the same). CRD schemas that embed core types
 * (PodSpec, Container...) are hundreds of KiB, while the custom resources of a platform
 * use a few fields of them, so this keeps the cost in proportion to the objects.
 */
export function validateCustomResources(objs: readonly any[], crd: any): ValidationIssue[][] {
  const results: ValidationIssue[][] = objs.map(() => []);
  const spec = crd?.spec ?? {};
  const versions: Props[] = spec.versions ?? [];
  const groups = new Map<Props, { indexes: number[]; values: any[] }>();
  objs.forEach((obj, index) => {
    const early = precheck(obj, crd, spec, versions);
    if (Array.isArray(early)) {
      results[index] = early;
      return;
    }
    let g = groups.get(early);
    if (!g) groups.set(early, g = { indexes: [], values: [] });
    g.indexes.push(index);
    g.values.push(prune(obj, schemaOf(early)));
  });
  for (const [v, g] of groups) {
    const schema = schemaOf(v);
    const validate = compileShaped(schema, g.values);
    g.indexes.forEach((index, k) => {
      if (typeof validate === 'string') {
        results[index] = [{ rule: 'K8S-CRD', path: '', message: `the schema of version ${v.name} cannot be used: ${validate}` }];
        return;
      }
      const obj = objs[index];
      const value = g.values[k];
      validate(value);
      const schemaIssues = toIssues(validate.errors);
      const issues = [...metadataIssues(obj.metadata, 'metadata'), ...metadataFieldIssues(value.metadata, 'metadata'), ...schemaIssues];
      evaluateRules(value, schema, '', schemaIssues.map((i) => i.path), issues);
      results[index] = dedupe(issues);
    });
  }
  return results;
}

/** The version an object uses, or the issues that stop its validation. */
function precheck(obj: any, crd: any, spec: Props, versions: Props[]): Props | ValidationIssue[] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return [{ rule: 'K8S-PARSE', path: '', message: 'expected a Kubernetes object' }];
  const [group, version] = splitApiVersion(String(obj.apiVersion ?? ''));
  if (group !== spec.group) return [{ rule: 'K8S-NO-CRD', path: 'apiVersion', message: `expected group ${show(spec.group)} of CRD ${crd?.metadata?.name}, got ${show(obj.apiVersion)}` }];
  if (obj.kind !== spec.names?.kind) return [{ rule: 'K8S-NO-CRD', path: 'kind', message: `expected ${show(spec.names?.kind)}, got ${show(obj.kind)}` }];
  const v = versions.find((x) => x.name === version);
  if (!v) return [{ rule: 'K8S-VERSION', path: 'apiVersion', message: `version ${show(version)} is not defined by CRD ${crd?.metadata?.name} (it has ${versions.map((x) => x.name).join(', ')})` }];
  if (!v.served) return [{ rule: 'K8S-VERSION', path: 'apiVersion', message: `version ${show(version)} of CRD ${crd?.metadata?.name} is not served` }];
  return v;
}

function schemaOf(v: Props): Props {
  return v.schema?.openAPIV3Schema ?? { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

/** Validators by the text of their (cut-down) schema: versions and CRDs with the same schema share one. */
const compiled = new Map<string, ValidateFunction | string>();

/** Compiles the schema, cut down to the subtrees the values reach (see validateCustomResources). */
function compileShaped(schema: Props, values: any[]): ValidateFunction | string {
  const whole = toJsonSchema(shape(schema, values), false);
  // The API server validates metadata as ObjectMeta (metadataIssues), whatever the schema says.
  whole.properties = { ...whole.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
  const root = withoutSurePasses(whole, values);
  const key = JSON.stringify(root);
  let fn = compiled.get(key);
  if (fn === undefined) {
    try {
      fn = ajv.compile(root);
    } catch (e) {
      fn = (e as Error).message;
    }
    compiled.set(key, fn);
  }
  return fn;
}

/**
 * The ajv schema with every node that all the values reaching it surely pass (./sure) replaced
 * by an empty schema: they give no issue there, so the issues are the same, and a platform's
 * valid custom resources compile to next to nothing. Only nodes ajv surely compiles whole
 * (compilesWhole) are left out, so that a schema ajv cannot compile still fails the same way.
 */
function withoutSurePasses(j: Props, values: unknown[]): Props {
  if (values.every(sureOf(j)) && compilesWhole(j)) return {};
  const out: Props = { ...j };
  const objects = values.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (j.properties && typeof j.properties === 'object') {
    const byKey = valuesByKey(objects);
    out.properties = mapEntries(j.properties, (k, child) => {
      const reached = byKey.get(k);
      return reached && child && typeof child === 'object' ? withoutSurePasses(child, reached) : child;
    });
  }
  if (j.items && typeof j.items === 'object' && !Array.isArray(j.items)) {
    const reached = values.filter(Array.isArray).flat();
    if (reached.length) out.items = withoutSurePasses(j.items, reached);
  }
  if (j.additionalProperties && typeof j.additionalProperties === 'object') {
    const reached = objects.flatMap((o) => Object.values(o));
    if (reached.length) out.additionalProperties = withoutSurePasses(j.additionalProperties, reached);
  }
  return out;
}

/** Nodes compilesWhole found to compile, with everything under them. */
const compilesWholeNodes = new WeakSet<Props>();

/** compilesSurely of a node and of every node under it (properties, items, additionalProperties; no junctors). */
function compilesWhole(j: Props): boolean {
  if (compilesWholeNodes.has(j)) return true;
  const { items, additionalProperties: extra, properties: props, ...rest } = j;
  if (items !== undefined && (!items || typeof items !== 'object' || Array.isArray(items) || !compilesWhole(items))) return false;
  if (extra !== undefined && extra !== false && (!extra || typeof extra !== 'object' || Array.isArray(extra) || !compilesWhole(extra))) return false;
  if (props !== undefined && (!props || typeof props !== 'object' || Array.isArray(props) || !Object.values(props).every((p) => p && typeof p === 'object' && !Array.isArray(p) && compilesWhole(p as Props)))) return false;
  if (!compilesSurely(rest)) return false;
  compilesWholeNodes.add(j);
  return true;
}

function mapEntries(o: Props, f: (k: string, v: any) => any): Props {
  const out: Props = {};
  for (const k of Object.keys(o)) out[k] = f(k, o[k]);
  return out;
}

const CHILDREN = ['properties', 'items', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'not'];

/**
 * The schema with every subtree that no value reaches replaced by its node alone (its own
 * keywords, such as `default`, kept; its children dropped). Reached nodes keep all their
 * property names, so unknown-field messages still suggest the right names.
 */
function shape(s: Props, values: any[]): Props {
  if (!s || typeof s !== 'object') return s;
  const out: Props = { ...s };
  const objects = values.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (s.properties && typeof s.properties === 'object') {
    const byKey = valuesByKey(objects);
    const props: Props = {};
    for (const [k, child] of Object.entries(s.properties as Props)) {
      const reached = byKey.get(k);
      props[k] = reached ? shape(child, reached) : leaf(child);
    }
    out.properties = props;
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) {
    const reached = values.filter(Array.isArray).flat();
    out.items = reached.length ? shape(s.items, reached) : leaf(s.items);
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    const reached = objects.flatMap((o) => Object.values(o));
    out.additionalProperties = reached.length ? shape(s.additionalProperties, reached) : leaf(s.additionalProperties);
  }
  for (const j of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[j])) out[j] = s[j].map((x: Props) => shape(x, values));
  if (s.not) out.not = shape(s.not, values);
  return out;
}

function leaf(s: Props): Props {
  if (!s || typeof s !== 'object') return s;
  const out: Props = {};
  for (const [k, v] of Object.entries(s)) if (!CHILDREN.includes(k)) out[k] = v;
  unreached.add(out);
  return out;
}

/** The leaves of shaped schemas: nodes no value reaches (see toJsonSchema). */
const unreached = new WeakSet<Props>();

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const NUMERIC_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

/**
 * Whether ajv surely compiles this node of toJsonSchema's output: every keyword is one
 * toJsonSchema writes, with a value of the type ajv requires (a pattern that is a valid
 * RegExp, as ajv builds it without the u flag). False means only "not sure".
 */
function compilesSurely(j: Props): boolean {
  for (const k of Object.keys(j)) {
    const v = j[k];
    if (k === 'type') {
      const types = Array.isArray(v) ? v : [v];
      if (!types.length || new Set(types).size !== types.length || !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) return false;
    } else if (NUMERIC_KEYWORDS.has(k)) {
      if (typeof v !== 'number') return false;
    } else if (k === 'enum') {
      if (!Array.isArray(v)) return false;
    } else if (k === 'required') {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return false;
    } else if (k === 'uniqueItems') {
      if (typeof v !== 'boolean') return false;
    } else if (k === 'additionalProperties') {
      if (v !== false) return false;
    } else if (k === 'pattern') {
      if (typeof v !== 'string') return false;
      try {
        new RegExp(v, '');
      } catch {
        return false;
      }
    } else if (k === 'format') {
      if (typeof v !== 'string' || !FORMATS[v]) return false;
    } else if (k === 'properties') {
      if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((p) => p && typeof p === 'object' && !Array.isArray(p) && compilesSurely(p as Props))) return false;
    } else if (k !== LIST_MAP && k !== EXPECT) {
      return false;
    }
  }
  return true;
}

/**
 * Checks that every x-kubernetes-validations rule (and message expression) of a CRD compiles;
 * with `kubernetesVersion`, also as that version's API server compiles them when it creates
 * the CRD (scopes, string escapes, libraries, cost budgets: cel-crd.ts).
 */
export function compileCelRules(crd: any, kubernetesVersion?: KubernetesVersion): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // One walk of each version's schema finds the rules for both compilations.
  const sites = new Map<number, CelSite[]>();
  (crd?.spec?.versions ?? []).forEach((v: Props, i: number) => {
    const schema = v.schema?.openAPIV3Schema;
    if (schema) {
      const base = `spec.versions[${i}].schema.openAPIV3Schema`;
      sites.set(i, celSites(schema));
      for (const { node, segs } of sites.get(i)!) {
        (node['x-kubernetes-validations'] ?? []).forEach((rule: Props, j: number) => {
          const at = `${joinPath(segs.reduce<string>((p, k) => joinPath(p, k), base), 'x-kubernetes-validations')}[${j}]`;
          for (const field of ['rule', 'messageExpression']) {
            if (typeof rule[field] !== 'string') continue;
            const result = compileCel(rule[field]);
            if (typeof result === 'string') issues.push({ path: joinPath(at, field), message: `${show(rule[field], 60)} does not compile: ${result}` });
          }
        });
      }
    }
  });
  if (!kubernetesVersion) return issues;
  // One issue per rule: what does not compile here is not also reported for the server.
  const seen = new Set(issues.map((i) => i.path));
  return [...issues, ...crdCelIssues(crd, kubernetesVersion, sites).filter((i) => !seen.has(i.path))];
}

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

const COPIED = ['enum', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'uniqueItems', 'required'];

/**
 * The ajv JSON Schema of a CRD structural schema node. Inside allOf/anyOf/oneOf/not
 * (`junctor`) nodes only add value checks, so they never close objects.
 */
function toJsonSchema(s: Props, junctor: boolean): Props {
  const out = toJsonSchemaNode(s, junctor);
  // No value reaches a leaf, so ajv never applies its schema (it applies a property's, item's
  // or map value's schema only to data that is there): an empty schema validates the same and
  // costs no generated code. A leaf ajv might fail to compile is kept, so that the error that
  // stops the version's validation stays the same.
  return unreached.has(s) && compilesSurely(out) ? {} : out;
}

function toJsonSchemaNode(s: Props, junctor: boolean): Props {
  const out: Props = {};
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const types: string[] = intOrString ? ['integer', 'string'] : s.type ? [s.type] : [];
  if (types.length && s.nullable) types.push('null');
  if (types.length) out.type = types.length === 1 ? types[0] : types;
  for (const k of COPIED) if (s[k] !== undefined) out[k] = s[k];
  if (out.enum && s.nullable) out.enum = [...out.enum, null];
  if (s.minimum !== undefined) out[s.exclusiveMinimum === true ? 'exclusiveMinimum' : 'minimum'] = s.minimum;
  if (s.maximum !== undefined) out[s.exclusiveMaximum === true ? 'exclusiveMaximum' : 'maximum'] = s.maximum;
  if (typeof s.format === 'string' && FORMATS[s.format] && s.format !== 'quantity') out.format = s.format;
  if (s.properties) out.properties = mapValues(s.properties, (p) => toJsonSchema(p, junctor));
  if (s.items && !Array.isArray(s.items)) out.items = toJsonSchema(s.items, junctor);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = toJsonSchema(s.additionalProperties, junctor);
  else if (s.additionalProperties === false) out.additionalProperties = false;
  if (s['x-kubernetes-embedded-resource']) {
    out.required = [...new Set([...(out.required ?? []), 'apiVersion', 'kind'])];
    out.properties = { ...out.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
  }
  const open = s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties !== undefined;
  if (!junctor && !open && (s.type === 'object' || s.properties)) out.additionalProperties = false;
  if (s['x-kubernetes-list-type'] === 'set') out.uniqueItems = true;
  if (s['x-kubernetes-list-type'] === 'map' && Array.isArray(s['x-kubernetes-list-map-keys'])) {
    const keys: string[] = s['x-kubernetes-list-map-keys'];
    const defaults = Object.fromEntries(keys.map((k) => [k, s.items?.properties?.[k]?.default]).filter(([, d]) => d !== undefined));
    out[LIST_MAP] = { keys, defaults };
  }
  for (const j of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[j])) out[j] = s[j].map((x: Props) => toJsonSchema(x, true));
  if (s.not) out.not = toJsonSchema(s.not, true);
  if (intOrString && s.pattern) out[EXPECT] = `an integer or a string matching ${s.pattern}`;
  return out;
}

/**
 * The object as the API server validates it: nulls removed where the schema is not
 * nullable, then the schema's defaults applied to fields that are missing (defaulting
 * runs before validation, and a defaulted object is defaulted inside too).
 */
function prune(value: any, s: Props | undefined): any {
  if (Array.isArray(value)) return value.map((v) => prune(v, s?.items));
  if (value === null || typeof value !== 'object') return value;
  const out: Props = {};
  for (const [k, v] of Object.entries(value)) {
    const child = childSchema(s, k);
    if (v === null && !child?.nullable) continue;
    out[k] = prune(v, child);
  }
  if (s?.properties) {
    for (const [k, child] of Object.entries(s.properties as Props)) {
      if (out[k] === undefined && child && child.default !== undefined) out[k] = prune(structuredClone(child.default), child);
    }
  }
  return out;
}

const OBJECT_META_FIELDS = new Set(Object.keys(coreTypeEntry('V1ObjectMeta').properties));

/** Unknown fields of an ObjectMeta (which a CRD schema never describes; the API server checks it as ObjectMeta). */
function metadataFieldIssues(meta: unknown, path: string): ValidationIssue[] {
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return [];
  return Object.keys(meta).filter((k) => !OBJECT_META_FIELDS.has(k)).map((k) => ({
    rule: 'K8S-UNKNOWN-FIELD', path: joinPath(path, k), message: `unknown field${suggestMeta(k)}`,
  }));
}

function suggestMeta(k: string): string {
  const near = suggest(k, [...OBJECT_META_FIELDS]);
  return near ? ` (did you mean ${near}?)` : '';
}

function childSchema(s: Props | undefined, key: string): Props | undefined {
  return s?.properties?.[key] ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
}

/**
 * Evaluates the CEL rules of every node present in the value, with `self` bound to the
 * node. Nodes with schema errors inside them are skipped.
 */
function evaluateRules(value: any, s: Props | undefined, path: string, errorPaths: string[], issues: ValidationIssue[]): void {
  if (value === undefined || !s) return;
  const rules: Props[] = s['x-kubernetes-validations'] ?? [];
  if (rules.length && !errorPaths.some((p) => p === path || p.startsWith(path ? `${path}.` : '') || p.startsWith(`${path}[`))) {
    const self = toCel(value, s);
    for (const rule of rules) {
      const issue = evaluateRule(rule, self, path);
      if (issue) issues.push(issue);
    }
  }
  if (Array.isArray(value)) {value.forEach((v, i) => evaluateRules(v, s.items, joinPath(path, i), errorPaths, issues));} else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) evaluateRules(v, childSchema(s, k), joinPath(path, k), errorPaths, issues);
  }
}

function evaluateRule(rule: Props, self: CelInput, path: string): ValidationIssue | undefined {
  const at = typeof rule.fieldPath === 'string' ? path + (rule.fieldPath.startsWith('[') ? '' : '.') + rule.fieldPath.replace(/^\./, '') : path;
  const compiledRule = compileCel(String(rule.rule));
  if (typeof compiledRule === 'string') return { rule: 'K8S-CRD', path: at, message: `rule ${show(rule.rule, 60)} does not compile: ${compiledRule}` };
  const unevaluated = (why: string): ValidationIssue => ({ rule: 'K8S-CEL-UNEVALUATED', severity: 'warning', path: at, message: `rule ${show(rule.rule, 60)} was not evaluated: ${why}` });
  if (compiledRule.usesOldSelf) {
    // A transition rule: on create the API server does not evaluate it (there is no old object),
    // and a validator of files validates creates. With optionalOldSelf it is evaluated on create
    // with oldSelf unset, which this validator does not model.
    return rule.optionalOldSelf === true ? unevaluated('a transition rule with optionalOldSelf runs on create with oldSelf unset, which this validator does not evaluate') : undefined;
  }
  if (compiledRule.unsupported.length) return unevaluated(`it calls ${compiledRule.unsupported.join(', ')}, which this validator does not implement`);
  const result = compiledRule.run(self);
  // The API server rejects an object whose rule fails to evaluate (a missing field, a type error).
  if (isCelError(result)) return { rule: 'K8S-CEL', path: at, message: `rule ${show(rule.rule, 60)} could not be evaluated: ${result.message}` };
  if (typeof result !== 'boolean') return { rule: 'K8S-CEL', path: at, message: `rule ${show(rule.rule, 60)} gave ${show(result)}, not a boolean` };
  if (result) return undefined;
  return { rule: 'K8S-CEL', path: at, message: ruleMessage(rule, self) };
}

/** The message of a failed rule: its messageExpression, else its message, else the API server's default. */
function ruleMessage(rule: Props, self: CelInput): string {
  if (typeof rule.messageExpression === 'string') {
    const expr = compileCel(rule.messageExpression);
    const text = typeof expr === 'string' ? undefined : expr.run(self);
    if (typeof text === 'string' && text) return text;
  }
  return typeof rule.message === 'string' && rule.message ? rule.message : `failed rule: ${rule.rule}`;
}

/** A value as CEL sees it under its schema: integers as bigint, objects as maps. */
function toCel(value: any, s: Props | undefined): CelInput {
  if (Array.isArray(value)) return value.map((v) => toCel(v, s?.items));
  if (value !== null && typeof value === 'object') {
    return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v, childSchema(s, k))])) as CelInput;
  }
  if (typeof value === 'number') {
    const integer = s?.type === 'integer' || s?.['x-kubernetes-int-or-string'] || (!s?.type && Number.isInteger(value));
    return integer && Number.isInteger(value) ? BigInt(value) : value;
  }
  return value;
}

function mapValues(o: Props, f: (v: Props) => Props): Props {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));
}
