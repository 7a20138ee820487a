import { ImageSpec } from '../../lib/images';
import { KubernetesSupport } from '../../lib/kubernetes-version';

/**
 * Kueue release modelled here: v0.19.2 (the inventory's version). Upstream's kustomize and
 * Helm defaults point at staging images (`:main`, `:release-0.19`); releases are published
 * to registry.k8s.io with the release tag, which is what we pin.
 */
export const KUEUE_VERSION = 'v0.19.2';

/** Every image Kueue runs, by key (override with `<component id>/<key>` in the platform's images). */
export const KUEUE_IMAGES = {
  /** The manager: controllers, webhooks, certificate rotation and the visibility API server. */
  controller: { repository: 'registry.k8s.io/kueue/kueue', tag: KUEUE_VERSION },
} as const satisfies Record<string, ImageSpec>;

export type KueueImageKey = keyof typeof KUEUE_IMAGES;

/**
 * The Kubernetes versions Kueue runs on: 1.29 or newer, as its installation guide states.
 * Its CRDs (upstream's and ours) compile on a v1.28.7 API server; the guide is the fact.
 */
export const KUEUE_KUBERNETES: KubernetesSupport = {
  min: '1.29',
  feature: 'the Kubernetes its release supports (the installation guide asks for 1.29 or newer)',
  source: "Kueue's installation guide (site/content/en/docs/installation)",
  basis: 'release-documentation',
};
