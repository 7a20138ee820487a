/**
 * AppWrapper (workload.codeflare.dev/v1beta2): a bundle of Kubernetes objects admitted,
 * deployed, monitored and retried as one workload (typically queued by Kueue).
 *
 * Modelled on AppWrapper v1.2.1. CodeFlare's operator ships a copy of the same CRD (see
 * constructs/codeflare), so both components declare this one definition.
 */
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

export const APPWRAPPER_GROUP = 'workload.codeflare.dev';

/** A pod-creating part of a component's template: where in the template, and how many pods. */
const appWrapperPodSet = s.object({
  annotations: s.stringMap().describe('Annotations that apply to the pods of this pod set.'),
  path: s.string().required().describe('Path inside the template to the PodTemplateSpec, e.g. template.spec.template.'),
  replicas: s.int32().describe('How many pods this pod set creates.'),
}).named('AppWrapperPodSet');

/** Scheduling decisions (from Kueue's admission) that the controller injects into a pod set. */
const podSetInfo = s.object({
  annotations: s.stringMap(),
  labels: s.stringMap(),
  nodeSelector: s.stringMap(),
  schedulingGates: s.array(plainCore('V1PodSchedulingGate').named('PodSchedulingGate')),
  tolerations: s.array(plainCore('V1Toleration').named('Toleration')),
}).named('AppWrapperPodSetInfo');

const appWrapperComponent = s.object({
  annotations: s.stringMap().describe('Annotations applied to the object created from the template.'),
  podSetInfos: s.array(podSetInfo).describe('Per pod set: what the controller injects when it deploys the component.'),
  podSets: s.array(appWrapperPodSet).describe('The pod sets of the template; inferred for known kinds when omitted.'),
  template: s.embeddedResource().required().describe('The wrapped Kubernetes object.'),
}).named('AppWrapperComponent');

export const appWrapperSpec = s.object({
  components: s.array(appWrapperComponent).required().describe('The wrapped objects.'),
  managedBy: s.string().describe('The controller that manages this AppWrapper (e.g. for MultiKueue); empty means the AppWrapper controller.'),
  suspend: s.boolean().describe('Whether the wrapped objects are withheld (Kueue unsuspends on admission).'),
}).named('AppWrapperSpec');

const appWrapperComponentStatus = s.object({
  apiVersion: s.string().required(),
  conditions: metav1Conditions(),
  kind: s.string().required(),
  name: s.string().required(),
  podSets: s.array(appWrapperPodSet).required(),
}).named('AppWrapperComponentStatus');

export const appWrapperStatus = s.object({
  componentStatus: s.array(appWrapperComponentStatus).describe('The state of each deployed component.'),
  conditions: metav1Conditions(),
  phase: s.string().describe('Phase of the AppWrapper: Suspended, Resuming, Running, Resetting, Suspending, Succeeded, Failed, Terminating.'),
  resettingCount: s.int32().describe('How many times the AppWrapper was reset after a failure.'),
}).named('AppWrapperStatus');

/** Printer column for the status of one condition type. */
const condition = (name: string, type: string) => ({ name, type: 'string' as const, jsonPath: `.status.conditions[?(@.type=="${type}")].status` });

export const appWrapperCrd: CrdDefinition = {
  group: APPWRAPPER_GROUP,
  kind: 'AppWrapper',
  plural: 'appwrappers',
  singular: 'appwrapper',
  listKind: 'AppWrapperList',
  shortNames: ['aw'],
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1beta2',
    served: true,
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Status', type: 'string', jsonPath: '.status.phase' },
      condition('Quota Reserved', 'QuotaReserved'),
      condition('Resources Deployed', 'ResourcesDeployed'),
      condition('Unhealthy', 'Unhealthy'),
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: appWrapperSpec,
      status: appWrapperStatus,
    }),
  }],
};
