import { ImageSpec } from '../../lib/images';

/**
 * The Kubeflow model registry release these images are pinned to. UNCONFIRMED: upstream's
 * kustomize names the server and UI images with `latest` (manifests/kustomize/options/ui/base
 * and base/); the tag below is the release tag we pin instead (the embedmd datastore, which
 * this component configures, is in the v0.3.x line). Override through the platform's images.
 */
export const MODEL_REGISTRY_VERSION = 'v0.3.0';

export type KubeflowModelRegistryImageKey = 'server' | 'ui' | 'mysql';

export const KUBEFLOW_MODEL_REGISTRY_IMAGES: Readonly<Record<KubeflowModelRegistryImageKey, ImageSpec>> = Object.freeze({
  server: { repository: 'ghcr.io/kubeflow/model-registry/server', tag: MODEL_REGISTRY_VERSION },
  ui: { repository: 'ghcr.io/kubeflow/model-registry/ui', tag: MODEL_REGISTRY_VERSION },
  /** The tag upstream's overlays/db kustomization sets for its MySQL. */
  mysql: { repository: 'mysql', tag: '8.0.39' },
});
