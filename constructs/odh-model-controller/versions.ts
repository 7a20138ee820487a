import { ImageSpec } from '../../lib/images';

/**
 * Images of odh-model-controller as Open Data Hub 3.4 deploys it (params.env). Open Data Hub
 * publishes these under channel tags, not release tags: pin digests through the platform's
 * image overrides for production.
 */
export const ODH_MODEL_CONTROLLER_IMAGES: Readonly<Record<'controller' | 'modelServingApi' | 'rayTlsGenerator', ImageSpec>> = Object.freeze({
  controller: { repository: 'quay.io/opendatahub/odh-model-controller', tag: 'odh-incubating' },
  modelServingApi: { repository: 'quay.io/opendatahub/odh-model-serving-api', tag: 'odh-incubating' },
  // The init container the pod mutator adds to Ray-TLS pods (params.env ray-tls-generator-image).
  // Upstream names the moving `latest`; we pin the UBI 9.6 minor.
  rayTlsGenerator: { repository: 'registry.redhat.io/ubi9/ubi-minimal', tag: '9.6' },
});
