import { inferenceGraphCrd } from './inference-graph';
import { inferenceServiceCrd } from './inference-service';
import { llmInferenceServiceConfigCrd, llmInferenceServiceCrd } from './llm-inference-service';
import { localModelCacheCrd, localModelNamespaceCacheCrd, localModelNodeCrd, localModelNodeGroupCrd } from './local-model';
import { clusterServingRuntimeCrd, servingRuntimeCrd } from './serving-runtime';
import { clusterStorageContainerCrd } from './storage-container';
import { trainedModelCrd } from './trained-model';
import { CrdDefinition } from '../../../lib/crd';

export {
  inferenceServiceCrd, inferenceGraphCrd, trainedModelCrd, servingRuntimeCrd, clusterServingRuntimeCrd,
  clusterStorageContainerCrd, llmInferenceServiceCrd, llmInferenceServiceConfigCrd,
  localModelCacheCrd, localModelNamespaceCacheCrd, localModelNodeGroupCrd, localModelNodeCrd,
};

/** The 12 serving.kserve.io CRDs. */
export const CRDS: CrdDefinition[] = [
  clusterServingRuntimeCrd,
  clusterStorageContainerCrd,
  inferenceGraphCrd,
  inferenceServiceCrd,
  llmInferenceServiceConfigCrd,
  llmInferenceServiceCrd,
  localModelCacheCrd,
  localModelNamespaceCacheCrd,
  localModelNodeGroupCrd,
  localModelNodeCrd,
  servingRuntimeCrd,
  trainedModelCrd,
];

/** The CRDs of the LocalModel add-on. */
export const LOCAL_MODEL_CRDS: CrdDefinition[] = [localModelCacheCrd, localModelNamespaceCacheCrd, localModelNodeGroupCrd, localModelNodeCrd];
