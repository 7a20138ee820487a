import { RAY_GROUP } from './common';
import { rayClusterSpecV1, rayClusterSpecV1alpha1, rayClusterStatusV1, rayClusterStatusV1alpha1 } from './ray-cluster-spec';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** Printer columns of both versions (priority 1 shows with -o wide). */
const printerColumns: PrinterColumn[] = [
  { name: 'desired workers', type: 'integer', jsonPath: '.status.desiredWorkerReplicas' },
  { name: 'available workers', type: 'integer', jsonPath: '.status.availableWorkerReplicas' },
  { name: 'cpus', type: 'string', jsonPath: '.status.desiredCPU' },
  { name: 'memory', type: 'string', jsonPath: '.status.desiredMemory' },
  { name: 'gpus', type: 'string', jsonPath: '.status.desiredGPU' },
  { name: 'tpus', type: 'string', jsonPath: '.status.desiredTPU', priority: 1 },
  { name: 'status', type: 'string', jsonPath: '.status.state' },
  { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'head pod IP', type: 'string', jsonPath: '.status.head.podIP', priority: 1 },
  { name: 'head service IP', type: 'string', jsonPath: '.status.head.serviceIP', priority: 1 },
];

/** Why v1alpha1 may differ from v1 without a conversion webhook (shared by three kinds). */
export const V1ALPHA1_SCHEMAS_DIFFER =
  'v1alpha1 is deprecated and kept as upstream serves it (conversion None): objects written through it lose the fields v1 lacks, as on an upstream install';

/** ray.io RayCluster: a Ray head and worker groups. v1 stores; v1alpha1 is deprecated. */
export const rayClusterCrd: CrdDefinition = {
  group: RAY_GROUP,
  kind: 'RayCluster',
  plural: 'rayclusters',
  categories: ['all'],
  scope: CrdScope.NAMESPACED,
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.5' },
  conversion: { strategy: 'None', schemasDifferBecause: V1ALPHA1_SCHEMAS_DIFFER },
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: s.object({ spec: rayClusterSpecV1(), status: rayClusterStatusV1() }),
      subresources: { status: true },
      printerColumns,
    },
    {
      name: 'v1alpha1',
      storage: false,
      deprecated: true,
      schema: s.object({ spec: rayClusterSpecV1alpha1(), status: rayClusterStatusV1alpha1() }),
      subresources: { status: true },
      printerColumns,
    },
  ],
};
