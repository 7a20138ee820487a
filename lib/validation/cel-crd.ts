import { parseCel, ParsedCel } from './cel';
import { joinPath, show, ValidationIssue } from './issues';
import { compareKubernetesVersions, KubernetesVersion } from '../kubernetes-version';
import { isSharedJson, SharedMemo } from '../subtree-sharing';

/**
 * CRD rules compiled the way an API server compiles them when it creates the CRD, for a
 * target Kubernetes version: what each scope can see, CEL string literals, the libraries of
 * that version, and the static cost estimate against the per-rule and per-CRD budgets.
 *
 * Facts (from Kubernetes' sources; checked against a v1.28.7 kube-apiserver in
 * test/apiserver/cel-compile.test.ts):
 * - apiserver/pkg/cel/common/schemas.go (SchemaDeclType, WithTypeAndObjectMeta): at the root
 *   of a custom resource and of an x-kubernetes-embedded-resource, `metadata` has only
 *   `name` and `generateName` (unless the schema declares both as strings, when it is kept
 *   as written); nodes with x-kubernetes-preserve-unknown-fields and no type are not
 *   exposed; sizes come from maxLength (x4, bytes per character), maxItems, maxProperties,
 *   the longest enum value, or else from the 3 MiB maximum request.
 * - apiserver/pkg/cel/escaping.go: a property named with a CEL reserved word is declared as
 *   `__word__`; new rules may write it plainly from 1.32 (kubernetes/kubernetes#126188,
 *   #126276).
 * - apiserver/pkg/cel/environment/base.go: the libraries and the version each arrived in.
 *   A server compiles a new CRD's rules at its compatibility version, one minor below its
 *   own (a 1.28 server rejects quantity(), introduced in 1.28): NEW_RULE_LIBRARIES below.
 * - cel-go checker/cost.go and apiextensions' validation: the cost of each rule times the
 *   most times it can run (the product of the maxItems/maxProperties above it, or what fits
 *   in a request) must stay within 10,000,000 (StaticEstimatedCostLimit), and all rules of
 *   a version's schema within 100,000,000 (StaticEstimatedCRDCostLimit).
 */

type Props = Record<string, any>;

const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
export const PER_RULE_COST_LIMIT = 10_000_000;
export const PER_CRD_COST_LIMIT = 100_000_000;
const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

/** CEL reserved words: properties so named are declared escaped (`__namespace__`). */
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const RESERVED_FIELDS_SINCE = '1.32';
const COMPREHENSION_SIZES_SINCE = '1.29';

/** Functions by the first Kubernetes version whose API server compiles them in a new CRD rule. */
const NEW_RULE_LIBRARIES: Array<{ since: KubernetesVersion; library: string; names: string[] }> = [
  { since: '1.29', library: 'quantity', names: ['quantity', 'isQuantity', 'sign', 'isInteger', 'asInteger', 'asApproximateFloat', 'compareTo', 'isLessThan', 'isGreaterThan'] },
  { since: '1.29', library: 'optional types', names: ['optional.of', 'optional.none', 'optional.ofNonZeroValue', 'hasValue', 'orValue'] },
  { since: '1.30', library: 'sets', names: ['sets.contains', 'sets.equivalent', 'sets.intersects'] },
  { since: '1.30', library: 'strings (version 2)', names: ['strings.quote'] },
  { since: '1.31', library: 'IP and CIDR', names: ['ip', 'isIP', 'cidr', 'isCIDR', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast', 'ip.isCanonical', 'containsIP', 'containsCIDR', 'prefixLength', 'masked'] },
  { since: '1.32', library: 'format', names: ['format.named', 'format.dns1123Label', 'format.dns1123Subdomain', 'format.dns1035Label', 'format.qualifiedName', 'format.dns1123LabelPrefix', 'format.dns1123SubdomainPrefix', 'format.dns1035LabelPrefix', 'format.labelValue', 'format.uri', 'format.uuid', 'format.byte', 'format.date', 'format.datetime', 'validate'] },
  { since: '1.33', library: 'two-variable comprehensions', names: ['transformList', 'transformMap', 'transformMapEntry'] },
  { since: '1.34', library: 'semver', names: ['semver', 'isSemver', 'major', 'minor', 'patch'] },
];
const LIBRARY_OF = new Map(NEW_RULE_LIBRARIES.flatMap((l) => l.names.map((n) => [n, l] as const)));

// ---------------------------------------------------------------- declared types

/** A schema node as CEL sees it. `max`: the most elements (characters, items, properties). */
type Decl =
  | { kind: 'object'; schema: Props; root: boolean; min: number }
  | { kind: 'list' | 'map'; elem: Decl; max: number; min: number }
  | { kind: 'string'; max: number; min: number }
  | { kind: 'scalar'; min: number }
  | { kind: 'dyn'; max: number; min: number };

const isObj = (v: unknown): v is Props => v !== null && typeof v === 'object' && !Array.isArray(v);
const STRING_MAX = MAX_REQUEST_BYTES - 2;

/** The schema as CEL sees a resource root: kind, apiVersion, and metadata with name and generateName only. */
function withTypeAndObjectMeta(s: Props): Props {
  const p = s.properties ?? {};
  const m = p.metadata;
  if (p.kind?.type === 'string' && p.apiVersion?.type === 'string' && m?.type === 'object' && m.properties?.name?.type === 'string' && m.properties?.generateName?.type === 'string') return s;
  const str = { type: 'string' };
  return { ...s, properties: { ...p, kind: str, apiVersion: str, metadata: { type: 'object', properties: { name: str, generateName: str } } } };
}

const declCache = new WeakMap<Props, Decl | null>();
const rootCache = new WeakMap<Props, Decl | null>();

function declOf(s: Props | undefined, root: boolean): Decl | undefined {
  if (!isObj(s)) return undefined;
  const cache = root ? rootCache : declCache;
  const hit = cache.get(s);
  if (hit !== undefined) return hit ?? undefined;
  const d = computeDecl(s, root);
  cache.set(s, d ?? null);
  return d;
}

function computeDecl(s: Props, root: boolean): Decl | undefined {
  if (s['x-kubernetes-int-or-string'] === true) return { kind: 'dyn', max: typeof s.maxLength === 'number' ? s.maxLength * 4 : STRING_MAX, min: 1 };
  const schema = root ? withTypeAndObjectMeta(s) : s;
  switch (schema.type) {
    case 'array': {
      if (!isObj(schema.items)) return undefined;
      const elem = declOf(schema.items, schema.items['x-kubernetes-embedded-resource'] === true);
      if (!elem) return undefined;
      return { kind: 'list', elem, max: typeof schema.maxItems === 'number' ? Math.max(0, schema.maxItems) : Math.floor(STRING_MAX / (elem.min + 1)), min: 2 };
    }
    case 'object': {
      if (isObj(schema.additionalProperties)) {
        const elem = declOf(schema.additionalProperties, schema.additionalProperties['x-kubernetes-embedded-resource'] === true);
        if (!elem) return undefined;
        return { kind: 'map', elem, max: typeof schema.maxProperties === 'number' ? Math.max(0, schema.maxProperties) : Math.floor(STRING_MAX / (elem.min + 6)), min: 2 };
      }
      let min = 2;
      const required = new Set<string>(schema.required ?? []);
      for (const [name, prop] of Object.entries<Props>(schema.properties ?? {})) {
        if (!required.has(name) || prop.default !== undefined) continue;
        const d = declOf(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (d) min += name.length + d.min + 4;
      }
      return { kind: 'object', schema, root, min };
    }
    case 'string': {
      switch (schema.format) {
        case 'byte': return { kind: 'string', max: typeof schema.maxLength === 'number' ? schema.maxLength : STRING_MAX, min: 2 };
        case 'duration': return { kind: 'string', max: 32, min: 4 };
        case 'date': return { kind: 'string', max: 12, min: 12 };
        case 'date-time': return { kind: 'string', max: 32, min: 22 };
        default:
      }
      if (typeof schema.maxLength === 'number') return { kind: 'string', max: Math.max(0, schema.maxLength) * 4, min: 2 };
      if (Array.isArray(schema.enum) && schema.enum.length) return { kind: 'string', max: Math.max(...schema.enum.map((e: unknown) => (typeof e === 'string' ? e.length : 0))), min: 2 };
      return { kind: 'string', max: STRING_MAX, min: 2 };
    }
    case 'boolean': return { kind: 'scalar', min: 4 };
    case 'integer':
    case 'number': return { kind: 'scalar', min: 1 };
    default: return undefined;
  }
}

/** The CEL name of a property (apiserver/pkg/cel/escaping.go), or undefined when CEL cannot name it. */
function escapeName(name: string): string | undefined {
  if (!name || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[A-Za-z0-9_./-]+$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (m) => ({ '__': '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' } as Record<string, string>)[m]);
}

// ---------------------------------------------------------------- string literals

const SIMPLE_ESCAPES = new Set(['a', 'b', 'f', 'n', 'r', 't', 'v', '\\', '\'', '"', '`', '?']);

/** The first invalid escape in a non-raw string literal of `expr` ("\\." and the like), with its column. */
export function invalidEscape(expr: string): { escape: string; column: number } | undefined {
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (c === '/' && expr[i + 1] === '/') { while (i < expr.length && expr[i] !== '\n') i++; continue; }
    if (c !== '\'' && c !== '"') { i++; continue; }
    let prefix = '';
    for (let k = i - 1; k >= 0 && /[rRbB]/.test(expr[k]); k--) prefix = expr[k] + prefix;
    const raw = /[rR]/.test(prefix) && !/[\w]/.test(expr[i - prefix.length - 1] ?? '');
    const quote = expr.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    i += quote.length;
    while (i < expr.length && !expr.startsWith(quote, i)) {
      if (expr[i] === '\\') {
        if (!raw) {
          const n = expr[i + 1] ?? '';
          const ok = SIMPLE_ESCAPES.has(n) || (n === 'x' && /^[0-9a-fA-F]{2}$/.test(expr.slice(i + 2, i + 4)))
            || (n === 'u' && /^[0-9a-fA-F]{4}$/.test(expr.slice(i + 2, i + 6))) || (n === 'U' && /^[0-9a-fA-F]{8}$/.test(expr.slice(i + 2, i + 10)))
            || /^[0-3][0-7]{2}$/.test(expr.slice(i + 1, i + 4));
          if (!ok) return { escape: `\\${n}`, column: i + 1 };
        }
        i += 2;
        continue;
      }
      i++;
    }
    i += quote.length;
  }
  return undefined;
}

// ---------------------------------------------------------------- the estimate

/** The type of an expression as far as the estimate needs it; undefined: not known (dyn). */
interface Value {
  readonly cost: number;
  /** The most elements (characters of a string, items of a list). */
  readonly size: number;
  readonly decl?: Decl;
  /** A scalar (int, bool, double): size 1. */
  readonly scalar?: boolean;
  /** A string constant (for messages). */
  readonly text?: string;
}

class CompileError extends Error {}

const ceil = (x: number) => (Number.isFinite(x) ? Math.ceil(x - 1e-9) : Infinity);
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);
const sizeOf = (v: Value) => (v.scalar ? 1 : v.size);

interface Scope {
  readonly vars: ReadonlyMap<string, Value>;
  readonly version: KubernetesVersion;
}

/** The parsed CEL syntax tree, typed from what @bufbuild/cel's parse returns. */
type Expr = NonNullable<ParsedCel['expr']>;
type ExprKind = Expr['exprKind'];
type KindValue<C extends NonNullable<ExprKind['case']>> = Extract<ExprKind, { case: C }>['value'];

function exprOf(node: Expr | undefined): ExprKind | { case: undefined; value?: undefined } {
  return node?.exprKind ?? { case: undefined };
}

function estimate(node: Expr | undefined, scope: Scope): Value {
  const k = exprOf(node);
  switch (k.case) {
    case 'constExpr': {
      const c = k.value.constantKind;
      if (c.case === 'stringValue') return { cost: 0, size: [...String(c.value)].length, decl: { kind: 'string', max: [...String(c.value)].length, min: 2 }, text: c.value };
      if (c.case === 'bytesValue') return { cost: 0, size: c.value.length };
      return { cost: 0, size: 1, scalar: true };
    }
    case 'identExpr': {
      const v = scope.vars.get(k.value.name);
      return v ? { ...v, cost: 1 } : { cost: 1, size: Infinity };
    }
    case 'selectExpr': {
      const operand = estimate(k.value.operand, scope);
      const field = k.value.field as string;
      const d = operand.decl;
      const result = selectField(d, field, scope.version);
      const selectCost = d && (d.kind === 'object' || d.kind === 'map') ? 1 : 0;
      if (k.value.testOnly) return { cost: operand.cost, size: 1, scalar: true };
      return { cost: operand.cost + selectCost, ...valueOfDecl(result) };
    }
    case 'listExpr': {
      const elems = k.value.elements.map((e) => estimate(e, scope));
      return { cost: 10 + elems.reduce((s, e) => s + e.cost, 0), size: elems.length };
    }
    case 'structExpr': {
      const entries = k.value.entries.flatMap((e) => [e.keyKind.case === 'mapKey' ? e.keyKind.value : undefined, e.value].filter((x): x is Expr => x !== undefined));
      return { cost: 30 + entries.reduce((s, e) => s + estimate(e, scope).cost, 0), size: entries.length / 2 };
    }
    case 'comprehensionExpr': return comprehension(k.value, scope);
    case 'callExpr': return call(k.value, scope);
    default: return { cost: 0, size: Infinity };
  }
}

function valueOfDecl(d: Decl | undefined): Omit<Value, 'cost'> {
  if (!d) return { size: Infinity };
  if (d.kind === 'scalar') return { size: 1, scalar: true, decl: d };
  // Objects have no element count in the declared types: comparing two costs their operands only.
  if (d.kind === 'object') return { size: 0, decl: d };
  return { size: d.max, decl: d };
}

/** The properties of an object's declaration by the name CEL gives them (those CEL sees), once per declaration (cached by node, as declOf). */
const celNames = new WeakMap<Decl, Map<string, string>>();

function celNamesOf(d: Decl & { kind: 'object' }): Map<string, string> {
  let byCelName = celNames.get(d);
  if (byCelName) return byCelName;
  byCelName = new Map<string, string>();
  const props: Props = d.schema.properties ?? {};
  for (const name of Object.keys(props)) {
    const cel = escapeName(name);
    if (cel && declOf(props[name], props[name]?.['x-kubernetes-embedded-resource'] === true)) byCelName.set(cel, name);
  }
  celNames.set(d, byCelName);
  return byCelName;
}

function selectField(d: Decl | undefined, field: string, version: KubernetesVersion): Decl | undefined {
  if (!d || d.kind === 'dyn') return undefined;
  if (d.kind === 'map') return d.elem;
  if (d.kind !== 'object') return undefined;
  const props: Props = d.schema.properties ?? {};
  const byCelName = celNamesOf(d);
  let name = byCelName.get(field);
  if (name === undefined && RESERVED.has(field) && compareKubernetesVersions(version, RESERVED_FIELDS_SINCE) >= 0) name = byCelName.get(`__${field}__`);
  if (name === undefined) {
    let why = '';
    if (d.root && field !== 'name' && field !== 'generateName' && d.schema.properties?.metadata && Object.keys(d.schema.properties.metadata.properties ?? {}).join() === 'name,generateName') {
      why = ' (at the root of a resource, and of an embedded resource, CEL sees metadata.name and metadata.generateName only)';
    }
    if (RESERVED.has(field) && byCelName.has(`__${field}__`)) {
      why = ` (a property named with the CEL reserved word '${field}' is written __${field}__ in rules before Kubernetes ${RESERVED_FIELDS_SINCE})`;
    }
    throw new CompileError(`undefined field '${field}'${why}`);
  }
  const prop = props[name];
  return declOf(prop, prop['x-kubernetes-embedded-resource'] === true);
}

function comprehension(c: KindValue<'comprehensionExpr'>, scope: Scope): Value {
  const range = estimate(c.iterRange, scope);
  const init = estimate(c.accuInit, scope);
  const elem = range.decl && (range.decl.kind === 'list' ? range.decl.elem : range.decl.kind === 'map' ? { kind: 'string', max: STRING_MAX, min: 2 } as Decl : undefined);
  const accu: Value = exprOf(c.accuInit).case === 'listExpr' ? { cost: 0, size: Infinity } : { cost: 0, size: 1, scalar: true };
  const vars = new Map(scope.vars);
  vars.set(c.iterVar, { cost: 0, ...valueOfDecl(elem) });
  vars.set(c.accuVar, accu);
  const inner = { ...scope, vars };
  const loop = estimate(c.loopCondition, inner);
  const step = estimate(c.loopStep, inner);
  const resultScope = { ...scope, vars: new Map(scope.vars).set(c.accuVar, accu) };
  const result = estimate(c.result, resultScope);
  const count = range.size;
  // Before 1.29 (cel-go before 0.17) the estimate does not know the size of a comprehension's
  // result: comparing two map() results is unbounded (checked on a v1.28.7 API server).
  const size = compareKubernetesVersions(scope.version, COMPREHENSION_SIZES_SINCE) >= 0 ? count : Infinity;
  return { cost: range.cost + init.cost + result.cost + mul(count, step.cost + loop.cost), size, scalar: result.scalar };
}

const STRING_LINEAR = new Set(['lowerAscii', 'upperAscii', 'trim', 'replace', 'split', 'substring', 'join', 'charAt', 'url', 'isURL', 'quantity', 'isQuantity', 'ip', 'isIP', 'cidr', 'isCIDR', 'semver', 'isSemver']);
const LIST_LINEAR = new Set(['isSorted', 'sum', 'min', 'max']);

function call(c: KindValue<'callExpr'>, scope: Scope): Value {
  const fn = c.function;
  const target = c.target ? estimate(c.target, scope) : undefined;
  const args = c.args.map((a) => estimate(a, scope));
  const argCost = (target?.cost ?? 0) + args.reduce((s, a) => s + a.cost, 0);
  const [a, b] = [target ?? args[0], target ? args[0] : args[1]];
  switch (fn) {
    case '_&&_':
    case '_||_':
      return { cost: argCost, size: 1, scalar: true };
    case '_?_:_':
      return {
        cost: args[0].cost + Math.max(args[1].cost, args[2].cost),
        size: Math.max(sizeOf(args[1]), sizeOf(args[2])),
        scalar: args[1].scalar && args[2].scalar,
        decl: args[1].decl ?? args[2].decl,
      };
    case '_==_': case '_!=_': case '_<_': case '_<=_': case '_>_': case '_>=_':
      return { cost: argCost + ceil(STRING_TRAVERSAL * Math.min(sizeOf(args[0]), sizeOf(args[1]))), size: 1, scalar: true };
    case '_+_': {
      if (args[0].scalar && args[1].scalar) return { cost: argCost + 1, size: 1, scalar: true };
      const size = sizeOf(args[0]) + sizeOf(args[1]);
      const isList = exprOf(c.args[1]).case === 'listExpr' || args[0].decl?.kind === 'list';
      return { cost: argCost + (isList ? 1 : ceil(STRING_TRAVERSAL * size)), size, decl: isList ? undefined : { kind: 'string', max: size, min: 2 } };
    }
    case '@in':
      return { cost: argCost + sizeOf(args[1]), size: 1, scalar: true };
    case '_[_]': {
      const d = args[0].decl;
      return { cost: argCost + 1, ...valueOfDecl(d && (d.kind === 'list' || d.kind === 'map') ? d.elem : undefined) };
    }
    case 'matches':
      return { cost: argCost + mul(ceil(STRING_TRAVERSAL * (sizeOf(a) + 1)), ceil(REGEX_LENGTH * sizeOf(b))), size: 1, scalar: true };
    case 'find': case 'findAll':
      return { cost: argCost + mul(ceil(STRING_TRAVERSAL * (sizeOf(a) + 1)), ceil(REGEX_LENGTH * sizeOf(b))), size: sizeOf(a) };
    case 'contains':
      return { cost: argCost + mul(ceil(STRING_TRAVERSAL * sizeOf(a)), ceil(STRING_TRAVERSAL * sizeOf(b))), size: 1, scalar: true };
    case 'startsWith': case 'endsWith':
      return { cost: argCost + ceil(STRING_TRAVERSAL * sizeOf(b)), size: 1, scalar: true };
    case 'size': case '!_': case '-_': case '@not_strictly_false': case 'int': case 'uint': case 'double': case 'bool': case 'type': case 'has':
    case 'duration': case 'timestamp': case '_%_': case '_*_': case '_/_':
      return { cost: argCost + 1, size: 1, scalar: true };
    case 'string':
      return { cost: argCost + 1, size: sizeOf(args[0]), decl: { kind: 'string', max: sizeOf(args[0]), min: 2 } };
    case 'indexOf': case 'lastIndexOf':
      return { cost: argCost + (a?.decl?.kind === 'list' ? sizeOf(a) : ceil(STRING_TRAVERSAL * sizeOf(a))), size: 1, scalar: true };
    default:
      if (LIST_LINEAR.has(fn)) return { cost: argCost + sizeOf(a), size: 1 };
      if (STRING_LINEAR.has(fn)) return { cost: argCost + ceil(STRING_TRAVERSAL * sizeOf(a ?? { cost: 0, size: Infinity })), size: sizeOf(a ?? { cost: 0, size: Infinity }) };
      return { cost: argCost + 1, size: Infinity };
  }
}

/** Names of the functions an expression calls (a call on a bare identifier as `ns.fn` too). */
function calls(node: any, out: Set<string>): Set<string> {
  if (node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) { node.forEach((n) => calls(n, out)); return out; }
  const kind = node.exprKind;
  if (kind?.case === 'callExpr') {
    out.add(kind.value.function);
    const t = kind.value.target?.exprKind;
    if (t?.case === 'identExpr') out.add(`${t.value.name}.${kind.value.function}`);
  }
  for (const v of Object.values(node)) calls(v, out);
  return out;
}

/** What compileRuleFor learns from the text of an expression alone: an invalid escape or parse error, or the tree and the functions it calls. */
type TextFacts = { readonly error: string } | { readonly parsed: ParsedCel; readonly calls: readonly string[] };

/** By text: a CRD's rules repeat a few hundred texts, each on many nodes (and versions). */
const textFactsCache = new Map<string, TextFacts>();

function textFacts(expr: string): TextFacts {
  let facts = textFactsCache.get(expr);
  if (facts) return facts;
  const bad = invalidEscape(expr);
  if (bad) {
    facts = { error: `invalid escape '${bad.escape}' in a CEL string literal (column ${bad.column}): CEL knows \\\\ \\' \\" \\n \\t \\r and the like; write '\\${bad.escape}' or use a raw string r'...'` };
  } else {
    const parsed = parseCel(expr);
    facts = 'error' in parsed ? parsed : { parsed, calls: [...calls(parsed.expr, new Set())] };
  }
  textFactsCache.set(expr, facts);
  return facts;
}

// ---------------------------------------------------------------- per rule and per CRD

export interface RuleCompilation {
  /** Why the API server would not compile the rule; undefined when it compiles. */
  readonly error?: string;
  /** Estimated cost of one evaluation. */
  readonly cost: number;
}

/** Compiles one expression for a schema node as the target version's API server would (self = the node). */
export function compileRuleFor(expr: string, node: Props, isResourceRoot: boolean, version: KubernetesVersion, transition = false): RuleCompilation {
  const text = textFacts(expr);
  if ('error' in text) return { cost: 0, error: text.error };
  const { parsed } = text;
  const missing = text.calls.filter((f) => LIBRARY_OF.has(f) && compareKubernetesVersions(version, LIBRARY_OF.get(f)!.since) < 0).sort();
  if (missing.length) {
    const lib = LIBRARY_OF.get(missing[0])!;
    const names = missing.filter((f) => LIBRARY_OF.get(f) === lib).map((f) => `${f}()`);
    return { cost: 0, error: `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} part of the CEL ${lib.library} library, which the API server compiles in new CRD rules from Kubernetes ${lib.since} only (targeting ${version})` };
  }
  const self = declOf(node, isResourceRoot);
  const vars = new Map<string, Value>([['self', { cost: 0, ...valueOfDecl(self) }]]);
  if (transition) vars.set('oldSelf', { cost: 0, ...valueOfDecl(self) });
  try {
    return { cost: estimate(parsed.expr, { vars, version }).cost };
  } catch (e) {
    if (e instanceof CompileError) return { cost: 0, error: e.message };
    throw e;
  }
}

/** How many times a rule on each node can run: the product of the list and map bounds above it (undefined: unbounded). */
type Cardinality = number | undefined;

const amount = (n: number): string => (Number.isFinite(n) ? String(n) : 'unbounded');

const factor = (cost: number, limit: number): string => {
  const f = cost / limit;
  return f > 100 ? 'more than 100x' : `${f.toFixed(1)}x`;
};

/**
 * A schema node that has x-kubernetes-validations (any value but null), with its path below
 * the version's schema. `server`: where the API server's compilation reaches it (nodes under
 * properties, items and additionalProperties, not under allOf, anyOf or oneOf): how many times
 * a rule on it can run, and whether it is the root of a resource (self has apiVersion, kind
 * and metadata).
 */
export interface CelSite {
  readonly node: Props;
  readonly segs: ReadonlyArray<string | number>;
  readonly server?: { readonly card: Cardinality; readonly root: boolean };
}

const EMBEDDED = 'x-kubernetes-embedded-resource';

/**
 * The nodes of a version's schema that carry CEL rules, in one walk of the schema (tens of
 * thousands of nodes when CRDs embed pod templates): the nodes compileCelRules checks
 * (every node under properties, items, additionalProperties, allOf, anyOf and oneOf, in that
 * order) and, marked `server`, those crdCelIssues compiles as the API server does.
 */
export function celSites(schema: unknown): CelSite[] {
  const out: CelSite[] = [];
  const segs: Array<string | number> = [];
  const visit = (node: any, server: boolean, card: Cardinality, root: boolean): void => {
    if (!node || typeof node !== 'object') return;
    // A shared subtree (lib/subtree-sharing.ts) without rules, entered in the same state, is skipped.
    const shared = isSharedJson(node);
    const variant = shared ? `${server ? 1 : 0}${root ? 1 : 0}${card}` : '';
    if (shared && withoutSites.get(node, variant)) return;
    const before = out.length;
    const reached = server && !Array.isArray(node);
    const rules = node['x-kubernetes-validations'];
    if (rules !== undefined && rules !== null) out.push({ node, segs: segs.slice(), server: reached ? { card, root } : undefined });
    const props = node.properties;
    if (props) {
      const through = reached && isObj(props);
      for (const k of Object.keys(props)) {
        const child = props[k];
        segs.push('properties', k);
        visit(child, through, card, through && child?.[EMBEDDED] === true);
        segs.length -= 2;
      }
    }
    const items = node.items;
    if (items && typeof items === 'object') {
      const n = reached && typeof node.maxItems === 'number' ? node.maxItems : undefined;
      segs.push('items');
      visit(items, reached, card === undefined || n === undefined ? undefined : card * n, reached && items[EMBEDDED] === true);
      segs.length -= 1;
    }
    const additional = node.additionalProperties;
    if (typeof additional === 'object') {
      const n = reached && typeof node.maxProperties === 'number' ? node.maxProperties : undefined;
      segs.push('additionalProperties');
      visit(additional, reached, card === undefined || n === undefined ? undefined : card * n, reached && additional?.[EMBEDDED] === true);
      segs.length -= 1;
    }
    for (const j of JUNCTORS) {
      const list = node[j];
      if (!Array.isArray(list)) continue;
      list.forEach((x: unknown, i: number) => {
        segs.push(j, i);
        visit(x, false, undefined, false);
        segs.length -= 2;
      });
    }
    if (shared && out.length === before) withoutSites.set(node, variant, true);
  };
  visit(schema, isObj(schema), 1, true);
  return out;
}

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'];
/** Shared subtrees in which celSites found no rule, by the state it entered them in. */
const withoutSites = new SharedMemo<true>();

/**
 * What the target version's API server says about the CEL rules of a CRD when it creates
 * it: rules that do not compile, and rules (or a version's schema) over the cost budget.
 * `sites`: celSites of each version's schema, by version index, when the caller has them.
 */
export function crdCelIssues(crd: any, version: KubernetesVersion, sites?: ReadonlyMap<number, CelSite[]>): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  (crd?.spec?.versions ?? []).forEach((v: Props, vi: number) => {
    const schema = v?.schema?.openAPIV3Schema;
    if (!isObj(schema)) return;
    const base = `spec.versions[${vi}].schema.openAPIV3Schema`;
    let total = 0;
    const contributors: string[] = [];
    for (const site of sites?.get(vi) ?? celSites(schema)) {
      if (!site.server) continue;
      const { node, segs } = site;
      const { card, root } = site.server;
      const rules: Props[] = Array.isArray(node['x-kubernetes-validations']) ? node['x-kubernetes-validations'] : [];
      rules.forEach((rule, j) => {
        for (const field of ['rule', 'messageExpression']) {
          const expr = rule?.[field];
          if (typeof expr !== 'string' || !expr) continue;
          const at = [...segs, 'x-kubernetes-validations', j, field].reduce<string>((p, k) => joinPath(p, k), base);
          const transition = field === 'rule' && /\boldSelf\b/.test(expr);
          const r = compileRuleFor(expr, node, root, version, transition);
          if (r.error) {
            out.push({ path: at, message: `${show(expr, 80)} does not compile on Kubernetes ${version}: ${r.error}` });
            continue;
          }
          const self = declOf(node, root);
          const times = card ?? Math.floor(MAX_REQUEST_BYTES / ((self?.min ?? 1) + 1));
          const cost = mul(r.cost, times);
          total += cost;
          contributors.push(at);
          if (cost > PER_RULE_COST_LIMIT) {
            out.push({
              path: at,
              message: `${show(expr, 80)}: the estimated cost exceeds the API server's per-rule budget by a factor of ${factor(cost, PER_RULE_COST_LIMIT)} `
                + `(${amount(r.cost)} per evaluation, up to ${times} evaluations; limit ${PER_RULE_COST_LIMIT}): bound what it reads with maxItems, maxProperties and maxLength, or simplify the rule`,
            });
          }
        }
      });
    }
    if (total > PER_CRD_COST_LIMIT) {
      out.push({
        path: base,
        message: `the estimated cost of all its CEL rules (${amount(total)}) exceeds the API server's per-CRD budget of ${PER_CRD_COST_LIMIT} by a factor of ${total / PER_CRD_COST_LIMIT > 100 ? 'more than 100x' : `${(total / PER_CRD_COST_LIMIT).toFixed(6)}x`}: bound the lists, maps and strings the costliest rules read (maxItems, maxProperties, maxLength)`,
      });
    }
  });
  return out;
}
