/** Topology (kueue.x-k8s.io): the node label hierarchy (block, rack, host) of topology-aware scheduling. */
import { GROUP, QUALIFIED_NAME, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const HOSTNAME = 'kubernetes.io/hostname';

const spec = s.object({
  levels: s.array(s.object({
    nodeLabel: s.string({ minLength: 1, maxLength: 316, pattern: QUALIFIED_NAME }).required(),
  }).named('TopologyLevel'), { listType: 'atomic', minItems: 1, maxItems: 16 }).required()
    .rule('self.all(l, self.exists_one(m, m.nodeLabel == l.nodeLabel))', 'each level must use a different nodeLabel')
    .rule(`size(self.filter(l, l.nodeLabel == '${HOSTNAME}')) == 0 || self[size(self) - 1].nodeLabel == '${HOSTNAME}'`, `${HOSTNAME} may only be the last (lowest) level`)
    .rule('self == oldSelf', 'levels are immutable')
    .describe('Node labels from the widest domain to the narrowest.'),
}).named('TopologySpec');

function version(v: Version): CrdVersion {
  return { name: v, storage: v === 'v1beta2', deprecated: v === 'v1beta1' || undefined, schema: s.object({ spec }) };
}

export const topologyCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Topology',
  plural: 'topologies',
  shortNames: ['topo'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
};
