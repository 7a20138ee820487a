import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns, ScaleSubresource } from '../../../lib/crd';
import { embeddedObjectMeta } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { ObjectSchema, Properties, s } from '../../../lib/schema/dsl';

export const KUBEFLOW_GROUP = 'kubeflow.org';

/** One role of a job (Chief, Master, Worker, PS, Launcher...): replicas and their pod template. */
export const replicaSpec = s.object({
  replicas: s.int32().describe('Number of pods of this role.'),
  restartPolicy: s.string().describe('Always, OnFailure, Never or ExitCode.'),
  template: s.object({
    metadata: embeddedObjectMeta(),
    spec: core('V1PodSpec'),
  }).named('PodTemplateSpec'),
}).named('ReplicaSpec');

/** Replica specs keyed by role. */
export const replicaSpecs = () => s.map(replicaSpec).required();

/** The run policy shared by every v1 job kind. */
export const runPolicy = s.object({
  cleanPodPolicy: s.string().describe('Which pods to delete when the job finishes: All, Running or None.'),
  ttlSecondsAfterFinished: s.int32(),
  activeDeadlineSeconds: s.int64(),
  backoffLimit: s.int32(),
  managedBy: s.string().describe('The controller that reconciles the job (e.g. kueue.x-k8s.io/multikueue).'),
  schedulingPolicy: s.object({
    minAvailable: s.int32(),
    queue: s.string().rule('self == oldSelf', 'schedulingPolicy.queue is immutable'),
    minResources: s.map(s.quantity()),
    priorityClass: s.string(),
    scheduleTimeoutSeconds: s.int32(),
  }).named('SchedulingPolicy').describe('Gang scheduling (Volcano or scheduler-plugins).'),
  suspend: s.boolean().default(false),
}).named('RunPolicy');

/** Elastic scaling parameters shared by PyTorchJob and PaddleJob. */
export const elasticBase: Properties = {
  minReplicas: s.int32(),
  maxReplicas: s.int32(),
  maxRestarts: s.int32(),
  metrics: s.array(core('V2MetricSpec')).describe('Metrics of the HorizontalPodAutoscaler that scales the workers.'),
};

const jobStatus = s.object({
  conditions: s.array(s.object({
    type: s.string().required(),
    status: s.string().required(),
    reason: s.string(),
    message: s.string(),
    lastUpdateTime: s.dateTime(),
    lastTransitionTime: s.dateTime(),
  }).named('JobCondition')),
  replicaStatuses: s.map(s.object({
    active: s.int32(),
    succeeded: s.int32(),
    failed: s.int32(),
    labelSelector: plainCore('V1LabelSelector'),
    selector: s.string(),
  }).named('ReplicaStatus')),
  startTime: s.dateTime(),
  completionTime: s.dateTime(),
  lastReconcileTime: s.dateTime(),
}).named('JobStatus');

const STATE: PrinterColumn = { name: 'State', type: 'string', jsonPath: '.status.conditions[-1:].type' };

/** The scale subresource over the Worker role (specs keyed by `field`). */
export function workerScale(field: string): ScaleSubresource {
  return {
    specReplicasPath: `.spec.${field}.Worker.replicas`,
    statusReplicasPath: '.status.replicaStatuses.Worker.active',
    labelSelectorPath: '.status.replicaStatuses.Worker.selector',
  };
}

/** A kubeflow.org/v1 job CRD of training-operator release-1.9. */
export function jobCrd(kind: string, spec: ObjectSchema, opts: { scale?: ScaleSubresource; ageFirst?: boolean } = {}): CrdDefinition {
  return {
    group: KUBEFLOW_GROUP,
    kind,
    plural: `${kind.toLowerCase()}s`,
    scope: CrdScope.NAMESPACED,
    versions: [{
      name: 'v1',
      storage: true,
      schema: s.object({ spec, status: jobStatus }),
      subresources: { status: true, scale: opts.scale },
      printerColumns: opts.ageFirst ? [PrinterColumns.age(), STATE] : [STATE, PrinterColumns.age()],
    }],
  };
}
