import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

/**
 * llmd.ai/v1alpha1 VariantAutoscaling: one model variant (a Deployment serving a model on
 * one accelerator type) that the Workload Variant Autoscaler sizes. Modelled as of v0.5.1;
 * upstream main later replaced the CRD with annotations on HPA / KEDA objects.
 * Note the group: llmd.ai, without the hyphen of llm-d.ai.
 */
export const variantAutoscalingCrd: CrdDefinition = {
  group: 'llmd.ai',
  kind: 'VariantAutoscaling',
  plural: 'variantautoscalings',
  shortNames: ['va'],
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Target', type: 'string', jsonPath: '.spec.scaleTargetRef.name' },
      { name: 'Model', type: 'string', jsonPath: '.spec.modelID' },
      { name: 'Optimized', type: 'string', jsonPath: '.status.desiredOptimizedAlloc.numReplicas' },
      { name: 'MetricsReady', type: 'string', jsonPath: ".status.conditions[?(@.type=='MetricsAvailable')].status" },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        modelID: s.string({ minLength: 1 }).required().describe('The model the variant serves, as the model server names it.'),
        scaleTargetRef: s.object({
          apiVersion: s.string(),
          kind: s.string().required(),
          name: s.string().required(),
        }, { mapType: 'atomic' }).required().describe('The workload whose replicas the autoscaler sets.'),
        variantCost: s.string({ pattern: '^\\d+(\\.\\d+)?$' }).default('10.0').describe('Relative cost of one replica of this variant (a decimal).'),
      }).named('VariantAutoscalingSpec'),
      status: s.object({
        actuation: s.object({ applied: s.boolean().required() }),
        conditions: metav1Conditions(),
        desiredOptimizedAlloc: s.object({
          accelerator: s.string({ minLength: 2 }).required(),
          lastRunTime: s.dateTime(),
          numReplicas: s.integer({ minimum: 0 }).required(),
        }),
      }).named('VariantAutoscalingStatus'),
    }),
  }],
};
