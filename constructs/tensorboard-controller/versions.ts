import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/notebooks v1.11.0 (components/tensorboard-controller). */
export const TENSORBOARD_CONTROLLER_VERSION = 'v1.11.0';

export const TENSORBOARD_CONTROLLER_IMAGES: Readonly<Record<'controller' | 'kubeRbacProxy' | 'tensorboard', ImageSpec>> = Object.freeze({
  controller: { repository: 'ghcr.io/kubeflow/notebooks/tensorboard-controller', tag: TENSORBOARD_CONTROLLER_VERSION },
  kubeRbacProxy: { repository: 'quay.io/brancz/kube-rbac-proxy', tag: 'v0.8.0' },
  // The server each Tensorboard runs (the controller's TENSORBOARD_IMAGE), as upstream pins it.
  tensorboard: { repository: 'tensorflow/tensorflow', tag: '2.5.1' },
});
