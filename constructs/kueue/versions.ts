import { ImageSpec } from '../../lib/images';

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
