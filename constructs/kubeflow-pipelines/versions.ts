import { ImageSpec } from '../../lib/images';

/** Kubeflow Pipelines release modelled: 2.17.0. */
export const KFP_VERSION = '2.17.0';

export type KubeflowPipelinesImageKey =
  | 'apiServer' | 'persistenceAgent' | 'scheduledWorkflow' | 'frontend' | 'viewerController' | 'visualizationServer'
  | 'cacheServer' | 'metadataWriter' | 'metadataEnvoy' | 'metadataGrpc' | 'mysql' | 'seaweedfs'
  | 'metacontroller' | 'profileHookRuntime';

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
  // UNCONFIRMED (not in the inventory): the envoy image name follows the kfp-* naming of 2.17.0.
  metadataEnvoy: kfp('kfp-metadata-envoy'),
  // UNCONFIRMED (not in the inventory): the ML Metadata store server image and tag KFP 2.17.0 pins.
  metadataGrpc: { repository: 'gcr.io/tfx-oss-public/ml_metadata_store_server', tag: '1.14.0' },
  // UNCONFIRMED (not in the inventory): the MySQL image KFP 2.17.0 ships for its included database.
  mysql: { repository: 'mysql', tag: '8.4' },
  // UNCONFIRMED (not in the inventory): the SeaweedFS tag KFP 2.17.0 ships (3.67 appears in KFP's SeaweedFS manifests of 2025).
  seaweedfs: { repository: 'chrislusf/seaweedfs', tag: '3.67' },
  // Multi-user: metacontroller as KFP 2.17.0's third-party manifests pin it (inventory).
  metacontroller: { repository: 'ghcr.io/metacontroller/metacontroller', tag: 'v4.16.2' },
  // Multi-user: the stock Node.js image that runs our profile hook script (upstream runs its
  // Python script on a stock python image). Chosen here, not an upstream fact.
  profileHookRuntime: { repository: 'node', tag: '22.12.0-alpine' },
});
