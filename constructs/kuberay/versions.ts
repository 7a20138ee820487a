import { ImageSpec } from '../../lib/images';

/** The KubeRay release modelled (tag 2026-08-19). */
export const KUBERAY_VERSION = 'v1.7.0';

/** Every image the KubeRay component runs, by key. */
export const KUBERAY_IMAGES: Readonly<Record<'operator', ImageSpec>> = Object.freeze({
  operator: { repository: 'quay.io/kuberay/operator', tag: KUBERAY_VERSION },
});
