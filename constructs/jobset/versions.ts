import { ImageSpec } from '../../lib/images';

/** JobSet release modelled: v0.12.0, the release Kubeflow Trainer v2.3.0 bundles. */
export const JOBSET_VERSION = 'v0.12.0';

export type JobSetImageKey = 'controller';

export const JOBSET_IMAGES: Readonly<Record<JobSetImageKey, ImageSpec>> = Object.freeze({
  controller: { repository: 'registry.k8s.io/jobset/jobset', tag: JOBSET_VERSION },
});
