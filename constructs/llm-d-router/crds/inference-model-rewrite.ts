import { BUNDLE_VERSION_ANNOTATION, GROUP, LLM_D_ROUTER_VERSION } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';
import { pendingCondition, poolObjectReference } from '../../gateway-api-inference-extension/crds/common';
import { modelRewriteRule } from '../../gateway-api-inference-extension/crds/inference-model-rewrite';

/**
 * llm-d.ai/v1alpha2 InferenceModelRewrite: rewrites (and splits by weight) the model names
 * clients request from an InferencePool. Moved from inference.networking.x-k8s.io to llm-d.
 */
export const inferenceModelRewriteCrd: CrdDefinition = {
  group: GROUP,
  kind: 'InferenceModelRewrite',
  plural: 'inferencemodelrewrites',
  scope: CrdScope.NAMESPACED,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: LLM_D_ROUTER_VERSION },
  versions: [{
    name: 'v1alpha2',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Inference Pool', type: 'string', jsonPath: '.spec.poolRef.name' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        poolRef: poolObjectReference.required(),
        rules: s.array(modelRewriteRule).required(),
      }).named('InferenceModelRewriteSpec'),
      status: s.object({
        conditions: metav1Conditions({ maxItems: 8 }).default([pendingCondition('Accepted')]),
      }).named('InferenceModelRewriteStatus'),
    }),
  }],
};
