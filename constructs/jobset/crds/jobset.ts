import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { embeddedObjectMeta, metav1Conditions } from '../../../lib/schema/common';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

export const JOBSET_GROUP = 'jobset.x-k8s.io';

const immutable = <T extends { rule(rule: string, message: string): T }>(node: T, what: string): T =>
  node.rule('self == oldSelf', `${what} cannot be changed once the JobSet exists`);

const names = () => s.array(s.string(), { listType: 'atomic' });

/** One group of identical Jobs of a JobSet. */
const replicatedJob = s.object({
  name: s.string().required().describe('Name of the group; child Jobs are named <jobset>-<name>-<index>.'),
  groupName: s.string().default('default').describe('Group the ReplicatedJob belongs to, for group-level labels and indexes.'),
  replicas: s.int32().default(1).describe('How many Jobs to create from the template.'),
  template: s.object({
    metadata: embeddedObjectMeta(),
    spec: core('V1JobSpec'),
  }).required().named('JobTemplateSpec').describe('Template of each Job.'),
  dependsOn: immutable(
    s.array(
      s.object({
        name: s.string().required().describe('The ReplicatedJob this one waits for.'),
        status: s.enum('Ready', 'Complete').required().describe('The state the other ReplicatedJob must reach first.'),
      }).named('DependsOn'),
      { listType: 'map', listMapKeys: ['name'], maxItems: 5 },
    ),
    'dependsOn',
  ).describe('ReplicatedJobs that must be Ready or Complete before this one is created.'),
}).named('ReplicatedJob');

const failurePolicyRule = s.object({
  name: s.string().required().describe('Name of the rule.'),
  action: s.enum('FailJobSet', 'RestartJobSet', 'RestartJobSetAndIgnoreMaxRestarts', 'RestartJob', 'RestartJobAndIgnoreMaxRestarts').required()
    .describe('What to do when a child Job failure matches the rule.'),
  onJobFailureReasons: s.array(s.string()).describe('Job failure reasons that match (empty: any).'),
  onJobFailureMessagePatterns: s.array(s.string()).describe('RE2 patterns on the Job failure message that match (empty: any).'),
  targetReplicatedJobs: names().describe('ReplicatedJobs the rule applies to (empty: all).'),
}).named('FailurePolicyRule');

const pvcTemplate = s.object({
  apiVersion: s.string(),
  kind: s.string(),
  metadata: embeddedObjectMeta(),
  spec: core('V1PersistentVolumeClaimSpec'),
  status: core('V1PersistentVolumeClaimStatus'),
}).named('PersistentVolumeClaimTemplate');

const volumeClaimPolicy = s.object({
  templates: s.array(pvcTemplate, { listType: 'atomic', maxItems: 50 }).describe('Shared claims the JobSet creates, named <claim>-<jobset>.'),
  retentionPolicy: s.object({
    whenDeleted: s.enum('Delete', 'Retain').default('Delete').describe('Whether the claims outlive the JobSet.'),
  }).named('VolumeRetentionPolicy'),
}).rule(
  '!has(self.templates) || self.templates.all(t, !has(t.metadata) || !has(t.metadata.namespace) || t.metadata.namespace == "")',
  'volume claim templates take the JobSet\'s namespace: leave metadata.namespace unset',
).named('VolumeClaimPolicy');

/**
 * JobSetSpec: the desired set of Jobs. Kubeflow Trainer embeds the same spec in its
 * runtimes' JobSet template, so it is exported.
 */
export const jobSetSpec = s.object({
  replicatedJobs: s.array(replicatedJob, { listType: 'map', listMapKeys: ['name'] }).describe('The groups of Jobs that form the set.'),
  network: immutable(s.object({
    enableDNSHostnames: s.boolean().describe('Make pods reachable by hostname through a headless Service.'),
    subdomain: s.string().describe('Subdomain of that Service (default: the JobSet name).'),
    publishNotReadyAddresses: s.boolean().describe('Publish DNS records before pods are ready (default true).'),
  }).named('Network'), 'network'),
  successPolicy: immutable(s.object({
    operator: s.enum('All', 'Any').required().describe('Whether all or any of the target Jobs must succeed.'),
    targetReplicatedJobs: names().describe('ReplicatedJobs the policy looks at (empty: all).'),
  }).named('SuccessPolicy'), 'successPolicy'),
  failurePolicy: immutable(s.object({
    maxRestarts: s.int32().describe('How many times the JobSet may be restarted.'),
    restartStrategy: s.enum('Recreate', 'BlockingRecreate', 'InPlaceRestart').default('Recreate').describe('How a restart recreates Jobs or pods.'),
    rules: s.array(failurePolicyRule).describe('Evaluated in order; the first match decides.'),
  }).named('FailurePolicy'), 'failurePolicy'),
  startupPolicy: immutable(s.object({
    startupPolicyOrder: s.enum('AnyOrder', 'InOrder').required().describe('Start ReplicatedJobs in any order, or one after the other.'),
  }).named('StartupPolicy'), 'startupPolicy').describe('Deprecated upstream in favour of dependsOn.'),
  suspend: s.boolean().describe('Suspends every child Job.'),
  coordinator: s.object({
    replicatedJob: s.string().required(),
    jobIndex: s.integer(),
    podIndex: s.integer(),
  }).named('Coordinator').describe('The pod whose stable endpoint is published to every Job and pod.'),
  managedBy: s.string().describe('Controller that reconciles the JobSet; the built-in one skips other values.'),
  ttlSecondsAfterFinished: s.int32({ minimum: 0 }).describe('Seconds after finishing before the JobSet is deleted.'),
  volumeClaimPolicies: immutable(s.array(volumeClaimPolicy, { listType: 'atomic', maxItems: 50 }), 'volumeClaimPolicies')
    .describe('Persistent volume claims shared by the Jobs of the set.'),
}).rule(
  '!(has(self.startupPolicy) && self.startupPolicy.startupPolicyOrder == "InOrder" && has(self.replicatedJobs) && self.replicatedJobs.exists(r, has(r.dependsOn)))',
  'startupPolicy InOrder and dependsOn cannot be combined: order ReplicatedJobs with dependsOn only',
).named('JobSetSpec');

const replicatedJobStatus = s.object({
  name: s.string().required(),
  ready: s.int32().required(),
  succeeded: s.int32().required(),
  failed: s.int32().required(),
  active: s.int32().required(),
  suspended: s.int32().required(),
  jobRestarts: s.array(s.int32(), { listType: 'atomic', maxItems: 1024 }),
  jobRestartsCountTowardsMax: s.array(s.int32(), { listType: 'atomic', maxItems: 1024 }),
}).named('ReplicatedJobStatus');

const schema = s.object({
  spec: jobSetSpec,
  status: s.object({
    conditions: metav1Conditions(),
    restarts: s.int32(),
    restartsCountTowardsMax: s.int32(),
    terminalState: s.string(),
    replicatedJobsStatus: s.array(replicatedJobStatus, { listType: 'map', listMapKeys: ['name'] }),
    previousInPlaceRestartAttempt: s.int32({ minimum: 0 }),
    currentInPlaceRestartAttempt: s.int32({ minimum: 0 }),
  }).named('JobSetStatus'),
});

const printerColumns: PrinterColumn[] = [
  { name: 'TerminalState', type: 'string', jsonPath: '.status.terminalState', description: 'Final state of the JobSet' },
  { name: 'Restarts', type: 'string', jsonPath: '.status.restarts', description: 'Number of restarts' },
  { name: 'Completed', type: 'string', jsonPath: '.status.conditions[?(@.type=="Completed")].status' },
  { name: 'Suspended', type: 'string', jsonPath: '.spec.suspend', description: 'Whether the JobSet is suspended' },
  PrinterColumns.age(),
];

/**
 * jobset.x-k8s.io/v1alpha2 JobSet (JobSet v0.12.0): one served, stored version. Upstream's
 * install adds a conversion webhook stanza to the CRD (a no-op while one version is
 * served), which we keep: the JobSet controller serves /convert.
 */
export const jobSetCrd: CrdDefinition = {
  group: JOBSET_GROUP,
  kind: 'JobSet',
  plural: 'jobsets',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha2', storage: true, schema, subresources: { status: true }, printerColumns }],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};
