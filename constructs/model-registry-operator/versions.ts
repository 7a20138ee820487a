import { ImageSpec } from '../../lib/images';

/** The model registry operator release modelled: its flags, env names, CRD and RBAC. */
export const MODEL_REGISTRY_OPERATOR_VERSION = 'v0.3.8';

/**
 * Images of the operator and of the operands it deploys, one per image env of v0.3.8
 * (REST_IMAGE, OAUTH_PROXY_IMAGE, KUBE_RBAC_PROXY_IMAGE, POSTGRES_IMAGE, CATALOG_DATA_IMAGE,
 * BENCHMARK_DATA_IMAGE). The operator and REST images are v0.3.8's own defaults; upstream
 * names the others with `latest`, pinned here to release or channel tags their projects
 * publish. Override them through the platform's images.
 */
export type ModelRegistryImageKey = 'operator' | 'rest' | 'oauthProxy' | 'kubeRbacProxy' | 'postgres' | 'catalogData' | 'benchmarkData';

export const MODEL_REGISTRY_IMAGES: Readonly<Record<ModelRegistryImageKey, ImageSpec>> = Object.freeze({
  operator: { repository: 'quay.io/opendatahub/model-registry-operator', tag: MODEL_REGISTRY_OPERATOR_VERSION },
  rest: { repository: 'quay.io/opendatahub/model-registry', tag: MODEL_REGISTRY_OPERATOR_VERSION },
  oauthProxy: { repository: 'quay.io/openshift/origin-oauth-proxy', tag: '4.16' },
  kubeRbacProxy: { repository: 'quay.io/openshift/origin-kube-rbac-proxy', tag: '4.19' },
  postgres: { repository: 'quay.io/sclorg/postgresql-16-c10s', tag: '20250108' },
  /** The model catalog's source data. */
  catalogData: { repository: 'quay.io/opendatahub/odh-model-metadata-collection', tag: 'odh-stable' },
  /** The catalog's benchmark (performance) data: the same image upstream. */
  benchmarkData: { repository: 'quay.io/opendatahub/odh-model-metadata-collection', tag: 'odh-stable' },
});
