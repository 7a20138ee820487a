import type { ImageSpec } from './image-spec';
import type { VersionsTable } from './versions';

export type { ImageSpec } from './image-spec';

/** Platform-wide image settings: a registry mirror and per-image overrides. */
export interface ImageSettings {
  /**
   * Registry host (and optional path prefix) that replaces the registry of every image,
   * e.g. `mirror.example.com/ml`. `kserve/kserve-controller` (Docker Hub) becomes
   * `mirror.example.com/ml/kserve/kserve-controller`.
   * @default - images are pulled from their upstream registries
   */
  readonly registryMirror?: string;
  /**
   * Overrides keyed by `<component>/<image key>` (e.g. `kserve/controller`): another
   * repository, tag or digest.
   */
  readonly overrides?: Record<string, Partial<ImageSpec>>;
  /**
   * The versions data whose tags and digests apply over the components' TypeScript tables
   * (before `overrides`).
   * @default VersionsTable.DEFAULT (the repository's versions.json)
   */
  readonly versions?: VersionsTable;
}

/** Splits `quay.io/org/name` into registry and path; Docker Hub when there is no host. */
export function splitRegistry(repository: string): { registry?: string; path: string } {
  const first = repository.split('/')[0];
  if (repository.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    return { registry: first, path: repository.slice(first.length + 1) };
  }
  return { path: repository.includes('/') ? repository : `library/${repository}` };
}

const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * The image reference to put into a pod spec. Throws, naming the image key, the value
 * and the fix, when a tag or digest is malformed or `latest`.
 */
export function resolveImage(key: string, spec: ImageSpec, settings: ImageSettings = {}): string {
  const o = { ...spec, ...(settings.overrides?.[key]?.tag !== undefined && settings.overrides[key].digest === undefined ? { digest: undefined } : {}), ...(settings.overrides?.[key] ?? {}) };
  const last = (o.repository ?? '').split('/').pop() ?? '';
  if (!o.repository || /[\s@]/.test(o.repository) || last.includes(':')) {
    throw new Error(`image '${key}': repository '${o.repository}' must be a repository without tag or digest (e.g. quay.io/org/name); put the tag in 'tag'`);
  }
  if (!o.tag && !o.digest) throw new Error(`image '${key}': no tag or digest for ${o.repository}; pin a release tag or a sha256 digest`);
  if (o.tag !== undefined && (!TAG.test(o.tag) || o.tag === 'latest')) {
    throw new Error(`image '${key}': tag '${o.tag}' is not allowed; pin a release tag (not 'latest') matching ${TAG.source}`);
  }
  if (o.digest !== undefined && !DIGEST.test(o.digest)) {
    throw new Error(`image '${key}': digest '${o.digest}' must look like sha256:<64 hex characters>`);
  }
  let repo = o.repository;
  if (settings.registryMirror) {
    const mirror = settings.registryMirror.replace(/\/+$/, '');
    repo = `${mirror}/${splitRegistry(o.repository).path}`;
  }
  return o.digest ? `${repo}@${o.digest}` : `${repo}:${o.tag}`;
}
