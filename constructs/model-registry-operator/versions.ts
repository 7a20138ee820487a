import { ImageSpec } from '../../lib/images';

/**
 * Images of the model registry operator and the operands it deploys. Upstream's params.env
 * names every image with `latest`; these are pinned instead. The operator tag follows the
 * release branch Open Data Hub 3.4 builds from (release/v0.3.8); the operand tags are release
 * or channel tags published by their projects. Override them through the platform's images.
 */
export type ModelRegistryImageKey = 'operator' | 'modelRegistry' | 'oauthProxy' | 'kubeRbacProxy' | 'postgres' | 'modelMetadata' | 'asyncUpload';

export const MODEL_REGISTRY_IMAGES: Readonly<Record<ModelRegistryImageKey, ImageSpec>> = Object.freeze({
  operator: { repository: 'quay.io/opendatahub/model-registry-operator', tag: 'v0.3.8' },
  modelRegistry: { repository: 'quay.io/opendatahub/model-registry', tag: 'odh-stable' },
  oauthProxy: { repository: 'quay.io/openshift/origin-oauth-proxy', tag: '4.16' },
  kubeRbacProxy: { repository: 'quay.io/openshift/origin-kube-rbac-proxy', tag: '4.19' },
  postgres: { repository: 'quay.io/sclorg/postgresql-16-c10s', tag: '20250108' },
  /** Serves both the model metadata and the model performance data of the catalog. */
  modelMetadata: { repository: 'quay.io/opendatahub/odh-model-metadata-collection', tag: 'odh-stable' },
  asyncUpload: { repository: 'quay.io/opendatahub/model-registry-job-async-upload', tag: 'odh-stable' },
});
