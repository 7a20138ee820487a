import * as fs from 'fs';
import * as path from 'path';
import { packageVersion } from '../cache';

/**
 * The CEL parse table: the syntax trees of the CEL expressions the default platforms use
 * (x-kubernetes-validations rules and message expressions, admission policies' expressions),
 * parsed when the table was generated (scripts/gen-cel-parses.ts, `npx projen gen:cel-parses`)
 * and read here instead of parsing again: @bufbuild/cel's parser takes ~1 ms per expression,
 * ~170 ms for opendatahub's ~170 distinct expressions, reading them from the table ~10 ms.
 *
 * The table is a cache, never a source of truth: an expression it does not hold is parsed as
 * before, and a table written with another version of @bufbuild/cel or @bufbuild/protobuf (whose
 * trees could differ) is not read at all. The test task checks that it is current
 * (`gen-cel-parses.ts --check`), and test/lib/validation/cel-table.test.ts that each entry is
 * what the parser gives, the same values with the same keys in the same order.
 */

/** The table's file, next to this module (lib/validation, or build/lib/validation). */
export const CEL_TABLE_FILE = path.join(__dirname, 'cel-parses.json');

/** What the table holds: the parser it was written with, and the encoded tree of each expression. */
export interface CelTable {
  readonly parser: string;
  readonly expressions: Record<string, unknown>;
}

/** The parser the trees depend on: @bufbuild/cel and @bufbuild/protobuf (which builds its messages), by version. */
export function celParserVersion(): string {
  return ['@bufbuild/cel', '@bufbuild/protobuf'].map((name) => `${name}@${packageVersion(name)}`).join(' ');
}

let table: Record<string, unknown> | null | undefined;
let tableFile = CEL_TABLE_FILE;

/**
 * The syntax tree the table holds for an expression, as @bufbuild/cel's parse gives it;
 * undefined when the table does not hold it, is missing or unreadable, or was written with
 * another parser (the caller then parses). Each tree is decoded once: callers never change it.
 */
export function tabledParse(expr: string): unknown {
  if (table === undefined) table = readTable();
  if (!table || !Object.prototype.hasOwnProperty.call(table, expr)) return undefined;
  const encoded = table[expr];
  delete table[expr];
  return decodeTree(encoded);
}

function readTable(): Record<string, unknown> | null {
  try {
    const t = JSON.parse(fs.readFileSync(tableFile, 'utf8')) as CelTable;
    return t.parser === celParserVersion() && t.expressions && typeof t.expressions === 'object' ? t.expressions : null;
  } catch {
    return null;
  }
}

/** Forgets the table read, and reads `file` next time (tests). @internal */
export function resetCelTable(file: string = CEL_TABLE_FILE): void {
  table = undefined;
  tableFile = file;
}

// A tree as JSON: the values JSON has no form for are objects with one key that starts with NUL.
const TAG = '\u0000';
const UNDEFINED = `${TAG}u`;
const BIGINT = `${TAG}n`;
const NUMBER = `${TAG}d`;
const BYTES = `${TAG}b`;

/**
 * A syntax tree as JSON data, keeping every key (undefined values included) in its order:
 * bigints (expression ids, int64 constants), undefined, non-finite numbers and -0, and bytes
 * are tagged. Throws on anything else that is not plain data.
 */
export function encodeTree(v: unknown): unknown {
  if (v === undefined) return { [UNDEFINED]: 0 };
  switch (typeof v) {
    case 'bigint': return { [BIGINT]: v.toString() };
    case 'number': return Number.isFinite(v) && !Object.is(v, -0) ? v : { [NUMBER]: Object.is(v, -0) ? '-0' : String(v) };
    case 'string': case 'boolean': return v;
    case 'object': break;
    default: throw new Error(`cannot encode a ${typeof v} of a CEL syntax tree`);
  }
  if (v === null) return null;
  if (v instanceof Uint8Array) return { [BYTES]: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (Array.isArray(v)) return v.map(encodeTree);
  if (Object.getPrototypeOf(v) !== Object.prototype) throw new Error(`cannot encode a ${(v as object).constructor?.name} of a CEL syntax tree`);
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0].startsWith(TAG)) throw new Error('cannot encode a key that starts with NUL');
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = encodeTree((v as Record<string, unknown>)[k]);
  return out;
}

/** The tree encodeTree encoded (it reuses, and changes, the JSON data it is given). */
export function decodeTree(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = decodeTree(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0].charCodeAt(0) === 0) {
    const x = o[keys[0]];
    switch (keys[0]) {
      case UNDEFINED: return undefined;
      case BIGINT: return BigInt(x as string);
      case NUMBER: return x === '-0' ? -0 : Number(x);
      case BYTES: return new Uint8Array(Buffer.from(x as string, 'base64'));
      default: throw new Error(`unknown tag in the CEL parse table: ${JSON.stringify(keys[0])}`);
    }
  }
  for (const k of keys) o[k] = decodeTree(o[k]);
  return o;
}
