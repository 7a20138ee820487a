/** ClusterQueue (kueue.x-k8s.io): cluster-wide quota by resource flavor, and the admission policy. */
import {
  conditions, fairSharing, fairSharingStatus, flavorUsage, GROUP, labelSelector, objectRef, resourceGroups, stopPolicy, Version,
} from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function spec(v: Version) {
  const cohort = v === 'v1beta2' ? 'cohortName' : 'cohort';
  const legacy = v === 'v1beta1';
  return s.object({
    ...(legacy ? { admissionChecks: s.array(s.string({ maxLength: 316 })).describe('AdmissionChecks every workload of this queue must pass (v1beta1 only).') } : {}),
    admissionChecksStrategy: s.object({
      admissionChecks: legacy
        ? s.array(s.object({
          name: s.string({ maxLength: 316 }).required(),
          onFlavors: s.array(objectRef()),
        }).named('AdmissionCheckStrategyRule'))
        : s.array(s.object({
          name: s.string({ minLength: 1, maxLength: 316 }).required(),
          onFlavors: s.array(objectRef(), { listType: 'set', maxItems: 64 }),
        }).named('AdmissionCheckStrategyRule'), { listType: 'map', listMapKeys: ['name'], minItems: 1, maxItems: 64 }).required(),
    }).named('AdmissionChecksStrategy').describe('Which AdmissionChecks apply to which flavors.'),
    admissionScope: s.object({
      admissionMode: (legacy ? s.string() : s.enum('UsageBasedAdmissionFairSharing', 'NoAdmissionFairSharing')).required(),
    }).named('AdmissionScope'),
    [cohort]: objectRef().describe('The cohort this queue borrows from and lends to.'),
    ...(legacy ? {} : {
      concurrentAdmissionPolicy: s.object({
        migration: s.object({
          constraints: s.object({ lastAcceptableFlavorName: objectRef() }).named('ConcurrentAdmissionConstraints'),
          mode: s.string({ enum: ['TryPreferredFlavors', 'RetainFirstAdmission'], maxLength: 253 }).required(),
        }).named('ConcurrentAdmissionMigration').required(),
      }).named('ConcurrentAdmissionPolicy'),
    }),
    fairSharing: fairSharing(),
    flavorFungibility: s.object({
      preference: s.enum('BorrowingOverPreemption', 'PreemptionOverBorrowing'),
      whenCanBorrow: s.enum('MayStopSearch', 'TryNextFlavor', ...(legacy ? ['Borrow'] : [])).default('MayStopSearch'),
      whenCanPreempt: s.enum('MayStopSearch', 'TryNextFlavor', ...(legacy ? ['Preempt'] : [])).default('TryNextFlavor'),
    }).named(legacy ? 'FlavorFungibilityV1beta1' : 'FlavorFungibility').default({})
      .rule("!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')",
        'preference applies only when both whenCanBorrow and whenCanPreempt are TryNextFlavor'),
    namespaceSelector: labelSelector().describe('Namespaces whose LocalQueues may use this queue ({} is all, unset is none).'),
    preemption: s.object({
      borrowWithinCohort: s.object({
        maxPriorityThreshold: s.int32(),
        policy: s.enum('Never', 'LowerPriority').default('Never'),
      }).named('BorrowWithinCohort').default({}),
      reclaimWithinCohort: s.enum('Never', 'LowerPriority', 'Any').default('Never'),
      withinClusterQueue: s.enum('Never', 'LowerPriority', 'LowerOrNewerEqualPriority').default('Never'),
    }).named('ClusterQueuePreemption').default({})
      .rule("!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) && self.borrowWithinCohort.policy != 'Never')",
        'borrowWithinCohort needs reclaimWithinCohort other than Never'),
    queueingStrategy: s.enum('StrictFIFO', 'BestEffortFIFO').default('BestEffortFIFO'),
    resourceGroups: resourceGroups(v),
    stopPolicy: stopPolicy(),
  }).named(legacy ? 'ClusterQueueSpecV1beta1' : 'ClusterQueueSpec')
    .rule(`has(self.${cohort}) || !has(self.resourceGroups) || self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit))))`,
      `borrowingLimit needs a cohort: set ${cohort} or remove borrowingLimit`);
}

function status(v: Version) {
  const legacy = v === 'v1beta1';
  return s.object({
    admittedWorkloads: s.int32(),
    conditions: conditions(v),
    fairSharing: fairSharingStatus(legacy),
    flavorsReservation: flavorUsage(true),
    flavorsUsage: flavorUsage(true),
    pendingWorkloads: s.int32(),
    ...(legacy ? {
      pendingWorkloadsStatus: s.object({
        clusterQueuePendingWorkload: s.array(s.object({ name: s.string().required(), namespace: s.string().required() }).named('ClusterQueuePendingWorkload'), { listType: 'atomic' }),
        lastChangeTime: s.dateTime().required(),
      }).named('ClusterQueuePendingWorkloadsStatus'),
    } : {}),
    reservingWorkloads: s.int32(),
  }).named(legacy ? 'ClusterQueueStatusV1beta1' : 'ClusterQueueStatus');
}

function version(v: Version): CrdVersion {
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    subresources: { status: true },
    // Priorities as in upstream's kubebuilder markers (Strategy and Admitted Workloads on -o wide).
    printerColumns: [
      { name: 'Cohort', type: 'string', jsonPath: v === 'v1beta2' ? '.spec.cohortName' : '.spec.cohort', description: 'Cohort this ClusterQueue belongs to' },
      { name: 'Strategy', type: 'string', jsonPath: '.spec.queueingStrategy', description: 'Queueing strategy that orders its workloads', priority: 1 },
      { name: 'Pending Workloads', type: 'integer', jsonPath: '.status.pendingWorkloads', description: 'Workloads waiting for admission' },
      { name: 'Admitted Workloads', type: 'integer', jsonPath: '.status.admittedWorkloads', description: 'Admitted workloads not yet finished', priority: 1 },
    ],
    schema: s.object({ spec: spec(v), status: status(v) }),
  };
}

export const clusterQueueCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ClusterQueue',
  plural: 'clusterqueues',
  shortNames: ['cq'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};
