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

// The OCI distribution reference grammar (distribution/reference, as containerd and the
// kubelet parse image names):
//   reference      := name [ ":" tag ] [ "@" digest ]
//   name           := [ domain "/" ] path-component [ "/" path-component ]*   (255 characters at most)
//   domain         := host [ ":" port ]; host: DNS name components [a-zA-Z0-9-] joined by '.', or [IPv6]
//   path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
//   tag            := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
//   digest         := algorithm ":" hex (sha256: 64, sha512: 128 lower-case hex characters)
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const NAME = new RegExp(`^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`);
const MIRROR = new RegExp(`^${DOMAIN}(?:/${PATH_COMPONENT})*$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$/;
const NAME_MAX = 255;

/** How the grammar reads, for error messages. */
export const OCI_REFERENCE_GRAMMAR = {
  mirror: "host[:port][/path-component]... (the OCI distribution reference grammar: host a DNS name with a dot, 'localhost' or host:port, no scheme; " +
    "path components lower-case [a-z0-9] joined by '.', '_', '__' or '-'), e.g. mirror.example.com/ml",
  repository: "[host[:port]/]path-component[/path-component]... (the OCI distribution reference grammar: path components lower-case [a-z0-9] joined by '.', '_', '__' or '-'; " +
    `at most ${NAME_MAX} characters; no tag, digest or scheme), e.g. quay.io/org/name`,
  tag: "[A-Za-z0-9_][A-Za-z0-9_.-]{0,127} (the OCI distribution reference grammar), not 'latest'",
  digest: 'sha256:<64 lower-case hex characters> or sha512:<128> (the OCI distribution reference grammar)',
};

/** Problems of a registry mirror against the reference grammar (empty when it is valid). */
export function registryMirrorProblems(mirror: string): string[] {
  const m = typeof mirror === 'string' ? mirror.replace(/\/+$/, '') : mirror;
  if (typeof m !== 'string' || !MIRROR.test(m)) return [`registryMirror '${mirror}' must be ${OCI_REFERENCE_GRAMMAR.mirror}`];
  const host = m.split('/')[0];
  // Without a dot, a port or 'localhost', the first component is a Docker Hub namespace, not a registry.
  if (!(host.includes('.') || host.includes(':') || host === 'localhost')) {
    return [`registryMirror '${mirror}' must start with a registry host ('${host}' would be read as a Docker Hub namespace): ${OCI_REFERENCE_GRAMMAR.mirror}`];
  }
  return [];
}

/**
 * Problems of platform image settings (the mirror and every override) against the reference
 * grammar; each names the setting, the value and the form it must take.
 */
export function imageSettingsProblems(settings: ImageSettings): string[] {
  const problems: string[] = [];
  if (settings.registryMirror !== undefined) problems.push(...registryMirrorProblems(settings.registryMirror).map((p) => `images.${p}`));
  for (const [key, o] of Object.entries(settings.overrides ?? {})) {
    if (o.repository !== undefined && (typeof o.repository !== 'string' || !NAME.test(o.repository) || o.repository.length > NAME_MAX)) {
      problems.push(`images.overrides['${key}'].repository '${o.repository}' must be ${OCI_REFERENCE_GRAMMAR.repository}`);
    }
    if (o.tag !== undefined && (typeof o.tag !== 'string' || !TAG.test(o.tag) || o.tag === 'latest')) {
      problems.push(`images.overrides['${key}'].tag '${o.tag}' must be ${OCI_REFERENCE_GRAMMAR.tag}`);
    }
    if (o.digest !== undefined && (typeof o.digest !== 'string' || !DIGEST.test(o.digest))) {
      problems.push(`images.overrides['${key}'].digest '${o.digest}' must be ${OCI_REFERENCE_GRAMMAR.digest}`);
    }
  }
  return problems;
}

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
  if (!NAME.test(o.repository) || o.repository.length > NAME_MAX) {
    throw new Error(`image '${key}': repository '${o.repository}' must be ${OCI_REFERENCE_GRAMMAR.repository}`);
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
    const problems = registryMirrorProblems(settings.registryMirror);
    if (problems.length) throw new Error(`image '${key}': ${problems[0]}`);
    const mirror = settings.registryMirror.replace(/\/+$/, '');
    repo = `${mirror}/${splitRegistry(o.repository).path}`;
    if (repo.length > NAME_MAX) throw new Error(`image '${key}': '${repo}' is longer than the ${NAME_MAX} characters an image name may have (the OCI distribution reference grammar); use a shorter registryMirror`);
  }
  return o.digest ? `${repo}@${o.digest}` : `${repo}:${o.tag}`;
}
