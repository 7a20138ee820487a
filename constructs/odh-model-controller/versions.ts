import { ImageSpec } from '../../lib/images';

/**
 * Images of odh-model-controller at release odh-v3.5-EA2 (its params.env), the release the
 * construct models (RBAC, webhooks, flags). Open Data Hub also publishes moving channel tags
 * (odh-incubating, odh-stable): a later build serves more webhooks than modelled here.
 */
export const ODH_MODEL_CONTROLLER_IMAGES: Readonly<Record<'controller' | 'modelServingApi' | 'rayTlsGenerator', ImageSpec>> = Object.freeze({
  controller: { repository: 'quay.io/opendatahub/odh-model-controller', tag: 'odh-v3.5-EA2' },
  modelServingApi: { repository: 'quay.io/opendatahub/odh-model-serving-api', tag: 'odh-v3.5-EA2' },
  // The init container the pod mutator adds to Ray-TLS pods (params.env ray-tls-generator-image).
  // Upstream names the moving `latest`; we pin the UBI 9.6 minor.
  rayTlsGenerator: { repository: 'registry.redhat.io/ubi9/ubi-minimal', tag: '9.6' },
});
