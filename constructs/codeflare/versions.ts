import { ImageSpec } from '../../lib/images';

/**
 * The CodeFlare operator release line modelled here: Open Data Hub's fork
 * (opendatahub-io/codeflare-operator, v1.16.0 line), which embeds the AppWrapper
 * controller v1.1.2 and builds against KubeRay's ray.io/v1 API.
 */
export const CODEFLARE_VERSION = 'v1.16.0';

/** The AppWrapper release embedded in this CodeFlare line. */
export const CODEFLARE_EMBEDDED_APPWRAPPER_VERSION = 'v1.1.2';

export type CodeFlareImageKey = 'operator';

export const CODEFLARE_IMAGES: Readonly<Record<CodeFlareImageKey, ImageSpec>> = Object.freeze({
  // Upstream project-codeflare publishes quay.io/project-codeflare/codeflare-operator.
  operator: { repository: 'quay.io/opendatahub/codeflare-operator', tag: CODEFLARE_VERSION },
});
