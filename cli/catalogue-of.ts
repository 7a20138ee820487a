import type { Catalogue, CatalogueComponent } from './catalogue';
import { architectureOf } from '../lib/architecture';
import { DEFAULT_KUBERNETES_VERSION, kubernetesRangeText, OLDEST_KUBERNETES_VERSION } from '../lib/kubernetes-version';
import type { Platform } from '../lib/platform';

/** A platform to list: its name, one line about it, and the platform (created when listed). */
export interface ListedPlatform {
  readonly name: string;
  readonly description: string;
  create(): Platform;
}

/**
 * The catalogue of platforms: each component as the platforms configure it (resolved, not
 * checked), one entry per component (and version): the namespaces it is placed in and the
 * images it pulls, each with its platforms.
 */
export function catalogueOf(listed: readonly ListedPlatform[]): Catalogue {
  const seen = new Map<string, { name: string; version?: string; class: string; namespaces: Map<string, string[]>; kubernetes: string; images: Map<string, string[]>; platforms: string[] }>();
  for (const p of listed) {
    const model = p.create().resolve();
    const support = new Map(model.components.map((c) => [c.componentName, c.kubernetes]));
    for (const c of architectureOf(model).components) {
      const k8s = support.get(c.name);
      // A component that needs nothing newer than the oldest modelled Kubernetes says so plainly (platforms target a newer one by default).
      const kubernetes = !k8s ? '' : k8s.min === OLDEST_KUBERNETES_VERSION && !k8s.max
        ? `Kubernetes >= ${k8s.min}: runs on every Kubernetes modelled here (platforms target ${DEFAULT_KUBERNETES_VERSION} by default)`
        : `Kubernetes ${kubernetesRangeText(k8s)} (${k8s.feature})`;
      const key = `${c.name} ${c.class} ${c.version}`;
      const entry = seen.get(key)
        ?? { name: c.name, version: c.version, class: c.class, namespaces: new Map<string, string[]>(), kubernetes, images: new Map<string, string[]>(), platforms: [] as string[] };
      entry.platforms.push(p.name);
      entry.namespaces.set(c.namespace, [...(entry.namespaces.get(c.namespace) ?? []), p.name]);
      // Each image (`key: image`) with the platforms that use it (a feature a platform turns off uses fewer).
      for (const i of c.images) entry.images.set(`${i.key}: ${i.image}`, [...(entry.images.get(`${i.key}: ${i.image}`) ?? []), p.name]);
      seen.set(key, entry);
    }
  }
  const components: CatalogueComponent[] = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => ({
    name: c.name,
    class: c.class,
    ...(c.version !== undefined ? { version: c.version } : {}),
    platforms: c.platforms,
    namespaces: [...c.namespaces],
    kubernetes: c.kubernetes,
    images: [...c.images],
  }));
  return { platforms: listed.map((p) => ({ name: p.name, description: p.description })), components };
}

/** The catalogue file's text: one component per line (small diffs), a final newline. */
export function catalogueText(catalogue: Catalogue): string {
  return `{\n"platforms": ${JSON.stringify(catalogue.platforms)},\n"components": [\n${catalogue.components.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`;
}

/** The default platforms' catalogue, created from the platforms (what cli/catalogue.json must hold). */
export function defaultCatalogueOf(): Catalogue {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { App } = require('cdk8s') as typeof import('cdk8s');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DEFAULT_PLATFORMS } = require('../platforms/defaults') as typeof import('../platforms/defaults');
  return catalogueOf(DEFAULT_PLATFORMS.map((p) => ({ name: p.name, description: p.description, create: () => p.create(new App({ outdir: '/nonexistent/mlplatform' })) })));
}
