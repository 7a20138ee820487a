import { ImageSpec } from '../../lib/images';

/** The models-as-a-service release modelled (its CRDs and webhooks). */
export const MAAS_VERSION = 'v0.2.1';

/**
 * Images of models-as-a-service as Open Data Hub deploys it. Upstream publishes them under the
 * odh-stable channel tag rather than release tags: pin digests through the platform's image
 * overrides for production.
 */
export const MAAS_IMAGES: Readonly<Record<'controller' | 'maasApi' | 'payloadProcessing', ImageSpec>> = Object.freeze({
  controller: { repository: 'quay.io/opendatahub/maas-controller', tag: 'odh-stable' },
  /** The per-tenant API server maas-controller deploys. */
  maasApi: { repository: 'quay.io/opendatahub/maas-api', tag: 'odh-stable' },
  /** The per-tenant payload processor maas-controller deploys. */
  payloadProcessing: { repository: 'quay.io/opendatahub/odh-ai-gateway-payload-processing', tag: 'odh-stable' },
});
