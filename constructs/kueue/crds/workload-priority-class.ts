/** WorkloadPriorityClass (kueue.x-k8s.io): a priority for workloads that does not touch pod priority. */
import { GROUP, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function version(v: Version): CrdVersion {
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    printerColumns: [{ name: 'Value', type: 'integer', jsonPath: '.value', description: 'Priority of the workloads of this class' }],
    // Top-level fields, like scheduling.k8s.io PriorityClass: no spec.
    schema: s.object({
      description: s.string(v === 'v1beta2' ? { maxLength: 2048 } : {}),
      value: s.int32().required().describe('Higher values are admitted (and preempt) first.'),
    }),
  };
}

export const workloadPriorityClassCrd: CrdDefinition = {
  group: GROUP,
  kind: 'WorkloadPriorityClass',
  plural: 'workloadpriorityclasses',
  shortNames: ['wpc'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'None', schemasDifferBecause: 'as upstream Kueue v0.19.2: v1beta1 stays served (deprecated) for reading old objects; fields new in v1beta2 are pruned when written through v1beta1' },
};
