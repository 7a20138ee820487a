import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, pendingCondition, poolObjectReference, X_GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

export const modelRewriteRule = s.object({
  matches: s.array(s.object({
    model: s.object({
      type: s.enum('Exact').default('Exact'),
      value: s.string({ minLength: 1 }).required().describe('The model name requested by the client.'),
    }).required(),
  })),
  targets: s.array(s.object({
    modelRewrite: s.string().required().describe('The model name sent to the model server.'),
    weight: s.int32({ minimum: 1, maximum: 1000000 }).describe('Share of traffic among the targets.'),
  }), { minItems: 1 }),
}).named('ModelRewriteRule');

/** What differs between the copies of InferenceModelRewrite that GIE and llm-d serve. */
export interface InferenceModelRewriteCrdOptions {
  /** API group, e.g. inference.networking.x-k8s.io (GIE up to v1.5) or llm-d.ai (llm-d router). */
  readonly group: string;
  /** Annotations stamped on the CRD (each project stamps its release under its own key). */
  readonly annotations: Record<string, string>;
}

/**
 * <group>/v1alpha2 InferenceModelRewrite: rewrites (and splits by weight) the model names
 * clients request from an InferencePool. One definition for both groups that serve it.
 */
export function inferenceModelRewriteCrdOf(o: InferenceModelRewriteCrdOptions): CrdDefinition {
  return {
    group: o.group,
    kind: 'InferenceModelRewrite',
    plural: 'inferencemodelrewrites',
    scope: CrdScope.NAMESPACED,
    annotations: o.annotations,
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
}

/**
 * inference.networking.x-k8s.io/v1alpha2 InferenceModelRewrite, as of GIE v1.4.0; later moved
 * to llm-d.
 */
export const inferenceModelRewriteCrd: CrdDefinition = inferenceModelRewriteCrdOf({
  group: X_GROUP,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION },
});
