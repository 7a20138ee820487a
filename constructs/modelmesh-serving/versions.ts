import { ImageSpec } from '../../lib/images';

export const MODELMESH_VERSION = 'v0.12.0';

export type ModelMeshImageKey = 'controller' | 'modelmesh' | 'restProxy' | 'runtimeAdapter';

/**
 * Images of ModelMesh Serving v0.12.0. Upstream's manifests name the controller image with
 * `latest`, replaced at release; the three runtime-side images are the release's siblings
 * (their v0.12.0 tags are assumed from the joint release, not confirmed in the inventory).
 */
export const MODELMESH_IMAGES: Readonly<Record<ModelMeshImageKey, ImageSpec>> = {
  controller: { repository: 'kserve/modelmesh-controller', tag: MODELMESH_VERSION },
  modelmesh: { repository: 'kserve/modelmesh', tag: MODELMESH_VERSION },
  restProxy: { repository: 'kserve/rest-proxy', tag: MODELMESH_VERSION },
  runtimeAdapter: { repository: 'kserve/modelmesh-runtime-adapter', tag: MODELMESH_VERSION },
};
