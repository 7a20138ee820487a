import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/dashboard v2.0.0 (profile controller and access management). */
export const PROFILE_CONTROLLER_VERSION = 'v2.0.0';

export type ProfileControllerImageKey = 'controller' | 'kfam';

/** Images of the profile controller pod, by key. */
export const PROFILE_CONTROLLER_IMAGES: Readonly<Record<ProfileControllerImageKey, ImageSpec>> = Object.freeze({
  controller: { repository: 'ghcr.io/kubeflow/dashboard/profile-controller', tag: PROFILE_CONTROLLER_VERSION },
  kfam: { repository: 'ghcr.io/kubeflow/dashboard/access-management', tag: PROFILE_CONTROLLER_VERSION },
});
