import { createHash } from 'crypto';
import { App } from 'cdk8s';
import { Platform } from '../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../lib/synth';

/** Builds a platform made by `make` in a fresh App. */
export function build<P extends Platform>(make: (app: App) => P): PlatformBuild {
  return buildPlatform(make(new App({ outdir: '/nonexistent' })));
}

/** The error lines a build fails with, or [] when it succeeds. */
export function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    return (e as any).problems ?? [(e as Error).message];
  }
  return [];
}

/**
 * An object as pinned in full-output snapshots: CRD schemas are replaced by their size and
 * digest (they are hundreds of KiB; their fields are pinned by the CRD unit tests).
 */
export function pinnable(json: any): any {
  if (json.kind !== 'CustomResourceDefinition') return json;
  return {
    ...json,
    spec: {
      ...json.spec,
      versions: json.spec.versions.map((v: any) => {
        const text = JSON.stringify(v.schema.openAPIV3Schema);
        return { ...v, schema: { openAPIV3Schema: `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 16)} (${text.length} bytes)` } };
      }),
    },
  };
}
