import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { parse } from '@bufbuild/cel';
import { compileCel, parseCel } from '../../../lib/validation/cel';
import { CEL_TABLE_FILE, CelTable, celParserVersion, decodeTree, encodeTree, resetCelTable, tabledParse } from '../../../lib/validation/cel-table';

const table: CelTable = JSON.parse(fs.readFileSync(CEL_TABLE_FILE, 'utf8'));
const texts = Object.keys(table.expressions);

afterEach(() => resetCelTable());

describe('the CEL parse table (lib/validation/cel-parses.json)', () => {
  test('was written with the installed parser, else it is not read (`npx projen gen:cel-parses`)', () => {
    expect(table.parser).toBe(celParserVersion());
    expect(texts.length).toBeGreaterThan(100);
  });

  test('holds for each expression what the parser gives: the same values, keys in the same order', () => {
    for (const t of texts) {
      const parsed = parse(t);
      expect(JSON.stringify(table.expressions[t])).toBe(JSON.stringify(encodeTree(parsed)));
      const decoded = decodeTree(JSON.parse(JSON.stringify(table.expressions[t])));
      if (!isDeepStrictEqual(decoded, parsed)) throw new Error(`the table's tree of ${t} is not the parser's`);
    }
  });

  test('parseCel reads the table; an expression it does not hold is parsed', () => {
    const t = texts.find((x) => x.includes('self'))!;
    const fromTable = tabledParse(t);
    expect(fromTable).toBeDefined();
    expect(isDeepStrictEqual(fromTable, parse(t))).toBe(true);
    const other = 'self.size() == 12345 && self.startsWith("not-in-the-table")';
    expect(texts).not.toContain(other);
    expect(tabledParse(other)).toBeUndefined();
    expect(isDeepStrictEqual(parseCel(other), parse(other))).toBe(true);
    expect(typeof compileCel(other)).toBe('object');
  });

  test('a table written with another parser, or unreadable, is not read', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cel-table-'));
    const t = texts[0];
    const stale = path.join(dir, 'stale.json');
    fs.writeFileSync(stale, JSON.stringify({ ...table, parser: '@bufbuild/cel@0.0.1 @bufbuild/protobuf@2.0.0' }));
    resetCelTable(stale);
    expect(tabledParse(t)).toBeUndefined();
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, '{ not json');
    resetCelTable(broken);
    expect(tabledParse(t)).toBeUndefined();
    resetCelTable(path.join(dir, 'missing.json'));
    expect(tabledParse(t)).toBeUndefined();
    // The same file with the installed version is read.
    const current = path.join(dir, 'current.json');
    fs.writeFileSync(current, JSON.stringify(table));
    resetCelTable(current);
    expect(isDeepStrictEqual(tabledParse(t), parse(t))).toBe(true);
  });

  test('the encoding keeps what JSON has no form for', () => {
    const tree = { a: 1n, b: undefined, c: [-0, Infinity, NaN, -Infinity], d: new Uint8Array([0, 255, 7]), e: { nested: [null, 'x', true, 2.5] } };
    const back = decodeTree(JSON.parse(JSON.stringify(encodeTree(tree)))) as typeof tree;
    expect(isDeepStrictEqual(back, tree)).toBe(true);
    expect(Object.keys(back)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(Object.is(back.c[0], -0)).toBe(true);
    expect(() => encodeTree({ f: () => 1 })).toThrow(/function/);
    expect(() => encodeTree(new Map())).toThrow(/Map/);
  });
});
