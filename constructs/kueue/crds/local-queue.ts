/** LocalQueue (kueue.x-k8s.io): a namespace's entry point into a ClusterQueue. */
import {
  conditions, fairSharing, fairSharingStatus, flavorUsage, GROUP, nodeTaints, objectRef, stopPolicy, Version,
} from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function status(v: Version) {
  const legacy = v === 'v1beta1';
  return s.object({
    admittedWorkloads: s.int32(),
    conditions: conditions(v),
    fairSharing: fairSharingStatus(true),
    ...(legacy ? {
      flavorUsage: flavorUsage(false),
      flavors: s.array(s.object({
        name: objectRef().required(),
        nodeLabels: s.map(s.string(), { mapType: 'atomic', maxProperties: 8 }),
        nodeTaints: nodeTaints(),
        resources: s.array(s.string(), { listType: 'set', maxItems: 64 }),
        topology: s.object({
          levels: s.array(s.string(), { listType: 'atomic', minItems: 1, maxItems: 16 }).required(),
          name: objectRef().required(),
        }).named('TopologyInfo'),
      }).named('LocalQueueFlavorStatus'), { listType: 'map', listMapKeys: ['name'], maxItems: 64 }),
    } : { flavorsUsage: flavorUsage(false) }),
    flavorsReservation: flavorUsage(false),
    pendingWorkloads: s.int32(),
    reservingWorkloads: s.int32(),
  }).named(legacy ? 'LocalQueueStatusV1beta1' : 'LocalQueueStatus');
}

function version(v: Version): CrdVersion {
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    subresources: { status: true },
    printerColumns: [
      { name: 'ClusterQueue', type: 'string', jsonPath: '.spec.clusterQueue', description: 'ClusterQueue this LocalQueue submits to' },
      { name: 'Pending Workloads', type: 'integer', jsonPath: '.status.pendingWorkloads', description: 'Workloads waiting for admission' },
      { name: 'Admitted Workloads', type: 'integer', jsonPath: '.status.admittedWorkloads', description: 'Admitted workloads not yet finished' },
    ],
    schema: s.object({
      spec: s.object({
        clusterQueue: objectRef().rule('self == oldSelf', 'clusterQueue is immutable').describe('The ClusterQueue this queue submits to; cannot change.'),
        fairSharing: fairSharing(),
        stopPolicy: stopPolicy(),
      }).named('LocalQueueSpec'),
      status: status(v),
    }),
  };
}

export const localQueueCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LocalQueue',
  plural: 'localqueues',
  shortNames: ['queue', 'queues', 'lq'],
  scope: CrdScope.NAMESPACED,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};
