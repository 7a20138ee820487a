import type { NameRule } from './names';

/*
 * The built-in kinds the validators know, and what is built in, without the validators
 * themselves (builtin.ts loads ajv and the schemas): checks that only ask what is built in
 * load this.
 */

/** The built-in kinds we validate: `apiVersion/kind` -> model name (and name rule, if not a DNS subdomain). */
export const KINDS: Record<string, { model: string; name?: NameRule }> = {
  'v1/Namespace': { model: 'V1Namespace', name: 'dns-label' },
  'v1/ServiceAccount': { model: 'V1ServiceAccount' },
  'v1/Service': { model: 'V1Service', name: 'dns-label' },
  'v1/ConfigMap': { model: 'V1ConfigMap' },
  'v1/Secret': { model: 'V1Secret' },
  'v1/Pod': { model: 'V1Pod' },
  'v1/PersistentVolumeClaim': { model: 'V1PersistentVolumeClaim' },
  'v1/ResourceQuota': { model: 'V1ResourceQuota' },
  'v1/LimitRange': { model: 'V1LimitRange' },
  'apps/v1/Deployment': { model: 'V1Deployment' },
  'apps/v1/StatefulSet': { model: 'V1StatefulSet' },
  'apps/v1/DaemonSet': { model: 'V1DaemonSet' },
  'batch/v1/Job': { model: 'V1Job' },
  'batch/v1/CronJob': { model: 'V1CronJob' },
  'rbac.authorization.k8s.io/v1/Role': { model: 'V1Role', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/ClusterRole': { model: 'V1ClusterRole', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { model: 'V1RoleBinding', name: 'path-segment' },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { model: 'V1ClusterRoleBinding', name: 'path-segment' },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': { model: 'V1ValidatingWebhookConfiguration' },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': { model: 'V1MutatingWebhookConfiguration' },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': { model: 'V1CustomResourceDefinition' },
  'policy/v1/PodDisruptionBudget': { model: 'V1PodDisruptionBudget' },
  'networking.k8s.io/v1/NetworkPolicy': { model: 'V1NetworkPolicy' },
  'networking.k8s.io/v1/Ingress': { model: 'V1Ingress' },
  'autoscaling/v2/HorizontalPodAutoscaler': { model: 'V2HorizontalPodAutoscaler' },
  'coordination.k8s.io/v1/Lease': { model: 'V1Lease' },
  'scheduling.k8s.io/v1/PriorityClass': { model: 'V1PriorityClass' },
  'apiregistration.k8s.io/v1/APIService': { model: 'V1APIService' },
  // The other kinds Kubernetes v1.32 serves at GA versions (a GitOps repository may hold any of them).
  'v1/Endpoints': { model: 'V1Endpoints' },
  'v1/PersistentVolume': { model: 'V1PersistentVolume' },
  'v1/PodTemplate': { model: 'V1PodTemplate' },
  'v1/ReplicationController': { model: 'V1ReplicationController' },
  'v1/Event': { model: 'CoreV1Event' },
  'apps/v1/ReplicaSet': { model: 'V1ReplicaSet' },
  'apps/v1/ControllerRevision': { model: 'V1ControllerRevision' },
  'autoscaling/v1/HorizontalPodAutoscaler': { model: 'V1HorizontalPodAutoscaler' },
  'networking.k8s.io/v1/IngressClass': { model: 'V1IngressClass' },
  'storage.k8s.io/v1/StorageClass': { model: 'V1StorageClass' },
  'storage.k8s.io/v1/CSIDriver': { model: 'V1CSIDriver' },
  'storage.k8s.io/v1/CSINode': { model: 'V1CSINode' },
  'storage.k8s.io/v1/VolumeAttachment': { model: 'V1VolumeAttachment' },
  'storage.k8s.io/v1/CSIStorageCapacity': { model: 'V1CSIStorageCapacity' },
  'node.k8s.io/v1/RuntimeClass': { model: 'V1RuntimeClass' },
  'discovery.k8s.io/v1/EndpointSlice': { model: 'V1EndpointSlice' },
  'events.k8s.io/v1/Event': { model: 'EventsV1Event' },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': { model: 'V1ValidatingAdmissionPolicy' },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': { model: 'V1ValidatingAdmissionPolicyBinding' },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': { model: 'V1FlowSchema', name: 'path-segment' },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': { model: 'V1PriorityLevelConfiguration', name: 'path-segment' },
  'certificates.k8s.io/v1/CertificateSigningRequest': { model: 'V1CertificateSigningRequest' },
};

/** True if `apiVersion`/`kind` is one of the built-in kinds the validators know. */
export function isBuiltinKind(apiVersion: string, kind: string): boolean {
  return `${apiVersion}/${kind}` in KINDS;
}

/** True if the API group of `apiVersion` belongs to Kubernetes itself (core, apps, *.k8s.io, ...). */
export function isBuiltinGroup(apiVersion: string): boolean {
  return builtinGroups().has(apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '');
}

let builtinGroupSet: Set<string> | undefined;
/**
 * The groups Kubernetes v1.32 itself serves: those of the kinds the validators know, and the
 * ones whose kinds it does not model (review APIs, extensions). CRD-served groups with
 * k8s.io names (gateway.networking.k8s.io, inference.networking.k8s.io) are not among them.
 */
function builtinGroups(): Set<string> {
  builtinGroupSet ??= new Set([
    ...Object.keys(KINDS).map((k) => {
      const apiVersion = k.slice(0, k.lastIndexOf('/'));
      return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
    }),
    'extensions', 'authentication.k8s.io', 'authorization.k8s.io', 'resource.k8s.io', 'storagemigration.k8s.io', 'internal.apiserver.k8s.io',
  ]);
  return builtinGroupSet;
}

/** The built-in kinds the validators know, as `apiVersion/kind`. */
export function builtinKinds(): string[] {
  return Object.keys(KINDS);
}

