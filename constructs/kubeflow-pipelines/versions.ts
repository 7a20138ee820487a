import { ImageSpec } from '../../lib/images';

/** Kubeflow Pipelines release modelled: 2.17.0. */
export const KFP_VERSION = '2.17.0';

export type KubeflowPipelinesImageKey =
  | 'apiServer' | 'persistenceAgent' | 'scheduledWorkflow' | 'frontend' | 'viewerController' | 'visualizationServer'
  | 'cacheServer' | 'metadataWriter' | 'metadataEnvoy' | 'metadataGrpc' | 'mysql' | 'seaweedfs'
  | 'metacontroller' | 'profileHookRuntime' | 'driver' | 'launcher';

const kfp = (name: string): ImageSpec => ({ repository: `ghcr.io/kubeflow/${name}`, tag: KFP_VERSION });

export const KUBEFLOW_PIPELINES_IMAGES: Readonly<Record<KubeflowPipelinesImageKey, ImageSpec>> = Object.freeze({
  apiServer: kfp('kfp-api-server'),
  persistenceAgent: kfp('kfp-persistence-agent'),
  scheduledWorkflow: kfp('kfp-scheduled-workflow-controller'),
  frontend: kfp('kfp-frontend'),
  viewerController: kfp('kfp-viewer-crd-controller'),
  visualizationServer: kfp('kfp-visualization-server'),
  cacheServer: kfp('kfp-cache-server'),
  metadataWriter: kfp('kfp-metadata-writer'),
  // Checked at 2.17.0: manifests/kustomize/base/metadata/base (kfp-metadata-envoy, newTag 2.17.0).
  metadataEnvoy: kfp('kfp-metadata-envoy'),
  // Checked at 2.17.0: manifests/kustomize/base/metadata/base/metadata-grpc-deployment.yaml.
  metadataGrpc: { repository: 'gcr.io/tfx-oss-public/ml_metadata_store_server', tag: '1.14.0' },
  // Checked at 2.17.0: the platform-agnostic install's MySQL (third-party/mysql).
  mysql: { repository: 'mysql', tag: '8.4' },
  // Checked at 2.17.0: manifests/kustomize/third-party/seaweedfs/base/seaweedfs/seaweedfs-deployment.yaml.
  seaweedfs: { repository: 'ghcr.io/chrislusf/seaweedfs', tag: '4.34' },
  // The v2 driver and launcher every run's pods use: the API server passes them to the
  // compiler (V2_DRIVER_IMAGE, V2_LAUNCHER_IMAGE), else runs use :latest.
  driver: kfp('kfp-driver'),
  launcher: kfp('kfp-launcher'),
  // Multi-user: metacontroller as KFP 2.17.0's third-party manifests pin it (inventory).
  metacontroller: { repository: 'ghcr.io/metacontroller/metacontroller', tag: 'v4.16.2' },
  // Multi-user: the stock Node.js image that runs our profile hook script (upstream runs its
  // Python script on a stock python image). Chosen here, not an upstream fact.
  profileHookRuntime: { repository: 'node', tag: '22.12.0-alpine' },
});
