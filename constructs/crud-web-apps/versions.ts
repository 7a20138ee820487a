import { ImageSpec } from '../../lib/images';

/** The release modelled: kubeflow/notebooks v1.11.0 (components/crud-web-apps, branch notebooks-v1). */
export const CRUD_WEB_APPS_VERSION = 'v1.11.0';

export const JUPYTER_WEB_APP_IMAGES: Readonly<Record<'webApp', ImageSpec>> = Object.freeze({
  webApp: { repository: 'ghcr.io/kubeflow/notebooks/jupyter-web-app', tag: CRUD_WEB_APPS_VERSION },
});

export const VOLUMES_WEB_APP_IMAGES: Readonly<Record<'webApp' | 'volumeViewer', ImageSpec>> = Object.freeze({
  webApp: { repository: 'ghcr.io/kubeflow/notebooks/volumes-web-app', tag: CRUD_WEB_APPS_VERSION },
  // The file browser each PVCViewer runs (the web app's VOLUME_VIEWER_IMAGE), as upstream pins it.
  volumeViewer: { repository: 'filebrowser/filebrowser', tag: 'v2.32.0' },
});

export const TENSORBOARDS_WEB_APP_IMAGES: Readonly<Record<'webApp', ImageSpec>> = Object.freeze({
  webApp: { repository: 'ghcr.io/kubeflow/notebooks/tensorboards-web-app', tag: CRUD_WEB_APPS_VERSION },
});
