import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, pendingCondition, poolObjectReference, X_GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

/**
 * inference.networking.x-k8s.io/v1alpha2 InferenceObjective: the priority of requests to a pool.
 * Modelled as of GIE v1.4.0; later moved to llm-d (inferenceobjectives.llm-d.ai).
 */
export const inferenceObjectiveCrd: CrdDefinition = {
  group: X_GROUP,
  kind: 'InferenceObjective',
  plural: 'inferenceobjectives',
  scope: CrdScope.NAMESPACED,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION },
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
        priority: s.integer().describe('Higher values are served first when the pool is saturated.'),
      }).named('InferenceObjectiveSpec'),
      status: s.object({
        conditions: metav1Conditions({ maxItems: 8 }).default([pendingCondition('Ready')]),
      }).named('InferenceObjectiveStatus'),
    }),
  }],
};
