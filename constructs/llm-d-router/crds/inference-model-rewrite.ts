import { BUNDLE_VERSION_ANNOTATION, GROUP, LLM_D_ROUTER_VERSION } from './common';
import { CrdDefinition } from '../../../lib/crd';
import { inferenceModelRewriteCrdOf } from '../../gateway-api-inference-extension/crds/inference-model-rewrite';

/**
 * llm-d.ai/v1alpha2 InferenceModelRewrite: moved from inference.networking.x-k8s.io to llm-d;
 * one definition, in the Gateway API Inference Extension's crds/.
 */
export const inferenceModelRewriteCrd: CrdDefinition = inferenceModelRewriteCrdOf({
  group: GROUP,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: LLM_D_ROUTER_VERSION },
});
