/* eslint-disable no-bitwise */ // TypeScript's type and symbol flags are bit sets.
/**
 * Writes imports/prop-shapes.json: for every class of constructs/ and platforms/ that extends
 * Component or Platform (and Platform itself), the keys its props type declares, nested: what
 * lib/prop-keys.ts checks a construct's props against at run time, where nothing type-checks
 * them (plain JavaScript, props read from YAML), so that a misspelled key fails with "did you
 * mean" instead of being ignored. Derived from the TypeScript declarations with the TypeScript
 * compiler API, never listed by hand. Run with `npx projen gen:prop-shapes`; `--check` writes
 * nothing and exits 1 when regenerating would change the file.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import type { PropShape } from '../lib/prop-keys';

const ROOT = path.join(__dirname, '..');
const FILE = path.join(ROOT, 'imports', 'prop-shapes.json');
const program = ts.createProgram([path.join(ROOT, 'index.ts')], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, resolveJsonModule: true, esModuleInterop: true, skipLibCheck: true, noEmit: true });
const checker = program.getTypeChecker();
const BASES = new Set(['Component', 'Platform']);

function isOurs(sf: ts.SourceFile): boolean {
  const rel = path.relative(ROOT, sf.fileName);
  return /^(constructs|platforms|lib)\//.test(rel) && !rel.endsWith('.d.ts');
}

/** Whether a class extends Component or Platform, directly or not. */
function extendsBase(type: ts.Type): boolean {
  for (const base of type.getBaseTypes?.() ?? []) {
    if (BASES.has(base.symbol?.name ?? '') && isOurs(base.symbol!.declarations![0].getSourceFile())) return true;
    if (extendsBase(base)) return true;
  }
  return false;
}

function shapeOf(type: ts.Type, depth: number, seen: Set<ts.Type>): PropShape | 0 {
  if (depth > 8 || seen.has(type)) return 0;
  if (type.isUnion()) {
    const parts = type.types.map((t) => shapeOf(t, depth, seen)).filter((s): s is PropShape => s !== 0);
    if (!parts.length) return 0;
    // Keys of any member are accepted (a discriminated union checks the rest at its constructor).
    return parts.reduce(mergeShapes);
  }
  if (!(type.flags & ts.TypeFlags.Object)) return 0;
  const symbol = type.getSymbol();
  // Instances of classes (CertificateProvider, constructs) and functions are not plain data.
  if (symbol && symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Function | ts.SymbolFlags.Method)) return 0;
  if (type.getCallSignatures().length || type.getConstructSignatures().length) return 0;
  const next = new Set(seen).add(type);
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const args = checker.getTypeArguments(type as ts.TypeReference);
    const items = args.length ? args.map((a) => shapeOf(a, depth + 1, next)).filter((s): s is PropShape => s !== 0) : [];
    return items.length ? { items: items.reduce(mergeShapes) } : 0;
  }
  const index = checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
  if (index) {
    const values = shapeOf(index.type, depth + 1, next);
    return values ? { values } : 0;
  }
  // Built-in and library types (Date, Map, ...) are left alone.
  const decl = symbol?.declarations?.[0];
  if (decl && !isOurs(decl.getSourceFile()) && !decl.getSourceFile().fileName.includes('/imports/')) return 0;
  const keys: Record<string, PropShape | 0> = {};
  for (const p of checker.getPropertiesOfType(type)) {
    const pt = checker.getTypeOfSymbol(p);
    keys[p.name] = shapeOf(pt, depth + 1, next);
  }
  return { keys: Object.fromEntries(Object.entries(keys).sort(([a], [b]) => a.localeCompare(b))) };
}

function mergeShapes(a: PropShape, b: PropShape): PropShape {
  if (a.values || b.values) return { values: a.values ?? b.values };
  if (a.items || b.items) return a.items && b.items ? { items: mergeShapes(a.items, b.items) } : { items: a.items ?? b.items };
  const keys: Record<string, PropShape | 0> = { ...(a.keys ?? {}) };
  for (const [k, v] of Object.entries(b.keys ?? {})) keys[k] = keys[k] && v ? mergeShapes(keys[k] as PropShape, v) : (keys[k] || v);
  return { keys: Object.fromEntries(Object.entries(keys).sort(([x], [y]) => x.localeCompare(y))) };
}

const shapes: Record<string, PropShape> = {};
for (const sf of program.getSourceFiles()) {
  if (!isOurs(sf)) continue;
  ts.forEachChild(sf, (node) => {
    if (!ts.isClassDeclaration(node) || !node.name) return;
    const symbol = checker.getSymbolAtLocation(node.name);
    if (!symbol) return;
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const name = node.name.text;
    if (!extendsBase(type) && !(name === 'Platform' && path.relative(ROOT, sf.fileName) === 'lib/platform.ts')) return;
    const ctor = node.members.find(ts.isConstructorDeclaration);
    const param = ctor?.parameters[2];
    if (!param) return;
    const shape = shapeOf(checker.getTypeAtLocation(param), 0, new Set());
    if (shape && shape.keys) {
      if (shapes[name]) throw new Error(`two classes named ${name} take props: the prop table is keyed by class name`);
      shapes[name] = shape;
    }
  });
}
const text = `${JSON.stringify(Object.fromEntries(Object.entries(shapes).sort(([a], [b]) => a.localeCompare(b))))}\n`;
const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '';
if (process.argv.includes('--check')) {
  if (text !== current) {
    process.stderr.write('imports/prop-shapes.json is not in sync with the props types of the components and platforms: run `npx projen gen:prop-shapes`\n');
    process.exit(1);
  }
} else {
  fs.writeFileSync(FILE, text);
  process.stdout.write(`imports/prop-shapes.json: ${Object.keys(shapes).length} classes\n`);
}
