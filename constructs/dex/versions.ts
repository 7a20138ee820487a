import { ImageSpec } from '../../lib/images';

/** The release modelled: Dex v2.44.0, as kubeflow/manifests v1.11.0 installs it (common/dex). */
export const DEX_VERSION = 'v2.44.0';

export const DEX_IMAGES: Readonly<Record<'dex', ImageSpec>> = Object.freeze({
  dex: { repository: 'ghcr.io/dexidp/dex', tag: DEX_VERSION },
});
