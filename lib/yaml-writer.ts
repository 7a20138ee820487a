import { stringify } from 'yaml';
import { isSharedJson, SharedMemo } from './subtree-sharing';

/**
 * The YAML writer of synth: the output of the `yaml` package's
 * `stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })`, byte for byte, for the
 * data we write (JSON data: objects, arrays, strings, finite numbers, booleans, null), in
 * a fraction of the time: no document model is built, each value is written once.
 *
 * It follows the package's rules for this subset (YAML 1.2 core schema, block style,
 * two-space indent, sequences indented under their key, no line folding): plain scalars
 * where they read back as the same string, else double quotes (single quotes when the
 * text has double quotes and no single ones), literal block scalars for multi-line
 * strings, `{}` and `[]` for empty collections. Anything else (a root that is not an
 * object or a list, undefined inside a list, non-JSON values, keys longer than 1024
 * characters) is handed to the `yaml` package, so the output is always the package's.
 * test/lib/yaml-writer.test.ts compares both on every object of every platform and on
 * generated data.
 */
export function toYamlDocument(doc: unknown): string {
  return toYamlDocuments([doc]);
}

/** Several documents, separated by `---` lines. */
export function toYamlDocuments(docs: readonly unknown[]): string {
  // The pieces of the whole text, joined once: appending to one string instead would build a
  // tree of millions of small strings that V8 flattens at the end (and the GC walks meanwhile).
  const out: string[] = [];
  for (let i = 0; i < docs.length; i++) {
    if (i) out.push('---\n');
    const doc = docs[i];
    const start = out.length;
    if (doc !== null && typeof doc === 'object') {
      try {
        collection(doc, 0, out);
        out.push('\n');
        continue;
      } catch (e) {
        if (e !== UNSUPPORTED) throw e;
        out.length = start;
      }
    }
    out.push(stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  }
  return out.join('');
}

const INDENT_STEP = '  ';
/** Thrown on data outside the subset; the document is then written by the `yaml` package. */
const UNSUPPORTED = new Error('unsupported by the fast YAML writer');

/** The indent of each depth, and a line break followed by it. */
const INDENTS: string[] = [''];
const BREAKS: string[] = ['\n'];
function indentOf(depth: number): string {
  while (INDENTS.length <= depth) {
    INDENTS.push(INDENTS[INDENTS.length - 1] + INDENT_STEP);
    BREAKS.push(`\n${INDENTS[INDENTS.length - 1]}`);
  }
  return INDENTS[depth];
}

/**
 * The text of shared subtrees (lib/subtree-sharing.ts) by depth: a CRD schema embedded in many
 * places (a core PodSpec) is written once per depth it appears at. A subtree's text is its own
 * pieces, joined, concatenated with the texts of the shared subtrees in it: V8 keeps such a
 * concatenation as references to its parts, so that nested shared subtrees are not copied into
 * each other's text (they would be held many times over: ~90 MB for opendatahub's CRDs).
 */
const sharedText = new SharedMemo<string>();
/** Where the texts of shared subtrees are among the pieces of a shared subtree being written. */
const sharedPieces = new WeakMap<string[], number[]>();

/** Appends a collection whose lines after the first are indented `depth` steps. */
function collection(value: object, depth: number, out: string[]): void {
  if (!isSharedJson(value)) {
    collectionOf(value, depth, out);
    return;
  }
  let text = sharedText.get(value, depth);
  if (text === undefined) {
    const own: string[] = [];
    const inner: number[] = [];
    sharedPieces.set(own, inner);
    collectionOf(value, depth, own);
    text = '';
    let from = 0;
    for (const at of inner) {
      text = text + own.slice(from, at).join('') + own[at];
      from = at + 1;
    }
    text = text + (from ? own.slice(from) : own).join('');
    sharedText.set(value, depth, text);
  }
  sharedPieces.get(out)?.push(out.length);
  out.push(text);
}

function collectionOf(value: object, depth: number, out: string[]): void {
  indentOf(depth + 1);
  const br = BREAKS[depth];
  if (Array.isArray(value)) {
    if (!value.length) {
      out.push('[]');
      return;
    }
    for (let i = 0; i < value.length; i++) {
      if (i) out.push(br);
      const v = value[i];
      if (v === undefined) throw UNSUPPORTED;
      out.push('- ');
      node(v, depth + 1, out);
    }
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw UNSUPPORTED;
  let first = true;
  for (const k in value) {
    const v: unknown = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (!first) out.push(br);
    first = false;
    out.push(keyString(k, depth + 1));
    if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length : hasKeys(v))) {
      out.push(BREAKS[depth + 1]);
      collection(v, depth + 1, out);
    } else {
      out.push(' ');
      node(v, depth + 1, out);
    }
  }
  if (first) out.push('{}');
}

function hasKeys(o: object): boolean {
  for (const k in o) if ((o as Record<string, unknown>)[k] !== undefined) return true;
  return false;
}

/** Appends a value whose lines after the first are indented `depth` steps. */
function node(v: unknown, depth: number, out: string[]): void {
  switch (typeof v) {
    case 'string': out.push(scalarString(v, false, INDENTS[depth])); return;
    case 'number':
      if (!Number.isFinite(v)) throw UNSUPPORTED;
      out.push(Object.is(v, -0) ? '-0' : JSON.stringify(v));
      return;
    case 'boolean': out.push(v ? 'true' : 'false'); return;
    case 'object':
      if (v === null) out.push('null');
      else collection(v, depth, out);
      return;
    default: throw UNSUPPORTED;
  }
}

/** Keys with their colon; a key's rendering depends on its indent only when it could read as a document marker. */
const keyCache = new Map<string, string>();

/** A mapping key and its colon, as the package writes it at this depth (its lines indented `depth` steps). */
function keyString(k: string, depth: number): string {
  let hit = keyCache.get(k);
  if (hit !== undefined) return hit;
  const key = scalarString(k, true, INDENTS[depth]);
  if (key.length > 1024) throw UNSUPPORTED;
  hit = `${key}:`;
  if (!DOCUMENT_MARKER.test(k) && keyCache.size < 100_000) keyCache.set(k, hit);
  return hit;
}

// ---- strings (the package's stringifyString, for block context and no folding) ----

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;
const INDICATOR = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/** The tests of the core schema's non-string tags: a plain scalar matching one would not read back as a string. */
export const CORE_TAG_TESTS: readonly RegExp[] = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
const MIN_MULTILINE_DOUBLE_QUOTED = 40;

/** Single-line value strings, whose rendering does not depend on the indent. */
const plainCache = new Map<string, string>();

function scalarString(value: string, implicitKey: boolean, indent: string): string {
  if (!implicitKey && !value.includes('\n')) {
    let hit = plainCache.get(value);
    if (hit === undefined) {
      hit = renderString(value, false, indent);
      if (plainCache.size < 100_000) plainCache.set(value, hit);
    }
    return hit;
  }
  return renderString(value, implicitKey, indent);
}

function renderString(value: string, implicitKey: boolean, indent: string): string {
  if (CONTROL.test(value)) return doubleQuoted(value, implicitKey, indent);
  return plain(value, implicitKey, indent);
}

function plain(value: string, implicitKey: boolean, indent: string): string {
  if (implicitKey && value.includes('\n')) return quoted(value, implicitKey, indent);
  if (INDICATOR.test(value)) {
    return implicitKey || !value.includes('\n') ? quoted(value, implicitKey, indent) : block(value, implicitKey, indent);
  }
  if (!implicitKey && value.includes('\n')) return block(value, implicitKey, indent);
  if (DOCUMENT_MARKER.test(value) && implicitKey && indent === INDENT_STEP) return quoted(value, implicitKey, indent);
  for (const test of CORE_TAG_TESTS) if (test.test(value)) return quoted(value, implicitKey, indent);
  return value;
}

function quoted(value: string, implicitKey: boolean, indent: string): string {
  const hasDouble = value.includes('"');
  const hasSingle = value.includes('\'');
  return hasDouble && !hasSingle ? singleQuoted(value, implicitKey, indent) : doubleQuoted(value, implicitKey, indent);
}

function singleQuoted(value: string, implicitKey: boolean, indent: string): string {
  if ((implicitKey && value.includes('\n')) || /[ \t]\n|\n[ \t]/.test(value)) return doubleQuoted(value, implicitKey, indent);
  const ind = indent || (DOCUMENT_MARKER.test(value) ? '  ' : '');
  return `'${value.replace(/'/g, '\'\'').replace(/\n+/g, `$&\n${ind}`)}'`;
}

const ESCAPES: Record<string, string> = { '0000': '\\0', '0007': '\\a', '000b': '\\v', '001b': '\\e', '0085': '\\N', '00a0': '\\_', '2028': '\\L', '2029': '\\P' };

function doubleQuoted(value: string, implicitKey: boolean, indent: string): string {
  const json = JSON.stringify(value);
  const ind = indent || (DOCUMENT_MARKER.test(value) ? '  ' : '');
  let str = '';
  let start = 0;
  for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
    if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
      str += `${json.slice(start, i)}\\ `;
      i += 1;
      start = i;
      ch = '\\';
    }
    if (ch === '\\') {
      switch (json[i + 1]) {
        case 'u': {
          str += json.slice(start, i);
          const code = json.substr(i + 2, 4);
          const esc = ESCAPES[code];
          if (esc) str += esc;
          else if (code.substr(0, 2) === '00') str += `\\x${code.substr(2)}`;
          else str += json.substr(i, 6);
          i += 5;
          start = i + 1;
          break;
        }
        case 'n':
          if (implicitKey || json[i + 2] === '"' || json.length < MIN_MULTILINE_DOUBLE_QUOTED) {
            i += 1;
          } else {
            str += `${json.slice(start, i)}\n\n`;
            while (json[i + 2] === '\\' && json[i + 3] === 'n' && json[i + 4] !== '"') {
              str += '\n';
              i += 2;
            }
            str += ind;
            if (json[i + 2] === ' ') str += '\\';
            i += 1;
            start = i + 1;
          }
          break;
        default:
          i += 1;
      }
    }
  }
  return start ? str + json.slice(start) : json;
}

const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;

/** A literal block scalar (with lineWidth 0 the package never folds). */
function block(value: string, implicitKey: boolean, indent: string): string {
  if (/\n[\t ]+$/.test(value)) return quoted(value, implicitKey, indent);
  const ind = indent || (DOCUMENT_MARKER.test(value) ? '  ' : '');
  if (!value) return '|\n';
  let endStart: number;
  for (endStart = value.length; endStart > 0; --endStart) {
    const ch = value[endStart - 1];
    if (ch !== '\n' && ch !== '\t' && ch !== ' ') break;
  }
  let end = value.substring(endStart);
  const endNlPos = end.indexOf('\n');
  let chomp: string;
  if (endNlPos === -1) chomp = '-';
  else if (value === end || endNlPos !== end.length - 1) chomp = '+';
  else chomp = '';
  if (end) {
    value = value.slice(0, -end.length);
    if (end[end.length - 1] === '\n') end = end.slice(0, -1);
    end = end.replace(BLOCK_END_NEWLINES, `$&${ind}`);
  }
  let startWithSpace = false;
  let startEnd: number;
  let startNlPos = -1;
  for (startEnd = 0; startEnd < value.length; ++startEnd) {
    const ch = value[startEnd];
    if (ch === ' ') startWithSpace = true;
    else if (ch === '\n') startNlPos = startEnd;
    else break;
  }
  let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
  if (start) {
    value = value.substring(start.length);
    start = start.replace(/\n+/g, `$&${ind}`);
  }
  const header = (startWithSpace ? (ind ? '2' : '1') : '') + chomp;
  return `|${header}\n${ind}${start}${value.replace(/\n+/g, `$&${ind}`)}${end}`;
}
