/**
 * What `mlplatform list` and `mlplatform help` show of the default platforms, read without
 * creating any platform: cli/catalogue.json, written by scripts/gen-cli-catalogue.ts from
 * the platforms themselves (cli/catalogue-of.ts) and checked to be current by
 * test/cli/catalogue.test.ts. A platform of the user's (--app FILE) is listed from the
 * platform itself, with the same text.
 */
import CATALOGUE from './catalogue.json';
import type { CliIo } from './io';

/** One component as the listed platforms configure it (one entry per name, class and version). */
export interface CatalogueComponent {
  readonly name: string;
  readonly class: string;
  readonly version?: string;
  /** The platforms that deploy it, in listing order. */
  readonly platforms: readonly string[];
  /** Each namespace it is placed in, with the platforms that place it there. */
  readonly namespaces: ReadonlyArray<readonly [string, readonly string[]]>;
  /** Its Kubernetes support, in words ('' when it declares none). */
  readonly kubernetes: string;
  /** Each image (`key: image`) with the platforms that pull it. */
  readonly images: ReadonlyArray<readonly [string, readonly string[]]>;
}

export interface Catalogue {
  /** The platforms, in listing order. */
  readonly platforms: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  /** Sorted by name, class and version. */
  readonly components: readonly CatalogueComponent[];
}

/** The default platforms' catalogue (cli/catalogue.json). */
export function defaultCatalogue(): Catalogue {
  // JSON's arrays are not typed as the tuples they hold.
  return CATALOGUE as unknown as Catalogue;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `mlplatform list platforms|components|versions` of a catalogue. */
export function writeList(what: string, catalogue: Catalogue, io: CliIo): void {
  const names = catalogue.platforms.map((p) => p.name);
  if (what === 'platforms') {
    const width = Math.max(...names.map((n) => n.length));
    for (const p of catalogue.platforms) io.stdout.write(`${p.name.padEnd(width)}  ${p.description}\n`);
    return;
  }
  // versions: one line per (component, key, image), with every platform that deploys it: a
  // component placed in several namespaces pulls the same images.
  const versions = new Map<string, Set<string>>();
  for (const c of catalogue.components) {
    if (what === 'components') {
      const namespaces = c.namespaces.length === 1 ? `namespace ${c.namespaces[0][0]}`
        : `namespaces ${c.namespaces.map(([ns, ps]) => `${ns} (${ps.join(', ')})`).join(', ')}`;
      io.stdout.write(`${c.name} (${c.class}) ${c.version ?? '-'}  ${namespaces}  platforms: ${c.platforms.join(', ')}\n`);
      if (c.kubernetes) io.stdout.write(`  ${c.kubernetes}\n`);
      for (const [i, ps] of [...c.images].sort(([a], [b]) => byText(a, b))) {
        io.stdout.write(`  ${i}${ps.length < c.platforms.length ? `  (${ps.join(', ')})` : ''}\n`);
      }
    } else {
      for (const [i, ps] of c.images) {
        const [k, image] = [i.slice(0, i.indexOf(': ')), i.slice(i.indexOf(': ') + 2)];
        const line = `${c.name}\t${k}\t${image}`;
        const platforms = versions.get(line) ?? new Set<string>();
        for (const p of ps) platforms.add(p);
        versions.set(line, platforms);
      }
    }
  }
  for (const [line, platforms] of versions) io.stdout.write(`${line}\t${names.filter((p) => platforms.has(p)).join(',')}\n`);
}
