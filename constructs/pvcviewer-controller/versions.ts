import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/notebooks v1.11.0 (components/pvcviewer-controller). */
export const PVCVIEWER_CONTROLLER_VERSION = 'v1.11.0';

export const PVCVIEWER_CONTROLLER_IMAGES: Readonly<Record<'controller' | 'kubeRbacProxy', ImageSpec>> = Object.freeze({
  controller: { repository: 'ghcr.io/kubeflow/notebooks/pvcviewer-controller', tag: PVCVIEWER_CONTROLLER_VERSION },
  kubeRbacProxy: { repository: 'quay.io/brancz/kube-rbac-proxy', tag: 'v0.13.1' },
});
