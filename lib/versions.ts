import type { ImageSpec } from './image-spec';
import VERSIONS_FILE from '../versions.json';

/**
 * One image of one component in versions.json, the repository's versions table as data:
 * Renovate bumps `tag` (and `digest`); `npx projen gen:versions` regenerates the rest from
 * the components' TypeScript image tables.
 */
export interface VersionEntry {
  /** The component's id in the default platforms (e.g. kserve): the upstream project it models. */
  readonly component: string;
  /** The component's class (e.g. KServe): what synth looks entries up by. */
  readonly construct: string;
  /** The image key in the component's versions table (e.g. controller). */
  readonly key: string;
  readonly repository: string;
  /** The tag synth deploys (what Renovate bumps). */
  readonly tag?: string;
  /** sha256 digest synth deploys; wins over the tag. */
  readonly digest?: string;
  /**
   * The tag (`tag@digest` when the table pins a digest) of the component's TypeScript image
   * table: the upstream release the construct
   * (its CRD schemas, RBAC, flags) was modelled against. A deployed tag that differs from
   * it is shown in REPORT.md.
   */
  readonly modelled: string;
}

export interface VersionsFile {
  readonly images: readonly VersionEntry[];
}

/** What a component image resolves to once the versions file is applied. */
export interface ResolvedVersion {
  readonly spec: ImageSpec;
  /** The entry that set it (undefined when the component's own table did). */
  readonly entry?: VersionEntry;
}

/**
 * The versions table as data. Lookups go by a component's class, walking up its class
 * chain (a subclass of KServe uses KServe's entries), and image key.
 */
export class VersionsTable {
  /** The repository's versions.json (compiled in: no file is read at synth). */
  public static readonly DEFAULT = new VersionsTable(VERSIONS_FILE as VersionsFile);

  private readonly byKey = new Map<string, VersionEntry>();

  constructor(public readonly file: VersionsFile) {
    for (const e of file.images) this.byKey.set(`${e.construct}/${e.key}`, e);
  }

  /** The entry for an image of a component instance, or undefined. */
  public entryFor(component: object, key: string): VersionEntry | undefined {
    for (let c = component.constructor; c && c !== Object; c = Object.getPrototypeOf(c)) {
      const e = this.byKey.get(`${c.name}/${key}`);
      if (e) return e;
    }
    return undefined;
  }

  /**
   * A component image with the file's tag and digest applied over the TypeScript spec. The
   * file never changes the repository: an entry whose repository differs from the table's
   * is ignored (gen:versions --check reports it); repositories are changed with the
   * platform's image overrides.
   */
  public resolve(component: object, key: string, spec: ImageSpec): ResolvedVersion {
    const entry = this.entryFor(component, key);
    if (!entry || entry.repository !== spec.repository || (entry.tag === undefined && entry.digest === undefined)) return { spec };
    return { spec: { repository: spec.repository, tag: entry.tag, digest: entry.digest }, entry };
  }
}

/** An image whose deployed tag or digest differs from the release its construct was modelled against. */
export interface VersionDrift {
  readonly component: string;
  readonly key: string;
  readonly repository: string;
  readonly modelled: string;
  readonly deployed: string;
}

/** `tag`, `tag@digest` or `@digest`: how versions.json records a release. */
export function refOf(spec: { tag?: string; digest?: string }): string {
  return spec.digest ? `${spec.tag ?? ''}@${spec.digest}` : spec.tag ?? '';
}

/** Images of `components` whose versions.json entry differs from their TypeScript table. */
export function versionDrift(components: Array<{ componentName: string; images: Readonly<Record<string, ImageSpec>> }>, table: VersionsTable = VersionsTable.DEFAULT): VersionDrift[] {
  const out: VersionDrift[] = [];
  for (const c of components) {
    for (const [key, spec] of Object.entries(c.images)) {
      const { entry } = table.resolve(c, key, spec);
      if (!entry) continue;
      const modelled = refOf(spec);
      const deployed = refOf(entry);
      if (deployed !== modelled) out.push({ component: c.componentName, key, repository: spec.repository, modelled, deployed });
    }
  }
  return out;
}

/** The REPORT.md section on versions.json (empty when every image is at its modelled release). */
export function versionDriftReport(drift: VersionDrift[]): string {
  if (!drift.length) return '';
  const lines = ['', '## Versions data file', '',
    'These images run another release than the one their construct was modelled against (versions.json differs from the TypeScript table); check the upstream changes to CRDs, RBAC and flags:', ''];
  for (const d of drift) lines.push(`- ${d.component}/${d.key} ${d.repository}: ${d.deployed} (modelled ${d.modelled})`);
  return lines.join('\n') + '\n';
}

/** A component instance as the generator sees it. */
export interface VersionedComponent {
  readonly componentName: string;
  readonly constructor: { readonly name: string };
  readonly images: Readonly<Record<string, ImageSpec>>;
}

/**
 * versions.json entries for `components` (one per class and image key, sorted by component
 * and key), keeping the tag and digest of `previous` entries that Renovate bumped, as long as
 * the construct still models the same release and image. A construct re-modelled against a
 * new release resets its entries to that release. Throws when two instances of one class
 * disagree on an image.
 */
export function versionEntries(components: readonly VersionedComponent[], previous: VersionsFile = { images: [] }): VersionsFile {
  const old = new Map(previous.images.map((e) => [`${e.construct}/${e.key}`, e]));
  const seen = new Map<string, VersionEntry>();
  for (const c of components) {
    for (const [key, spec] of Object.entries(c.images)) {
      const id = `${c.constructor.name}/${key}`;
      const modelled = refOf(spec);
      const prior = seen.get(id);
      if (prior) {
        if (prior.repository !== spec.repository || prior.modelled !== modelled) {
          throw new Error(`${c.constructor.name} image '${key}' is ${spec.repository}:${modelled} in component '${c.componentName}' but ${prior.repository}:${prior.modelled} in '${prior.component}'; one class must have one versions table`);
        }
        continue;
      }
      const was = old.get(id);
      const keep = was && was.repository === spec.repository && was.modelled === modelled;
      const tag = keep ? was.tag : spec.tag;
      const digest = keep ? was.digest : spec.digest;
      seen.set(id, {
        component: c.componentName,
        construct: c.constructor.name,
        key,
        repository: spec.repository,
        ...(tag !== undefined ? { tag } : {}),
        ...(digest !== undefined ? { digest } : {}),
        modelled,
      });
    }
  }
  const images = [...seen.values()].sort((a, b) => cmp(a.component, b.component) || cmp(a.construct, b.construct) || cmp(a.key, b.key));
  return { images };
}

/** versions.json text: one field order, two-space indent, a final newline (stable for diffs and Renovate). */
export function versionsFileText(file: VersionsFile): string {
  // One field order for every entry: Renovate's pattern (renovate.json) relies on it.
  const images = file.images.map((e) => ({
    component: e.component, construct: e.construct, key: e.key, repository: e.repository, tag: e.tag, digest: e.digest, modelled: e.modelled,
  }));
  return JSON.stringify({ images }, null, 2) + '\n';
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
