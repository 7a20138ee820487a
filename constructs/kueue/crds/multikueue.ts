/** MultiKueueCluster and MultiKueueConfig (kueue.x-k8s.io): worker clusters of a MultiKueue manager. */
import { conditions, GROUP, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const clusterProfileRef = () => s.object({
  name: s.string({ minLength: 1, maxLength: 256 }).required(),
}).named('ClusterProfileReference').describe('A multicluster.x-k8s.io ClusterProfile giving access to the worker.');

function clusterVersion(v: Version): CrdVersion {
  const legacy = v === 'v1beta1';
  const kubeConfig = legacy
    ? s.object({
      location: s.string().required(),
      locationType: s.enum('Secret', 'Path').default('Secret').required(),
    }).named('KubeConfig')
    : s.object({
      location: s.string({ minLength: 1, maxLength: 256 }).required().describe('Name of a Secret in the Kueue namespace, or a file path.'),
      locationType: s.enum('Secret', 'Path').default('Secret'),
    }).named('KubeConfig');
  const spec = legacy
    ? s.object({ clusterProfileRef: clusterProfileRef(), kubeConfig: kubeConfig.required() }).named('MultiKueueClusterSpecV1beta1')
    : s.object({
      clusterSource: s.object({ clusterProfileRef: clusterProfileRef(), kubeConfig })
        .named('ClusterSource').required()
        .rule('has(self.kubeConfig) != has(self.clusterProfileRef)', 'set exactly one of kubeConfig and clusterProfileRef'),
    }).named('MultiKueueClusterSpec');
  return {
    name: v,
    storage: !legacy,
    deprecated: legacy || undefined,
    subresources: { status: true },
    printerColumns: [
      { name: 'Connected', type: 'string', jsonPath: ".status.conditions[?(@.type=='Active')].status", description: 'Whether the worker cluster is reachable' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    schema: s.object({ spec, status: s.object({ conditions: conditions(v) }).named('MultiKueueClusterStatus') }),
  };
}

export const multiKueueClusterCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MultiKueueCluster',
  plural: 'multikueueclusters',
  shortNames: ['mkc'],
  scope: CrdScope.CLUSTER,
  versions: [clusterVersion('v1beta1'), clusterVersion('v1beta2')],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};

function configVersion(v: Version): CrdVersion {
  const legacy = v === 'v1beta1';
  return {
    name: v,
    storage: !legacy,
    // Upstream does not mark v1beta1 of this kind deprecated (every other kind it does).
    schema: s.object({
      spec: legacy
        ? s.object({ clusters: s.array(s.string(), { listType: 'set', minItems: 1, maxItems: 20 }).required() }).named('MultiKueueConfigSpec')
        : s.object({
          // Upstream's bound on each name keeps the uniqueness rule within the API server's cost budget.
          clusters: s.array(s.string({ maxLength: 256 }), { listType: 'atomic', minItems: 1, maxItems: 20 }).required()
            .rule('size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0', 'clusters must not repeat a name')
            .describe('Names of the MultiKueueClusters workloads are dispatched to.'),
          quotaManagement: s.enum('Manual', 'Automated'),
        }).named('MultiKueueConfigSpec'),
    }),
  };
}

export const multiKueueConfigCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MultiKueueConfig',
  plural: 'multikueueconfigs',
  shortNames: ['mkconf'],
  scope: CrdScope.CLUSTER,
  versions: [configVersion('v1beta1'), configVersion('v1beta2')],
  conversion: { strategy: 'None', schemasDifferBecause: 'as upstream Kueue v0.19.2: v1beta1 stays served (deprecated) for reading old objects; fields new in v1beta2 are pruned when written through v1beta1' },
};
