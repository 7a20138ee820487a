import { IConstruct } from 'constructs';
import { reportProblem } from './problems';
import SHAPES from '../imports/prop-shapes.json';

/**
 * The keys a props type declares, nested (imports/prop-shapes.json, generated from the
 * TypeScript declarations by scripts/gen-prop-shapes.ts): `keys` for an interface (0: a value
 * not checked further), `items` for an array's elements, `values` for a record's values.
 */
export interface PropShape {
  readonly keys?: Readonly<Record<string, PropShape | 0>>;
  readonly items?: PropShape;
  readonly values?: PropShape;
}

const TABLE = SHAPES as Record<string, PropShape>;

/** The props shape of a component or platform class, by class name; undefined for classes the table does not know. */
export function propShapeOf(className: string): PropShape | undefined {
  return Object.prototype.hasOwnProperty.call(TABLE, className) ? TABLE[className] : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known key closest to an unknown one, if close enough to be a misspelling. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = k.toLowerCase() === key.toLowerCase() ? 0.5 : distance(key, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/**
 * The keys of a props object (and of the objects in it) that its type does not declare, each
 * as a problem naming the prop, the value, and the key meant ("did you mean") or the keys
 * allowed. Keys whose value is undefined are left alone.
 */
export function unknownPropProblems(props: unknown, shape: PropShape, where = 'props'): string[] {
  const problems: string[] = [];
  const walk = (value: unknown, s: PropShape, at: string) => {
    if (s.items && Array.isArray(value)) value.forEach((v, i) => walk(v, s.items!, `${at}[${i}]`));
    if (!isPlainObject(value)) return;
    if (s.values) {
      for (const [k, v] of Object.entries(value)) walk(v, s.values, `${at}['${k}']`);
      return;
    }
    if (!s.keys) return;
    const known = Object.keys(s.keys);
    for (const [k, v] of Object.entries(value)) {
      const inner = Object.prototype.hasOwnProperty.call(s.keys, k) ? s.keys[k] : undefined;
      if (inner !== undefined) {
        if (inner) walk(v, inner, `${at}.${k}`);
        continue;
      }
      if (v === undefined) continue;
      const meant = closestKey(k, known);
      const shown = JSON.stringify(v)?.slice(0, 60) ?? String(v);
      problems.push(`${at}.${k} (${shown}) is not a prop it takes, so it would be ignored; ${meant ? `did you mean '${meant}'?` : `it takes ${known.join(', ')}`}`);
    }
  };
  walk(props, shape, where);
  return problems;
}

/**
 * Checks a construct's props against the keys its class's props type declares (the generated
 * table, by class name): an unknown key is a problem (lib/problems.ts: collected in a
 * PlatformApp, thrown otherwise). Classes the table does not know (your own) are not checked.
 */
export function checkPropKeys(scope: IConstruct, className: string, props: unknown): void {
  const shape = propShapeOf(className);
  if (!shape) return;
  for (const p of unknownPropProblems(props, shape)) reportProblem(scope, p);
}
