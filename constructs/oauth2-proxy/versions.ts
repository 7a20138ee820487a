import { ImageSpec } from '../../lib/images';

/** The release modelled: oauth2-proxy v7.13.0, as kubeflow/manifests v1.11.0 installs it (common/oauth2-proxy). */
export const OAUTH2_PROXY_VERSION = 'v7.13.0';

export const OAUTH2_PROXY_IMAGES: Readonly<Record<'proxy', ImageSpec>> = Object.freeze({
  proxy: { repository: 'quay.io/oauth2-proxy/oauth2-proxy', tag: OAUTH2_PROXY_VERSION },
});
