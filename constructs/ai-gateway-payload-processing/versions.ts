import { ImageSpec } from '../../lib/images';

/**
 * Images of the AI gateway payload processor, as Open Data Hub ships it with
 * models-as-a-service. Upstream publishes it under a channel tag (odh-stable) rather than
 * release tags: pin a digest through the platform's image overrides for production.
 */
export const PAYLOAD_PROCESSING_IMAGES: Readonly<Record<'processor', ImageSpec>> = Object.freeze({
  processor: { repository: 'quay.io/opendatahub/odh-ai-gateway-payload-processing', tag: 'odh-stable' },
});
