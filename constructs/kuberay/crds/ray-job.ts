import { managedBy, podTemplate, RAY_GROUP } from './common';
import { V1ALPHA1_SCHEMAS_DIFFER } from './ray-cluster';
import { rayClusterSpecV1, rayClusterSpecV1alpha1, rayClusterStatusV1, rayClusterStatusV1alpha1 } from './ray-cluster-spec';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const POLICIES = ['DeleteCluster', 'DeleteWorkers', 'DeleteSelf', 'DeleteNone'];

/**
 * What happens to the cluster when a job ends: either the legacy pair onSuccess/onFailure,
 * or a list of rules with a condition each (never both).
 */
function deletionStrategy() {
  const policy = () => s.object({ policy: s.enum(...POLICIES) }).named('RayDeletionPolicy');
  return s.object({
    deletionRules: s.array(s.object({
      condition: s.object({
        jobDeploymentStatus: s.enum('Failed'),
        jobStatus: s.enum('SUCCEEDED', 'FAILED'),
        ttlSeconds: s.int32({ minimum: 0 }).default(0).describe('Seconds to wait after the condition holds.'),
      }).named('RayDeletionCondition').required()
        .rule('!(has(self.jobStatus) && has(self.jobDeploymentStatus))', 'a deletion condition names jobStatus or jobDeploymentStatus, not both')
        .rule('has(self.jobStatus) || has(self.jobDeploymentStatus)', 'a deletion condition needs jobStatus or jobDeploymentStatus'),
      policy: s.enum(...POLICIES).required(),
    }).named('RayDeletionRule'), { minItems: 1, listType: 'atomic' }),
    onFailure: policy(),
    onSuccess: policy(),
  }).named('RayDeletionStrategy')
    .rule('!((has(self.onSuccess) || has(self.onFailure)) && has(self.deletionRules))', 'use either onSuccess/onFailure or deletionRules, not both')
    .rule('(has(self.onSuccess) && has(self.onFailure)) || has(self.deletionRules)', 'deletionStrategy needs both onSuccess and onFailure, or deletionRules');
}

/** spec of a ray.io/v1 RayJob (also the jobTemplate of a RayCronJob). */
export function rayJobSpecV1() {
  return s.object({
    activeDeadlineSeconds: s.int32().describe('Seconds the job may run before KubeRay fails it.'),
    backoffLimit: s.int32().default(0).describe('Retries of the whole job (a new cluster each time).'),
    clusterSelector: s.stringMap().describe('Labels of an existing RayCluster to submit to instead of creating one.'),
    deletionStrategy: deletionStrategy(),
    entrypoint: s.string(),
    entrypointNumCpus: s.number(),
    entrypointNumGpus: s.number(),
    entrypointResources: s.string(),
    jobId: s.string(),
    managedBy: managedBy(),
    metadata: s.stringMap(),
    preRunningDeadlineSeconds: s.int32({ minimum: 1 }),
    rayClusterSpec: rayClusterSpecV1().optional(),
    runtimeEnvYAML: s.string(),
    shutdownAfterJobFinishes: s.boolean(),
    // No enum upstream: K8sJobMode, HTTPMode, InteractiveMode, SidecarMode.
    submissionMode: s.string().default('K8sJobMode'),
    submitterConfig: s.object({ backoffLimit: s.int32() }).named('RaySubmitterConfig'),
    submitterPodTemplate: podTemplate(),
    suspend: s.boolean(),
    ttlSecondsAfterFinished: s.int32().default(0),
  }).named('RayJobSpec');
}

const jobStatusFields = () => ({
  dashboardURL: s.string(),
  endTime: s.dateTime(),
  jobDeploymentStatus: s.string(),
  jobId: s.string(),
  jobStatus: s.string(),
  message: s.string(),
  observedGeneration: s.int64(),
  rayClusterName: s.string(),
  startTime: s.dateTime(),
});

const printerColumns: PrinterColumn[] = [
  { name: 'job status', type: 'string', jsonPath: '.status.jobStatus' },
  { name: 'deployment status', type: 'string', jsonPath: '.status.jobDeploymentStatus' },
  { name: 'ray cluster name', type: 'string', jsonPath: '.status.rayClusterName' },
  { name: 'start time', type: 'string', jsonPath: '.status.startTime' },
  { name: 'end time', type: 'string', jsonPath: '.status.endTime' },
  { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** ray.io RayJob: a Ray job and (usually) the cluster it runs on. */
export const rayJobCrd: CrdDefinition = {
  group: RAY_GROUP,
  kind: 'RayJob',
  plural: 'rayjobs',
  categories: ['all'],
  scope: CrdScope.NAMESPACED,
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.5' },
  conversion: { strategy: 'None', schemasDifferBecause: V1ALPHA1_SCHEMAS_DIFFER },
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: s.object({
        spec: rayJobSpecV1(),
        status: s.object({
          ...jobStatusFields(),
          failed: s.int32().default(0),
          jobStatusCheckFailureStartTime: s.dateTime(),
          rayClusterStatus: rayClusterStatusV1(),
          rayJobInfo: s.object({ endTime: s.dateTime(), startTime: s.dateTime() }).named('RayJobInfo'),
          reason: s.string(),
          succeeded: s.int32().default(0),
        }).named('RayJobStatus'),
      }),
      subresources: { status: true },
      printerColumns,
    },
    {
      name: 'v1alpha1',
      storage: false,
      deprecated: true,
      schema: s.object({
        spec: s.object({
          clusterSelector: s.stringMap(),
          entrypoint: s.string().required(),
          entrypointNumCpus: s.number(),
          entrypointNumGpus: s.number(),
          entrypointResources: s.string(),
          jobId: s.string(),
          metadata: s.stringMap(),
          rayClusterSpec: rayClusterSpecV1alpha1().optional(),
          runtimeEnvYAML: s.string(),
          shutdownAfterJobFinishes: s.boolean(),
          submitterPodTemplate: podTemplate(),
          suspend: s.boolean(),
          ttlSecondsAfterFinished: s.int32().default(0),
        }).named('RayJobSpecV1alpha1'),
        status: s.object({
          ...jobStatusFields(),
          rayClusterStatus: rayClusterStatusV1alpha1(),
        }).named('RayJobStatusV1alpha1'),
      }),
      subresources: { status: true },
    },
  ],
};

