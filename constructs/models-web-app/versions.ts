import { ImageSpec } from '../../lib/images';

/**
 * The release modelled: kserve/models-web-app v0.15.0, as kubeflow/manifests v1.11.0 vendors it
 * (applications/kserve/models-web-app, image tag 0.15.0).
 */
export const MODELS_WEB_APP_VERSION = '0.15.0';

export const MODELS_WEB_APP_IMAGES: Readonly<Record<'webApp', ImageSpec>> = Object.freeze({
  webApp: { repository: 'ghcr.io/kserve/models-web-app', tag: MODELS_WEB_APP_VERSION },
});
