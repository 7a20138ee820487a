import { BUNDLE_VERSION_ANNOTATION, GROUP, LLM_D_ROUTER_VERSION } from './common';
import { CrdDefinition } from '../../../lib/crd';
import { inferenceObjectiveCrdOf } from '../../gateway-api-inference-extension/crds/inference-objective';

/**
 * llm-d.ai/v1alpha2 InferenceObjective: the API that the Gateway API Inference Extension
 * served as inference.networking.x-k8s.io up to v1.5 (one definition, there); llm-d owns it
 * from v1.6 on. llm-d's schema declares spec.priority as int32.
 */
export const inferenceObjectiveCrd: CrdDefinition = inferenceObjectiveCrdOf({
  group: GROUP,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: LLM_D_ROUTER_VERSION },
  int32Priority: true,
});
