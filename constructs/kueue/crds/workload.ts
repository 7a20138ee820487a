/** Workload (kueue.x-k8s.io): the unit of admission Kueue creates for each job it manages. */
import {
  conditions, DNS_SUBDOMAIN, GROUP, objectRef, podSetName, tolerations, Version,
} from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { coreInline } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** The pod template of a pod set: its metadata as users set it, and a PodSpec. */
const podTemplate = s.object({
  metadata: s.object({
    annotations: s.stringMap(),
    finalizers: s.array(s.string()),
    labels: s.stringMap(),
    name: s.string(),
    namespace: s.string(),
  }).named('PodSetTemplateMetadata'),
  spec: coreInline('V1PodSpec', {
    schedulingGroup: s.object({ podGroupName: s.string() }).named('PodSchedulingGroup'),
  }, { keepRequired: true }),
}).named('PodSetTemplate');

function topologyRequest(v: Version) {
  const max = (n: number) => (v === 'v1beta2' ? { maxLength: n } : {});
  return s.object({
    podIndexLabel: s.string(max(317)),
    podSetGroupName: s.string(max(256)),
    podSetSliceRequiredTopology: s.string(max(63)),
    podSetSliceSize: s.int32(),
    ...(v === 'v1beta2' ? {
      podsetSliceRequiredTopologyConstraints: s.array(s.object({
        size: s.int32({ minimum: 1 }).required(),
        topology: s.string({ minLength: 1, maxLength: 63 }).required(),
      }).named('PodSetSliceTopologyConstraint'), { listType: 'atomic', maxItems: 3 }),
    } : {}),
    preferred: s.string(max(63)),
    required: s.string(max(63)),
    subGroupCount: s.int32(),
    subGroupIndexLabel: s.string(max(317)),
    unconstrained: s.boolean(),
  }).named('PodSetTopologyRequest');
}

function podSet(v: Version) {
  const legacy = v === 'v1beta1';
  const base = s.object({
    count: legacy ? s.int32({ minimum: 0 }).default(1).required() : s.int32({ minimum: 0 }).default(1),
    minCount: s.int32({ minimum: 1 }).describe('With partial admission: the fewest pods the job can run with.'),
    name: podSetName().default('main'),
    template: podTemplate.required(),
    topologyRequest: topologyRequest(v),
  }).named('PodSet')
    .rule('!has(self.minCount) || self.minCount <= self.count', 'minCount must not exceed count')
    .rule('!has(self.topologyRequest) || [has(self.topologyRequest.required), has(self.topologyRequest.preferred), has(self.topologyRequest.unconstrained) && self.topologyRequest.unconstrained].filter(x, x).size() <= 1',
      'a topologyRequest sets at most one of required, preferred and unconstrained');
  return v === 'v1beta1' ? base : base.rule(
    '!has(self.topologyRequest) || !has(self.topologyRequest.podSetSliceRequiredTopology) || !has(self.topologyRequest.podsetSliceRequiredTopologyConstraints)',
    'use podSetSliceRequiredTopology or podsetSliceRequiredTopologyConstraints, not both',
  );
}

function spec(v: Version) {
  const legacy = v === 'v1beta1';
  const podSets = s.array(podSet(v), { listType: 'map', listMapKeys: ['name'], minItems: 1, maxItems: 18 });
  return s.object({
    active: s.boolean().default(true).describe('False deactivates the workload: it is evicted and not requeued.'),
    maximumExecutionTimeSeconds: s.int32({ minimum: 1 }),
    podSets: legacy ? podSets.required() : podSets,
    priority: s.int32(),
    queueName: objectRef().describe('The LocalQueue (in the same namespace) this workload is submitted to.'),
    ...(legacy ? {
      priorityClassName: objectRef(),
      priorityClassSource: s.enum('kueue.x-k8s.io/workloadpriorityclass', 'scheduling.k8s.io/priorityclass', '').default(''),
    } : {
      preemptionGates: s.array(s.object({ name: s.string({ minLength: 1, maxLength: 63 }).required() }).named('PreemptionGate'), { listType: 'map', listMapKeys: ['name'], maxItems: 8 }),
      priorityClassRef: s.object({
        group: s.enum('kueue.x-k8s.io', 'scheduling.k8s.io').required(),
        kind: s.enum('WorkloadPriorityClass', 'PriorityClass').required(),
        name: s.string({ minLength: 1, maxLength: 253, pattern: DNS_SUBDOMAIN }).required(),
      }).named('PriorityClassRef')
        .rule("self.group != 'kueue.x-k8s.io' || self.kind == 'WorkloadPriorityClass'", 'kueue.x-k8s.io priority classes are of kind WorkloadPriorityClass')
        .rule("self.group != 'scheduling.k8s.io' || self.kind == 'PriorityClass'", 'scheduling.k8s.io priority classes are of kind PriorityClass'),
    }),
  }).named(legacy ? 'WorkloadSpecV1beta1' : 'WorkloadSpec')
    .rule(legacy ? '!has(self.priorityClassName) || has(self.priority)' : '!has(self.priorityClassRef) || has(self.priority)',
      'a workload naming a priority class needs its priority value');
}

function topologyAssignment(v: Version) {
  const levels = s.array(v === 'v1beta1' ? s.string() : s.string({ maxLength: 317 }), { listType: 'atomic', minItems: 1, maxItems: 16 }).required();
  if (v === 'v1beta1') {
    return s.object({
      domains: s.array(s.object({
        count: s.int32({ minimum: 1 }).required(),
        values: s.array(s.string(), { listType: 'atomic', minItems: 1, maxItems: 16 }).required(),
      }).named('TopologyDomainAssignment')).required(),
      levels,
    }).named('TopologyAssignment');
  }
  const counts = s.object({
    individual: s.array(s.int32({ minimum: 1 }), { listType: 'atomic', minItems: 1, maxItems: 100000 }),
    universal: s.int32({ minimum: 1 }),
  }).named('TopologyAssignmentSlicePodCounts').required()
    .rule('has(self.individual) != has(self.universal)', 'set exactly one of individual and universal');
  const values = s.object({
    individual: s.object({
      prefix: s.string({ maxLength: 63 }),
      roots: s.array(s.string({ maxLength: 63 }), { listType: 'atomic', minItems: 1, maxItems: 100000 }).required(),
      suffix: s.string({ maxLength: 63 }),
    }).named('TopologyAssignmentSliceIndividualValues'),
    universal: s.string({ maxLength: 63 }),
  }).named('TopologyAssignmentSliceLevelValues')
    .rule('has(self.individual) != has(self.universal)', 'set exactly one of individual and universal');
  return s.object({
    levels,
    slices: s.array(s.object({
      domainCount: s.int32({ minimum: 1 }).required(),
      podCounts: counts,
      valuesPerLevel: s.array(values, { listType: 'atomic', minItems: 1, maxItems: 16 }).required(),
    }).named('TopologyAssignmentSlice')
      .rule('!has(self.podCounts.individual) || size(self.podCounts.individual) == self.domainCount', 'podCounts.individual must give one count per domain')
      .rule('self.valuesPerLevel.all(x, !has(x.individual) || size(x.individual.roots) == self.domainCount)', 'individual values must give one root per domain'),
    { listType: 'atomic', maxItems: 1000 }).required(),
  }).named('TopologyAssignment')
    .rule('self.slices.all(sl, size(sl.valuesPerLevel) == size(self.levels))', 'each slice must give values for every level');
}

function admission(v: Version) {
  const legacy = v === 'v1beta1';
  const assignment = s.object({
    count: s.int32({ minimum: 0 }),
    delayedTopologyRequest: legacy ? s.string() : s.string({ enum: ['Pending', 'Ready'], maxLength: 7 }),
    flavors: s.map(objectRef()).describe('Resource name -> the flavor assigned for it.'),
    name: legacy ? podSetName().default('main').required() : podSetName().default('main'),
    resourceUsage: s.map(s.quantity()),
    topologyAssignment: topologyAssignment(v),
  }).named('PodSetAssignment');
  const assignments = s.array(assignment, { listType: 'map', listMapKeys: ['name'], maxItems: 18 });
  return s.object({
    clusterQueue: legacy ? objectRef().required() : objectRef(),
    podSetAssignments: legacy ? assignments.required() : assignments,
  }).named('Admission');
}

function admissionCheckState(v: Version) {
  const legacy = v === 'v1beta1';
  return s.object({
    lastTransitionTime: s.dateTime().required(),
    message: s.string({ maxLength: 32768 }).required(),
    name: s.string({ ...(legacy ? {} : { minLength: 1 }), maxLength: 316 }).required(),
    podSetUpdates: s.array(s.object({
      annotations: s.stringMap(),
      labels: s.stringMap(),
      name: podSetName().required(),
      nodeSelector: s.stringMap(),
      tolerations: tolerations({ atomic: !legacy }),
    }).named('PodSetUpdate'), { listType: 'atomic', maxItems: 18 }),
    requeueAfterSeconds: s.int32({ minimum: 0 }),
    retryCount: s.int32({ minimum: 0 }),
    state: s.enum('Pending', 'Ready', 'Retry', 'Rejected').required(),
  }).named('AdmissionCheckState');
}

function status(v: Version) {
  const legacy = v === 'v1beta1';
  const nameCount = s.object({ count: s.int32({ minimum: 0 }).required(), name: podSetName().required() }).named('ReclaimablePod');
  return s.object({
    // Upstream's v1beta1 spells this field with a typo; v1beta2 fixed it.
    [legacy ? 'accumulatedPastExexcutionTimeSeconds' : 'accumulatedPastExecutionTimeSeconds']: s.int32(),
    admission: admission(v),
    admissionChecks: s.array(admissionCheckState(v), { listType: 'map', listMapKeys: ['name'], maxItems: 8 }),
    clusterName: s.string(legacy ? {} : { maxLength: 256 }).describe('The MultiKueue worker cluster running the workload.'),
    conditions: conditions(v),
    nominatedClusterNames: s.array(s.string(legacy ? {} : { maxLength: 256 }), { listType: 'atomic', maxItems: 20 }),
    ...(legacy ? {} : {
      preemptionGates: s.array(s.object({
        lastTransitionTime: s.dateTime().required(),
        name: s.string({ minLength: 1, maxLength: 63 }).required(),
        position: s.enum('Closed', 'Open').required(),
      }).named('PreemptionGateState'), { listType: 'map', listMapKeys: ['name'], maxItems: 8 }),
    }),
    reclaimablePods: s.array(nameCount, { listType: 'map', listMapKeys: ['name'], maxItems: 18 }),
    requeueState: s.object({ count: s.int32({ minimum: 0 }), requeueAt: s.dateTime() }).named('RequeueState'),
    resourceRequests: s.array(s.object({ name: podSetName().required(), resources: s.map(s.quantity()) }).named('PodSetRequest'), { listType: 'map', listMapKeys: ['name'], maxItems: 18 }),
    schedulingStats: s.object({
      evictions: s.array(s.object({
        count: s.int32({ minimum: 0 }).required(),
        reason: s.string({ maxLength: 316 }).required(),
        underlyingCause: s.string({ maxLength: 316 }).required(),
      }).named('WorkloadSchedulingStatsEviction'), { listType: 'map', listMapKeys: ['reason', 'underlyingCause'], ...(legacy ? {} : { maxItems: 256 }) }),
    }).named('SchedulingStats'),
    unhealthyNodes: legacy
      ? s.array(s.object({ name: s.string().required() }).named('UnhealthyNode'))
      : s.array(s.object({ name: s.string({ maxLength: 63 }).required() }).named('UnhealthyNode'), { listType: 'map', listMapKeys: ['name'], maxItems: 8 }),
  }).named(legacy ? 'WorkloadStatusV1beta1' : 'WorkloadStatus')
    .rule('!has(self.clusterName) || !has(self.nominatedClusterNames) || size(self.nominatedClusterNames) == 0', 'clusterName and nominatedClusterNames are mutually exclusive')
    .rule('!has(oldSelf.clusterName) || has(self.clusterName) && self.clusterName == oldSelf.clusterName', 'clusterName cannot change once set');
}

const QUOTA_RESERVED = "has(self.status) && has(self.status.conditions) && self.status.conditions.exists(c, c.type == 'QuotaReserved' && c.status == 'True')";
const WAS_RESERVED = "has(oldSelf.status) && has(oldSelf.status.conditions) && oldSelf.status.conditions.exists(c, c.type == 'QuotaReserved' && c.status == 'True')";
const WAS_ADMITTED = "has(oldSelf.status) && has(oldSelf.status.conditions) && oldSelf.status.conditions.exists(c, c.type == 'Admitted' && c.status == 'True')";
const IS_ADMITTED = "has(self.status) && has(self.status.conditions) && self.status.conditions.exists(c, c.type == 'Admitted' && c.status == 'True')";
/** Unchanged from the old object: both unset, or both set and equal. */
const unchanged = (field: string) => `has(self.spec.${field}) == has(oldSelf.spec.${field}) && (!has(self.spec.${field}) || self.spec.${field} == oldSelf.spec.${field})`;

/**
 * Whole-object rules, with upstream's meaning (v0.19.2): the admission covers every pod set,
 * and what may not change while the workload holds quota (or, for its time limit, while it is
 * admitted). Upstream's own rules, not a reading of its documentation: a rule of ours that
 * compared podSets.map() results was over the cost budget of a v1.28 API server, which
 * accepts upstream's.
 */
function objectRules(v: Version) {
  const bothSet = (field: string) => `has(oldSelf.spec.${field}) && has(self.spec.${field})`;
  const rules: Array<[string, string]> = [
    [`!(${QUOTA_RESERVED} && has(self.status.admission)) || size(self.spec.podSets) == size(self.status.admission.podSetAssignments)`,
      'the admission must assign every pod set of the spec (as many podSetAssignments as podSets)'],
  ];
  if (v === 'v1beta1') {
    rules.push(
      [`!(${WAS_RESERVED} && ${bothSet('priorityClassSource')}) || self.spec.priorityClassSource == oldSelf.spec.priorityClassSource`,
        'priorityClassSource cannot change while the workload holds quota'],
      [`!(${WAS_RESERVED} && ${bothSet('priorityClassSource')} && self.spec.priorityClassSource != 'kueue.x-k8s.io/workloadpriorityclass' && ${bothSet('priorityClassName')}) || self.spec.priorityClassName == oldSelf.spec.priorityClassName`,
        'priorityClassName cannot change while the workload holds quota, unless it names a WorkloadPriorityClass'],
    );
  } else {
    rules.push(
      [`!(${WAS_RESERVED}) || has(self.spec.priorityClassRef) == has(oldSelf.spec.priorityClassRef)`, 'priorityClassRef cannot be set or removed while the workload holds quota'],
      [`!(${WAS_RESERVED} && ${bothSet('priorityClassRef')}) || self.spec.priorityClassRef.group == oldSelf.spec.priorityClassRef.group`, 'priorityClassRef.group cannot change while the workload holds quota'],
      [`!(${WAS_RESERVED} && ${bothSet('priorityClassRef')}) || self.spec.priorityClassRef.kind == oldSelf.spec.priorityClassRef.kind`, 'priorityClassRef.kind cannot change while the workload holds quota'],
      [`!(${WAS_RESERVED} && ${bothSet('priorityClassRef')} && self.spec.priorityClassRef.group == 'scheduling.k8s.io' && self.spec.priorityClassRef.kind == 'PriorityClass') || self.spec.priorityClassRef.name == oldSelf.spec.priorityClassRef.name`,
        'a PriorityClass named by priorityClassRef cannot change while the workload holds quota'],
    );
  }
  rules.push(
    [`!(${WAS_RESERVED} && ${QUOTA_RESERVED}) || (${unchanged('queueName')})`, 'queueName cannot change while the workload holds quota'],
    [`!(${WAS_ADMITTED} && ${IS_ADMITTED}) || (has(self.spec.maximumExecutionTimeSeconds) ? self.spec.maximumExecutionTimeSeconds : 0) == (has(oldSelf.spec.maximumExecutionTimeSeconds) ? oldSelf.spec.maximumExecutionTimeSeconds : 0)`,
      'maximumExecutionTimeSeconds cannot change while the workload is admitted'],
  );
  return rules;
}

function version(v: Version): CrdVersion {
  let schema = s.object({ spec: spec(v), status: status(v) });
  for (const [rule, message] of objectRules(v)) schema = schema.rule(rule, message);
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    subresources: { status: true },
    printerColumns: [
      { name: 'Queue', type: 'string', jsonPath: '.spec.queueName', description: 'LocalQueue the workload is submitted to' },
      { name: 'Reserved in', type: 'string', jsonPath: '.status.admission.clusterQueue', description: 'ClusterQueue holding quota for it' },
      { name: 'Admitted', type: 'string', jsonPath: ".status.conditions[?(@.type=='Admitted')].status", description: 'Whether it is admitted' },
      { name: 'Finished', type: 'string', jsonPath: ".status.conditions[?(@.type=='Finished')].status", description: 'Whether it has finished' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    schema,
  };
}

export const workloadCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Workload',
  plural: 'workloads',
  shortNames: ['kwl', 'kueueworkload', 'kueueworkloads'],
  scope: CrdScope.NAMESPACED,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};

