import { celEnv, CelInput, CelResult, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { KUBERNETES_CEL_FUNCS } from './cel-kubernetes';
import { tabledParse } from './cel-table';

/**
 * CEL rules of x-kubernetes-validations, compiled with @bufbuild/cel (standard library
 * and string extensions) and the Kubernetes libraries of cel-kubernetes.ts (lists, regex,
 * quantity, URL, IP, CIDR, format, and optionals for the format library). The other
 * Kubernetes library functions (semver, ...) are known: rules using them compile, but are
 * not evaluated (a warning, not a pass).
 */

const env = celEnv({ funcs: [...strings, ...KUBERNETES_CEL_FUNCS] });

const KUBERNETES_LIBRARY = [
  // lists, regex, sets
  'isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf', 'find', 'findAll', 'sets.contains', 'sets.equivalent', 'sets.intersects',
  // url
  'url', 'isURL', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery',
  // quantity
  'quantity', 'isQuantity', 'sign', 'isInteger', 'asInteger', 'asApproximateFloat', 'add', 'sub', 'compareTo', 'isLessThan', 'isGreaterThan',
  // ip and cidr
  'ip', 'isIP', 'cidr', 'isCIDR', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast',
  'isCanonical', 'containsIP', 'containsCIDR', 'prefixLength', 'masked',
  // format, semver, authz-free others
  'named', 'validate', 'dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix',
  'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime', 'hasValue', 'value', 'orValue', 'of', 'none',
  'semver', 'isSemver', 'major', 'minor', 'patch',
];
const UNSUPPORTED = new Set(KUBERNETES_LIBRARY.filter((name) => !env.funcs.find(name)));

export interface CompiledRule {
  /** Evaluates the expression with `self` (and, for message expressions, nothing else) bound. */
  readonly run: (self: CelInput) => CelResult;
  /** The rule reads `oldSelf`: a transition rule, which needs the old object. */
  readonly usesOldSelf: boolean;
  /** Kubernetes library functions the rule calls that are not available here. */
  readonly unsupported: string[];
}

const cache = new Map<string, CompiledRule | string>();

/** A parsed CEL expression: @bufbuild/cel's syntax tree. */
export type ParsedCel = ReturnType<typeof parse>;

/** Parses by text: the rules of a platform's CRDs repeat a few hundred texts many times. */
const parses = new Map<string, ParsedCel | { readonly error: string }>();

/**
 * Parses a CEL expression once per text (the syntax tree depends on the text alone); returns
 * the tree, or why it does not parse (the parser's message, with `<input>:` as `at `).
 * Shared by compileCel and the API server's compilation (cel-crd.ts). Callers read the
 * tree and never change it (plan() reads it only).
 */
export function parseCel(expr: string): ParsedCel | { readonly error: string } {
  let hit = parses.get(expr);
  if (hit === undefined) {
    // The parse table (cel-table.ts) holds the trees of the default platforms' expressions.
    hit = tabledParse(expr) as ParsedCel | undefined;
    if (hit === undefined) {
      try {
        hit = parse(expr);
      } catch (e) {
        hit = { error: (e as Error).message.replace(/^<input>:/, 'at ') };
      }
    }
    parses.set(expr, hit);
  }
  return hit;
}

/** The expressions parseCel parsed (or read from the table) in this process, that parse: what the parse table holds (scripts/gen-cel-parses.ts). */
export function parsedCelTexts(): string[] {
  return [...parses].filter(([, p]) => !('error' in p)).map(([expr]) => expr);
}

/** Compiles a CEL expression; returns the compiled rule, or why it does not compile. */
export function compileCel(expr: string): CompiledRule | string {
  const hit = cache.get(expr);
  if (hit !== undefined) return hit;
  const result = compile(expr);
  cache.set(expr, result);
  return result;
}

function compile(expr: string): CompiledRule | string {
  const parsed = parseCel(expr);
  if ('error' in parsed) return parsed.error;
  const calls = new Set<string>();
  const idents = new Set<string>();
  collect(parsed.expr, calls, idents);
  const unknown = [...calls].filter((f) => /^[A-Za-z]/.test(f) && !env.funcs.find(f) && !UNSUPPORTED.has(f) && !UNSUPPORTED.has(f.slice(f.indexOf('.') + 1)));
  if (unknown.length) return `unknown function ${unknown.join(', ')}`;
  const program = plan(env, parsed);
  return {
    run: (self) => program({ self }),
    usesOldSelf: idents.has('oldSelf'),
    unsupported: [...calls].filter((f) => !env.funcs.find(f) && (UNSUPPORTED.has(f) || UNSUPPORTED.has(f.slice(f.indexOf('.') + 1)))),
  };
}

/** What collect reads of a node of the parsed expression (a protobuf Expr's oneof): only these fields, nothing is written. */
interface ExprKindView {
  readonly case?: string;
  readonly value?: { readonly name?: string; readonly function?: string; readonly target?: { readonly exprKind?: ExprKindView } };
}

/** Collects the function names and identifiers of a parsed expression. */
function collect(node: unknown, calls: Set<string>, idents: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) { node.forEach((n) => collect(n, calls, idents)); return; }
  const kind = (node as { exprKind?: ExprKindView }).exprKind;
  if (kind?.case === 'callExpr') {
    // A call on a bare identifier may be a namespaced function (format.dns1123Label(), optional.of()).
    const target = kind.value?.target?.exprKind;
    const qualified = target?.case === 'identExpr' ? `${target.value?.name}.${kind.value?.function}` : undefined;
    const called = qualified && env.funcs.find(qualified) ? qualified : kind.value?.function;
    if (called) calls.add(called);
  }
  if (kind?.case === 'identExpr' && kind.value?.name) idents.add(kind.value.name);
  for (const v of Object.values(node)) collect(v, calls, idents);
}

/** A CEL result as text for a message. */
export function celErrorText(result: CelResult): string {
  return isCelError(result) ? result.message : String(result);
}

export { isCelError };
