import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, pendingCondition, poolObjectReference, X_GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

/** What differs between the copies of InferenceObjective that GIE and llm-d serve. */
export interface InferenceObjectiveCrdOptions {
  /** API group, e.g. inference.networking.x-k8s.io (GIE up to v1.5) or llm-d.ai (llm-d router). */
  readonly group: string;
  /** Annotations stamped on the CRD (each project stamps its release under its own key). */
  readonly annotations: Record<string, string>;
  /**
   * Whether spec.priority carries `format: int32`: llm-d's schema declares it, GIE v1.4.0's
   * does not (its Go field is a plain int).
   * @default false
   */
  readonly int32Priority?: boolean;
}

/**
 * <group>/v1alpha2 InferenceObjective: the priority of requests to an InferencePool. One
 * definition for both groups that serve it.
 */
export function inferenceObjectiveCrdOf(o: InferenceObjectiveCrdOptions): CrdDefinition {
  return {
    group: o.group,
    kind: 'InferenceObjective',
    plural: 'inferenceobjectives',
    scope: CrdScope.NAMESPACED,
    annotations: o.annotations,
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
          priority: (o.int32Priority ? s.int32() : s.integer()).describe('Higher values are served first when the pool is saturated.'),
        }).named('InferenceObjectiveSpec'),
        status: s.object({
          conditions: metav1Conditions({ maxItems: 8 }).default([pendingCondition('Ready')]),
        }).named('InferenceObjectiveStatus'),
      }),
    }],
  };
}

/**
 * inference.networking.x-k8s.io/v1alpha2 InferenceObjective, as of GIE v1.4.0; later moved to
 * llm-d (inferenceobjectives.llm-d.ai).
 */
export const inferenceObjectiveCrd: CrdDefinition = inferenceObjectiveCrdOf({
  group: X_GROUP,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION },
});
