/** ResourceFlavor (kueue.x-k8s.io): a kind of node (labels, taints, topology) quota is given for. */
import { GROUP, nodeTaints, objectRef, TAINT_EFFECT_RULE, tolerations, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const spec = s.object({
  nodeLabels: s.map(s.string(), { mapType: 'atomic', maxProperties: 8 }).describe('Labels of the nodes of this flavor (at most 8).'),
  nodeTaints: nodeTaints().rule(TAINT_EFFECT_RULE, "taint effect must be 'NoSchedule', 'PreferNoSchedule' or 'NoExecute'"),
  tolerations: tolerations({ atomic: true }).describe('Tolerations added to the pods admitted on this flavor.'),
  topologyName: objectRef().describe('The Topology of these nodes, for topology-aware scheduling.'),
}).named('ResourceFlavorSpec')
  .rule('!has(self.nodeLabels) || size(self.nodeLabels) <= 8', 'nodeLabels may hold at most 8 labels')
  .rule('!has(self.topologyName) || has(self.nodeLabels) && size(self.nodeLabels) >= 1', 'a flavor with a topologyName needs at least one nodeLabel')
  .rule('!has(oldSelf.topologyName) || self == oldSelf', 'the spec of a flavor with a topologyName is immutable')
  .rule('!has(self.nodeLabels) || self.nodeLabels.all(k, size(self.nodeLabels[k]) <= 63)', 'nodeLabels values must be label values (at most 63 characters)');

function version(v: Version): CrdVersion {
  return { name: v, storage: v === 'v1beta2', deprecated: v === 'v1beta1' || undefined, schema: s.object({ spec }) };
}

export const resourceFlavorCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ResourceFlavor',
  plural: 'resourceflavors',
  shortNames: ['flavor', 'flavors', 'rf'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
};
