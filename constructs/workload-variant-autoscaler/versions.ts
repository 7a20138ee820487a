import { ImageSpec } from '../../lib/images';

export const WVA_VERSION = 'v0.5.1';

/**
 * The Workload Variant Autoscaler v0.5.1. Upstream's kustomize default at that commit still
 * named v0.4.1; we pin the release we model.
 */
export const WVA_IMAGES: Readonly<Record<'controller', ImageSpec>> = {
  controller: { repository: 'ghcr.io/llm-d/llm-d-workload-variant-autoscaler', tag: WVA_VERSION },
};
