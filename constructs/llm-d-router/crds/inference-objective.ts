import { BUNDLE_VERSION_ANNOTATION, GROUP, LLM_D_ROUTER_VERSION } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';
import { pendingCondition, poolObjectReference } from '../../gateway-api-inference-extension/crds/common';

/**
 * llm-d.ai/v1alpha2 InferenceObjective: the priority of requests to an InferencePool. The
 * same API that the Gateway API Inference Extension served as inference.networking.x-k8s.io
 * up to v1.5; llm-d owns it from v1.6 on.
 */
export const inferenceObjectiveCrd: CrdDefinition = {
  group: GROUP,
  kind: 'InferenceObjective',
  plural: 'inferenceobjectives',
  scope: CrdScope.NAMESPACED,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: LLM_D_ROUTER_VERSION },
  versions: [{
    name: 'v1alpha2',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Inference Pool', type: 'string', jsonPath: '.spec.poolRef.name' },
      { name: 'Priority', type: 'string', jsonPath: '.spec.priority' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        poolRef: poolObjectReference.required(),
        priority: s.int32().describe('Higher values are served first when the pool is saturated.'),
      }).named('InferenceObjectiveSpec'),
      status: s.object({
        conditions: metav1Conditions({ maxItems: 8 }).default([pendingCondition('Ready')]),
      }).named('InferenceObjectiveStatus'),
    }),
  }],
};
