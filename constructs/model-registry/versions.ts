import { ImageSpec } from '../../lib/images';

/**
 * The Kubeflow model registry release these images are pinned to. Upstream's kustomize names
 * the server and UI images with `latest` (base/, options/ui/base); we pin v0.3.7, the last
 * release published under ghcr.io/kubeflow/model-registry/* before the move to
 * ghcr.io/kubeflow/hub/* at v0.3.10 (seen for the UI in a community distribution's notes;
 * UNCONFIRMED for the server image). Its server has the embedmd datastore this component
 * configures. Override through the platform's images.
 */
export const MODEL_REGISTRY_VERSION = 'v0.3.7';

export type KubeflowModelRegistryImageKey = 'server' | 'ui' | 'mysql';

export const KUBEFLOW_MODEL_REGISTRY_IMAGES: Readonly<Record<KubeflowModelRegistryImageKey, ImageSpec>> = Object.freeze({
  server: { repository: 'ghcr.io/kubeflow/model-registry/server', tag: MODEL_REGISTRY_VERSION },
  ui: { repository: 'ghcr.io/kubeflow/model-registry/ui', tag: MODEL_REGISTRY_VERSION },
  /** The tag upstream's overlays/db kustomization sets for its MySQL at v0.3.7. */
  mysql: { repository: 'mysql', tag: '8.3' },
});
