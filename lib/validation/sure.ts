import { ANNOTATIONS, EXPECT, FORMATS, LABELS, LIST_MAP, ListMapSpec, listMapUnique, RULE } from './ajv-support';
import { annotationIssues, labelIssues } from './names';
import { isSharedJson } from '../subtree-sharing';

/**
 * Tests of whether a value surely passes a JSON Schema node as ajv validates it (newAjv: its
 * formats and Kubernetes keywords), built once per node as functions. The validators use them
 * to leave out of ajv's work, and so out of what ajv compiles, every subtree of a schema that
 * the values reaching it surely pass: those give no issue.
 */

type Schema = Record<string, any>;

/** Whether a value has a JSON type, as ajv checks `type` (no coercion). */
export function hasType(type: unknown, v: unknown): boolean {
  switch (type) {
    case 'null': return v === null;
    case 'array': return Array.isArray(v);
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number';
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    default: return false;
  }
}

const JSON_TYPES = new Set(['null', 'array', 'object', 'integer', 'number', 'string', 'boolean']);
const isPrimitive = (v: unknown): boolean => v === null || (typeof v !== 'object' && typeof v !== 'function');

/** A test that a value surely passes a schema (see sureOf). */
export type Sure = (v: unknown) => boolean;
const NEVER: Sure = () => false;
const ALWAYS: Sure = () => true;

/** Resolves a `$ref` (the only keyword of its node) to the schema it names; undefined: not sure. */
export type RefResolver = (ref: string) => Schema | undefined;

/** Tests by resolver, then by schema node (built once per node, as long as the node lives). */
const sureTests = new WeakMap<RefResolver | typeof NO_REFS, WeakMap<object, Sure>>();
const NO_REFS = {};

/**
 * A test of whether a value surely passes a schema node: true only when no keyword of the
 * schema can fail on the value. False means "not sure": the schema has a keyword this does
 * not interpret (uniqueItems, multipleOf, allOf/anyOf/oneOf/not, an if other than a bare type,
 * a $ref with siblings or that `refs` does not resolve, a property named like a member of
 * Object.prototype, a keyword value ajv would not compile), or the value fails. Built once per
 * schema node (and resolver), as a function, like ajv's validators.
 */
export function sureOf(s: Schema, refs?: RefResolver): Sure {
  const scope = refs ?? NO_REFS;
  let byNode = sureTests.get(scope);
  if (!byNode) sureTests.set(scope, byNode = new WeakMap());
  let test = byNode.get(s);
  if (!test) {
    // Set before building: schemas refer to themselves (JSONSchemaProps).
    let built: Sure = NEVER;
    // A shared subtree (lib/subtree-sharing.ts) is tested once: it is the same frozen value wherever it appears.
    let verdicts: WeakMap<object, boolean> | undefined;
    test = (v) => {
      if (!isSharedJson(v)) return built(v);
      verdicts ??= new WeakMap();
      let sure = verdicts.get(v);
      if (sure === undefined) verdicts.set(v, sure = built(v));
      return sure;
    };
    byNode.set(s, test);
    built = buildSure(s, refs);
  }
  return test;
}

function buildSure(s: Schema, refs: RefResolver | undefined): Sure {
  const keys = Object.keys(s);
  const tests: Sure[] = [];
  let objectDone = false;
  for (const k of keys) {
    switch (k) {
      case '$ref':
        if (keys.length !== 1 || typeof s.$ref !== 'string' || !refs) return NEVER;
        const target = refs(s.$ref);
        return target ? sureOf(target, refs) : NEVER;
      case 'type': {
        const types: unknown[] = Array.isArray(s.type) ? s.type : [s.type];
        if (!types.length || !types.every((t) => typeof t === 'string' && JSON_TYPES.has(t))) return NEVER;
        tests.push(types.length === 1 ? (v) => hasType(types[0], v) : (v) => types.some((t) => hasType(t, v)));
        break;
      }
      case 'properties': case 'required': case 'additionalProperties': {
        if (objectDone) break;
        objectDone = true;
        const test = objectSure(s, refs);
        if (!test) return NEVER;
        tests.push(test);
        break;
      }
      case 'items': {
        if (s.items === null || typeof s.items !== 'object' || Array.isArray(s.items)) return NEVER;
        const item = sureOf(s.items, refs);
        tests.push((v) => {
          if (!Array.isArray(v)) return true;
          for (const x of v) if (!item(x)) return false;
          return true;
        });
        break;
      }
      case 'exclusiveMinimum': {
        const min = s.exclusiveMinimum;
        if (typeof min !== 'number') return NEVER;
        tests.push((v) => typeof v !== 'number' || v > min);
        break;
      }
      case 'exclusiveMaximum': {
        const max = s.exclusiveMaximum;
        if (typeof max !== 'number') return NEVER;
        tests.push((v) => typeof v !== 'number' || v < max);
        break;
      }
      case 'minItems': case 'maxItems': {
        const limit = s[k];
        if (typeof limit !== 'number') return NEVER;
        tests.push(k === 'maxItems' ? (v) => !Array.isArray(v) || v.length <= limit : (v) => !Array.isArray(v) || v.length >= limit);
        break;
      }
      case 'minProperties': case 'maxProperties': {
        const limit = s[k];
        if (typeof limit !== 'number') return NEVER;
        const count = (v: object) => Object.keys(v).length;
        tests.push(k === 'maxProperties'
          ? (v) => v === null || typeof v !== 'object' || Array.isArray(v) || count(v) <= limit
          : (v) => v === null || typeof v !== 'object' || Array.isArray(v) || count(v) >= limit);
        break;
      }
      case 'minimum': {
        const min = s.minimum;
        if (typeof min !== 'number') return NEVER;
        tests.push((v) => typeof v !== 'number' || v >= min);
        break;
      }
      case 'maximum': {
        const max = s.maximum;
        if (typeof max !== 'number') return NEVER;
        tests.push((v) => typeof v !== 'number' || v < max);
        break;
      }
      case 'enum': {
        const values: unknown[] = s.enum;
        if (!Array.isArray(values) || !values.every(isPrimitive)) return NEVER;
        tests.push((v) => values.includes(v));
        break;
      }
      case 'if': {
        const cond = s.if;
        if (!cond || typeof cond !== 'object' || Object.keys(cond).join() !== 'type' || typeof cond.type !== 'string') return NEVER;
        const branch = (b: unknown): Sure | undefined => (b === undefined ? ALWAYS : b !== null && typeof b === 'object' && !Array.isArray(b) ? sureOf(b as Schema, refs) : undefined);
        const then = branch(s.then);
        const otherwise = branch(s.else);
        if (!then || !otherwise) return NEVER;
        const type = cond.type;
        tests.push((v) => (hasType(type, v) ? then(v) : otherwise(v)));
        break;
      }
      case 'format': {
        const format = FORMATS[s.format];
        if (typeof s.format !== 'string' || !format) return NEVER;
        tests.push((v) => typeof v !== 'string' || format.pattern.test(v));
        break;
      }
      case 'pattern': {
        if (typeof s.pattern !== 'string') return NEVER;
        // As ajv compiles it (unicodeRegExp: false).
        let re: RegExp;
        try {
          re = new RegExp(s.pattern);
        } catch {
          return NEVER;
        }
        tests.push((v) => typeof v !== 'string' || re.test(v));
        break;
      }
      case 'maxLength': case 'minLength': {
        const limit = s[k];
        if (typeof limit !== 'number') return NEVER;
        // ajv counts code points, not UTF-16 units.
        tests.push(k === 'maxLength' ? (v) => typeof v !== 'string' || codePoints(v) <= limit : (v) => typeof v !== 'string' || codePoints(v) >= limit);
        break;
      }
      case LABELS: case ANNOTATIONS: {
        const issues = k === LABELS ? labelIssues : annotationIssues;
        tests.push((v) => v === null || typeof v !== 'object' || Array.isArray(v) || issues(v, '').length === 0);
        break;
      }
      case LIST_MAP: {
        const spec = s[LIST_MAP] as ListMapSpec;
        tests.push((v) => !Array.isArray(v) || listMapUnique(spec, v));
        break;
      }
      case 'then': case 'else': case EXPECT: case RULE:
        break;
      default:
        return NEVER;
    }
  }
  if (!tests.length) return ALWAYS;
  if (tests.length === 1) return tests[0];
  return (v) => {
    for (const t of tests) if (!t(v)) return false;
    return true;
  };
}

/** The length of a string as ajv's maxLength and minLength count it: in code points. */
function codePoints(v: string): number {
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < v.length) {
      const next = v.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** properties, required and additionalProperties of a schema node, as one test (applied to objects only, as ajv does). */
function objectSure(s: Schema, refs: RefResolver | undefined): Sure | undefined {
  const props = s.properties ?? {};
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const byKey: Record<string, Sure> = Object.create(null);
  for (const key of Object.keys(props)) {
    // ajv reads properties as data[key]: a name on Object.prototype would be found on any object.
    if (key in Object.prototype) return undefined;
    const child = props[key];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) return undefined;
    byKey[key] = sureOf(child, refs);
  }
  const required: unknown = s.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && !(r in Object.prototype))) return undefined;
  const extra = s.additionalProperties;
  let extraTest: Sure | undefined;
  if (extra !== undefined && extra !== false) {
    if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) return undefined;
    extraTest = sureOf(extra, refs);
  }
  const closed = extra === false;
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return true;
    const o = v as Record<string, unknown>;
    for (const key in o) {
      const x = o[key];
      const test = byKey[key];
      if (test !== undefined) {
        if (x !== undefined && !test(x)) return false;
      } else if (closed || (extraTest && !extraTest(x))) {
        return false;
      }
    }
    for (const r of required as string[]) if (o[r] === undefined) return false;
    return true;
  };
}
