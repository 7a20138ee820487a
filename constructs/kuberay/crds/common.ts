import { embeddedObjectMeta, metav1Conditions } from '../../../lib/schema/common';
import { coreInline, core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** The API group of every KubeRay kind. */
export const RAY_GROUP = 'ray.io';

/** The metadata KubeRay keeps on objects it embeds (pod templates, Services): lib's embedded ObjectMeta. */
export const embeddedMeta = embeddedObjectMeta;

/**
 * A pod template. The pod spec is the core PodSpec (containers stay required) plus
 * `schedulingGroup`, a field of newer Kubernetes releases that KubeRay v1.7.0 builds with
 * and the generated core table does not have yet.
 */
export function podTemplate() {
  return s.object({
    metadata: embeddedMeta(),
    spec: coreInline('V1PodSpec', {
      schedulingGroup: s.object({
        podGroupName: s.string().describe('Name of the pod group the pod is scheduled with.'),
      }).named('RayPodSchedulingGroup'),
    }, { keepRequired: true }),
  }).named('RayPodTemplate');
}

const CONDITION_TYPE_PATTERN = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/**
 * A whole core Service embedded in a Ray spec (head service, serve service). Upstream's
 * CRD spells out its status with the validation markers of the Go types, so the status is
 * written here; the spec is the core ServiceSpec.
 */
export function embeddedService() {
  const portStatus = s.object({
    error: s.string({ maxLength: 316, pattern: CONDITION_TYPE_PATTERN }).required(),
    port: s.int32().required(),
    protocol: s.string().required(),
  }).named('RayServicePortStatus');
  const ingress = s.object({
    hostname: s.string(),
    ip: s.string(),
    ipMode: s.string(),
    ports: s.array(portStatus, { listType: 'atomic' }),
  }).named('RayServiceLoadBalancerIngress');
  return s.object({
    apiVersion: s.string(),
    kind: s.string(),
    metadata: embeddedMeta(),
    spec: core('V1ServiceSpec'),
    status: s.object({
      conditions: metav1Conditions(),
      loadBalancer: s.object({ ingress: s.array(ingress, { listType: 'atomic' }) }).named('RayServiceLoadBalancerStatus'),
    }).named('RayServiceStatusEmbedded'),
  }).named('RayEmbeddedService');
}

/** Resource requests and limits of a sidecar KubeRay adds (autoscaler, history collector). */
export function resourceRequirements() {
  return plainCore('V1ResourceRequirements').named('RayResourceRequirements');
}

/** The environment, volume and security settings of the autoscaler container. */
export function containerExtras() {
  return {
    env: s.array(core('V1EnvVar')),
    envFrom: s.array(plainCore('V1EnvFromSource')),
    volumeMounts: s.array(plainCore('V1VolumeMount')),
    securityContext: core('V1SecurityContext'),
  };
}

/** CEL rules on `managedBy` (RayCluster, RayJob, RayService): immutable, two known managers. */
export function managedBy() {
  return s.string()
    .describe('The controller that reconciles the object: KubeRay, or MultiKueue when the object is dispatched to a worker cluster.')
    .rule('self == oldSelf', 'managedBy cannot be changed once set')
    .rule("self in ['ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue']", "managedBy must be 'ray.io/kuberay-operator' or 'kueue.x-k8s.io/multikueue'");
}
