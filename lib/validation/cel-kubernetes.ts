/* eslint-disable no-bitwise -- IP addresses and CIDR masks are bit arithmetic */
import { CelFunc, celFunc, celMethod, CelScalar, isCelMap, listType, mapType } from '@bufbuild/cel';
import { parseCidr, parseIp } from './ip';
import { checkDnsLabel, checkDnsSubdomain, checkLabelValue, checkQualifiedName } from './names';
import { parseQuantity } from '../resources';

/**
 * The Kubernetes CEL libraries (lists, regex, quantity, URL, IP and CIDR) as @bufbuild/cel
 * functions, written from the Kubernetes documentation of their behaviour. Values of the
 * library types (Quantity, URL, IP, CIDR) are maps with private keys naming the type and
 * holding the text they were made from, so that methods can tell them apart. The format
 * library returns CEL optionals, which @bufbuild/cel does not have: they are values of the
 * same kind (Optional), with the optional library's functions (optional.of, optional.none,
 * hasValue, value, orValue) for them. Not here: semver, optional syntax (`?.`, `[?k]`), authorizer.
 */

const DYN = CelScalar.DYN;
const KIND = '\u0000kind';
const VALUE = '\u0000value';

type Opaque = 'Quantity' | 'URL' | 'IP' | 'CIDR' | 'Format';

function wrap(kind: Opaque, source: string): any {
  return new Map<string, string>([[KIND, kind], [VALUE, source]]);
}

function text(kind: Opaque, v: unknown): string {
  if (isCelMap(v) && v.get(KIND) === kind) return v.get(VALUE) as string;
  throw new Error(`expected a value of type ${kind}`);
}

// ---------------------------------------------------------------- lists

const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error('list elements are not comparable');
};

const LIST = listType(DYN);

function extreme(items: Iterable<unknown>, sign: number): any {
  let best: unknown;
  let first = true;
  for (const x of items) {
    if (first || compare(x, best) * sign > 0) best = x;
    first = false;
  }
  if (first) throw new Error('min/max of an empty list');
  return best;
}

function indexIn(items: Iterable<unknown>, x: unknown, last: boolean): bigint {
  let i = 0;
  let found = -1;
  for (const y of items) {
    if (y === x || (typeof y === typeof x && compareSafe(y, x))) {
      found = i;
      if (!last) break;
    }
    i++;
  }
  return BigInt(found);
}

const compareSafe = (a: unknown, b: unknown): boolean => {
  try {
    return compare(a, b) === 0;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------- quantity

function quantityValue(v: unknown): number {
  if (typeof v === 'bigint') return Number(v);
  return parseQuantity(text('Quantity', v)) as number;
}

function quantity(s: string): any {
  if (parseQuantity(s) === undefined || typeof s !== 'string') throw new Error(`invalid quantity ${JSON.stringify(s)}`);
  return wrap('Quantity', s);
}

const fromNumber = (n: number): any => wrap('Quantity', Number.isInteger(n) ? String(n) : `${Math.round(n * 1e9)}n`);

// ---------------------------------------------------------------- URL

interface UrlParts { scheme: string; host: string; hostname: string; port: string; path: string; query: string }

function urlParts(s: string): UrlParts {
  // The Kubernetes url() takes an absolute URI or an absolute path.
  if (s.startsWith('/')) return { scheme: '', host: '', hostname: '', port: '', path: s.split('?')[0], query: s.includes('?') ? s.slice(s.indexOf('?') + 1) : '' };
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new Error(`invalid URL ${JSON.stringify(s)}`);
  }
  return { scheme: u.protocol.replace(/:$/, ''), host: u.host, hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port, path: u.pathname, query: u.search.replace(/^\?/, '') };
}

function url(s: string): any {
  urlParts(s);
  return wrap('URL', s);
}

const partOf = (v: unknown): UrlParts => urlParts(text('URL', v));

const isUrl = (s: string): boolean => {
  try {
    url(s);
    return true;
  } catch {
    return false;
  }
};

function query(q: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(q)) out.set(k, [...(out.get(k) ?? []), v]);
  return out;
}

// ---------------------------------------------------------------- IP and CIDR

interface Cidr { readonly bytes: number[]; readonly prefix: number }

function ipOf(s: string): number[] {
  const bytes = parseIp(s);
  if (!bytes) throw new Error(`invalid IP address ${JSON.stringify(s)}`);
  return bytes;
}

function cidrFrom(s: string): Cidr {
  const c = parseCidr(s);
  if (!c) throw new Error(`invalid CIDR ${JSON.stringify(s)}`);
  return c;
}

function ip(s: string): any {
  ipOf(s);
  return wrap('IP', s);
}

function cidr(s: string): any {
  cidrFrom(s);
  return wrap('CIDR', s);
}

function formatIp(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
  // Longest run of zero groups (at least two) becomes '::'.
  let best = [-1, 0];
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best[1] && j - i > 1) best = [i, j - i];
    i = j;
  }
  if (best[0] < 0) return groups.join(':');
  return `${groups.slice(0, best[0]).join(':')}::${groups.slice(best[0] + best[1]).join(':')}`;
}

function within(c: Cidr, bytes: number[], prefix: number): boolean {
  if (bytes.length !== c.bytes.length || prefix < c.prefix) return false;
  for (let bit = 0; bit < c.prefix; bit++) {
    const mask = 0x80 >> (bit & 7);
    if ((c.bytes[bit >> 3] & mask) !== (bytes[bit >> 3] & mask)) return false;
  }
  return true;
}

const ipBytes = (v: unknown): number[] => ipOf(typeof v === 'string' ? v : text('IP', v));
const cidrOf = (v: unknown): Cidr => cidrFrom(typeof v === 'string' ? v : text('CIDR', v));

function masked(c: Cidr): number[] {
  return c.bytes.map((b, i) => {
    const bits = Math.max(0, Math.min(8, c.prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
}

const safe = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

const B = CelScalar.BOOL;
const S = CelScalar.STRING;
const I = CelScalar.INT;
const F = CelScalar.DOUBLE;

/** The functions, for celEnv({ funcs }). */
// ---------------------------------------------------------------- optionals and the format library

const OPTIONAL = '\u0000optional';

function optional(has: boolean, value?: unknown): any {
  return new Map<string, unknown>([[KIND, 'Optional'], [OPTIONAL, has], [VALUE, value]]);
}

function optionalOf(v: unknown): { has: boolean; value: any } {
  if (isCelMap(v) && v.get(KIND) === 'Optional') return { has: v.get(OPTIONAL) as boolean, value: v.get(VALUE) };
  throw new Error('expected an optional value');
}

/** Generated-name prefixes may end with '-': checked as if the last character were a letter. */
const prefix = (check: (s: string) => string | undefined) => (s: string) => check(s.length > 1 && s.endsWith('-') ? `${s.slice(0, -1)}a` : s);
const dns1035Label = (s: string) => (s.length <= 63 && /^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(s) ? undefined : 'a DNS-1035 label (at most 63 characters: lowercase letters, digits and \'-\', starting with a letter and ending with a letter or digit)');
const isDate = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
};
const DATETIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The named formats of the Kubernetes format library: name -> what a value breaks (undefined when it is fine). */
const FORMATS: Record<string, (s: string) => string | undefined> = {
  dns1123Label: checkDnsLabel,
  dns1123Subdomain: checkDnsSubdomain,
  dns1035Label,
  qualifiedName: checkQualifiedName,
  dns1123LabelPrefix: prefix(checkDnsLabel),
  dns1123SubdomainPrefix: prefix(checkDnsSubdomain),
  dns1035LabelPrefix: prefix(dns1035Label),
  labelValue: checkLabelValue,
  uri: (s) => (s.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(s) ? undefined : 'an absolute URI or an absolute path'),
  uuid: (s) => (/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i.test(s) ? undefined : 'a UUID'),
  byte: (s) => (/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? undefined : 'base64-encoded data'),
  date: (s) => (isDate(s) ? undefined : 'a date such as 2024-12-31 (RFC 3339 full-date)'),
  datetime: (s) => {
    const m = DATETIME.exec(s);
    return m && isDate(m[1]) && +m[2] < 24 && +m[3] < 60 && +m[4] < 61 ? undefined : 'a date and time such as 2024-12-31T23:59:59Z (RFC 3339)';
  },
};

function validateFormat(format: unknown, s: string): any {
  const name = text('Format', format);
  const bad = FORMATS[name](s);
  return bad ? optional(true, [`${JSON.stringify(s)} is not ${bad}`]) : optional(false);
}

const FORMAT_FUNCS: CelFunc[] = [
  ...Object.keys(FORMATS).map((name) => celFunc(`format.${name}`, [], DYN, () => wrap('Format', name))),
  celFunc('format.named', [S], DYN, (name) => (name in FORMATS ? optional(true, wrap('Format', name)) : optional(false))),
  celMethod('validate', DYN, [S], DYN, function (s) { return validateFormat(this, s); }),
  celFunc('optional.of', [DYN], DYN, (v) => optional(true, v)),
  celFunc('optional.none', [], DYN, () => optional(false)),
  celMethod('hasValue', DYN, [], B, function () { return optionalOf(this).has; }),
  celMethod('value', DYN, [], DYN, function () {
    const o = optionalOf(this);
    if (!o.has) throw new Error('optional.none() has no value');
    return o.value;
  }),
  celMethod('orValue', DYN, [DYN], DYN, function (v) { const o = optionalOf(this); return o.has ? o.value : v; }),
];

export const KUBERNETES_CEL_FUNCS: CelFunc[] = [
  ...FORMAT_FUNCS,
  // lists
  celMethod('isSorted', LIST, [], B, function () {
    let prev: unknown;
    let first = true;
    for (const x of this) {
      if (!first && compare(prev, x) > 0) return false;
      prev = x;
      first = false;
    }
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    let total: any;
    for (const x of this) {
      if (total === undefined) total = x;
      else if (typeof total === 'bigint' && typeof x === 'bigint') total += x;
      else if (typeof total === 'number' && typeof x === 'number') total += x;
      else throw new Error('sum() needs a list of ints or of doubles');
    }
    return total ?? 0n;
  }),
  celMethod('min', LIST, [], DYN, function () { return extreme(this, -1); }),
  celMethod('max', LIST, [], DYN, function () { return extreme(this, 1); }),
  celMethod('indexOf', LIST, [DYN], I, function (x) { return indexIn(this, x, false); }),
  celMethod('lastIndexOf', LIST, [DYN], I, function (x) { return indexIn(this, x, true); }),
  // regex (the pattern is RE2; JavaScript's dialect is close for the common cases)
  celMethod('find', S, [S], S, function (re) { return new RegExp(re).exec(this)?.[0] ?? ''; }),
  celMethod('findAll', S, [S], listType(S), function (re) { return [...this.matchAll(new RegExp(re, 'g'))].map((m) => m[0]); }),
  celMethod('findAll', S, [S, I], listType(S), function (re, n) {
    const all = [...this.matchAll(new RegExp(re, 'g'))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  }),
  // quantity
  celFunc('quantity', [S], DYN, quantity),
  celFunc('isQuantity', [S], B, (s) => parseQuantity(s) !== undefined),
  celMethod('sign', DYN, [], I, function () { return BigInt(Math.sign(quantityValue(this))); }),
  celMethod('isInteger', DYN, [], B, function () { return Number.isInteger(quantityValue(this)); }),
  celMethod('asInteger', DYN, [], I, function () {
    const v = quantityValue(this);
    if (!Number.isSafeInteger(v)) throw new Error('the quantity is not an integer that fits in an int64');
    return BigInt(v);
  }),
  celMethod('asApproximateFloat', DYN, [], F, function () { return quantityValue(this); }),
  celMethod('add', DYN, [DYN], DYN, function (o) { return fromNumber(quantityValue(this) + quantityValue(o)); }),
  celMethod('sub', DYN, [DYN], DYN, function (o) { return fromNumber(quantityValue(this) - quantityValue(o)); }),
  celMethod('compareTo', DYN, [DYN], I, function (o) { return BigInt(Math.sign(quantityValue(this) - quantityValue(o))); }),
  celMethod('isLessThan', DYN, [DYN], B, function (o) { return quantityValue(this) < quantityValue(o); }),
  celMethod('isGreaterThan', DYN, [DYN], B, function (o) { return quantityValue(this) > quantityValue(o); }),
  // URL
  celFunc('url', [S], DYN, url),
  celFunc('isURL', [S], B, isUrl),
  celMethod('getScheme', DYN, [], S, function () { return partOf(this).scheme; }),
  celMethod('getHost', DYN, [], S, function () { return partOf(this).host; }),
  celMethod('getHostname', DYN, [], S, function () { return partOf(this).hostname; }),
  celMethod('getPort', DYN, [], S, function () { return partOf(this).port; }),
  celMethod('getEscapedPath', DYN, [], S, function () { return partOf(this).path; }),
  celMethod('getQuery', DYN, [], mapType(S, listType(S)), function () { return query(partOf(this).query); }),
  // IP and CIDR
  celFunc('ip', [S], DYN, ip),
  celFunc('isIP', [S], B, (s) => safe(() => ip(s))),
  celFunc('cidr', [S], DYN, cidr),
  celFunc('isCIDR', [S], B, (s) => safe(() => cidr(s))),
  celMethod('family', DYN, [], I, function () { return ipBytes(this).length === 4 ? 4n : 6n; }),
  celMethod('isUnspecified', DYN, [], B, function () { return ipBytes(this).every((b) => b === 0); }),
  celMethod('isLoopback', DYN, [], B, function () {
    const b = ipBytes(this);
    return b.length === 4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  }),
  celMethod('isLinkLocalMulticast', DYN, [], B, function () {
    const b = ipBytes(this);
    return b.length === 4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 2;
  }),
  celMethod('isLinkLocalUnicast', DYN, [], B, function () {
    const b = ipBytes(this);
    return b.length === 4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80;
  }),
  celMethod('isGlobalUnicast', DYN, [], B, function () {
    const b = ipBytes(this);
    if (b.length === 4) return !(b[0] === 0 || b[0] === 127 || b[0] >= 224 || (b[0] === 169 && b[1] === 254) || b.every((x) => x === 255));
    return !(b.every((x) => x === 0) || (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) || b[0] === 0xff || (b[0] === 0xfe && (b[1] & 0xc0) === 0x80));
  }),
  celMethod('containsIP', DYN, [DYN], B, function (o) { const c = cidrOf(this); const b = ipBytes(o); return within(c, b, b.length * 8); }),
  celMethod('containsCIDR', DYN, [DYN], B, function (o) { const c = cidrOf(this); const d = cidrOf(o); return within(c, d.bytes, d.prefix); }),
  celMethod('ip', DYN, [], DYN, function () { return wrap('IP', formatIp(cidrOf(this).bytes)); }),
  celMethod('masked', DYN, [], DYN, function () { const c = cidrOf(this); return wrap('CIDR', `${formatIp(masked(c))}/${c.prefix}`); }),
  celMethod('prefixLength', DYN, [], I, function () { return BigInt(cidrOf(this).prefix); }),
];

/** Names of the Kubernetes library functions this module implements. */
export const KUBERNETES_CEL_NAMES: ReadonlySet<string> = new Set(KUBERNETES_CEL_FUNCS.map((f) => f.name));
