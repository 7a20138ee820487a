import { containerExtras, embeddedService, managedBy, podTemplate, resourceRequirements } from './common';
import { metav1Conditions } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const groupName = () => s.string().required().describe('Name of the worker group, unique in the cluster.');

/** Worker replica bounds, with upstream's defaults (0, 0 and the largest int32). */
const replicaFields = () => ({
  replicas: s.int32().default(0).describe('Desired number of pods of the group.'),
  minReplicas: s.int32().default(0).required().describe('Fewest pods the autoscaler keeps.'),
  maxReplicas: s.int32().default(2147483647).required().describe('Most pods the autoscaler creates.'),
});

const scaleStrategy = () => s.object({
  workersToDelete: s.array(s.string()).describe('Worker pods the autoscaler asks to remove.'),
}).named('RayScaleStrategy');

// --- ray.io/v1 ------------------------------------------------------------------------------

const networkPolicyPort = () => s.array(plainCore('V1NetworkPolicyPort'), { listType: 'atomic' });
const peers = () => s.array(core('V1NetworkPolicyPeer'), { listType: 'atomic' });
const ingressRule = () => s.object({ from: peers(), ports: networkPolicyPort() }).named('RayNetworkPolicyIngressRule');
const egressRule = () => s.object({ to: peers(), ports: networkPolicyPort() }).named('RayNetworkPolicyEgressRule');
const nodePolicy = () => s.object({ ingressRules: s.array(ingressRule()), egressRules: s.array(egressRule()) }).named('RayNodeNetworkPolicy');

const secretValue = () => s.object({
  value: s.string(),
  valueFrom: core('V1EnvVarSource'),
}).named('RayRedisCredential');

/** spec of a ray.io/v1 RayCluster (also embedded by RayJob, RayService and RayCronJob). */
export function rayClusterSpecV1() {
  return s.object({
    authOptions: s.object({
      enableK8sTokenAuth: s.boolean().describe('Whether Ray accepts Kubernetes service account tokens.'),
      mode: s.enum('disabled', 'token').describe('How clients authenticate to the Ray cluster.'),
      secretName: s.string().describe('Secret holding the token (generated when unset).'),
    }).named('RayAuthOptions'),
    autoscalerOptions: s.object({
      ...containerExtras(),
      args: s.array(s.string()),
      command: s.array(s.string()),
      idleTimeoutSeconds: s.int32().describe('Seconds an idle worker lives before the autoscaler removes it.'),
      image: s.string(),
      imagePullPolicy: s.string(),
      resources: resourceRequirements(),
      upscalingMode: s.enum('Default', 'Aggressive', 'Conservative'),
      version: s.enum('v1', 'v2').describe('Autoscaler generation.'),
    }).named('RayAutoscalerOptions'),
    enableInTreeAutoscaling: s.boolean().describe('Whether KubeRay runs the Ray autoscaler as a head sidecar.'),
    gcsFaultToleranceOptions: s.object({
      // Own rule, unconfirmed: the outline records one CEL rule on backend; switching the
      // storage of a running cluster's GCS state is not something the controller supports.
      backend: s.enum('redis', 'rocksdb').rule('self == oldSelf', 'the GCS fault tolerance backend cannot be changed once set'),
      externalStorageNamespace: s.string(),
      redisAddress: s.string(),
      redisPassword: secretValue(),
      redisUsername: secretValue(),
      storage: s.object({
        accessModes: s.array(s.string()),
        claimName: s.string(),
        deletionPolicy: s.enum('DeleteWithCluster', 'Retain'),
        size: s.quantity(),
        storageClassName: s.string(),
        subPath: s.string(),
      }).named('RayGcsStorage'),
    }).named('RayGcsFaultToleranceOptions'),
    headGroupSpec: s.object({
      enableIngress: s.boolean(),
      headService: embeddedService(),
      ingressOptions: s.object({
        host: s.string(),
        path: s.string(),
        pathType: s.enum('Exact', 'Prefix', 'ImplementationSpecific'),
        tls: s.array(plainCore('V1IngressTLS')),
      }).named('RayIngressOptions'),
      labels: s.stringMap(),
      rayStartParams: s.stringMap().describe('Flags of `ray start` on the head node.'),
      resources: s.stringMap().describe('Ray logical resources of the head node.'),
      serviceType: s.string(),
      template: podTemplate().required(),
    }).named('RayHeadGroupSpec').required(),
    headServiceAnnotations: s.stringMap(),
    historyServerOptions: s.object({
      collectorOptions: s.object({
        env: s.array(core('V1EnvVar')),
        image: s.string(),
        imagePullPolicy: s.string(),
        resources: resourceRequirements(),
      }).named('RayHistoryCollectorOptions'),
    }).named('RayHistoryServerOptions'),
    managedBy: managedBy(),
    networkPolicy: s.object({
      head: nodePolicy(),
      mode: s.enum('DenyAll', 'DenyAllIngress', 'DenyAllEgress').default('DenyAll'),
      worker: nodePolicy(),
      workerGroups: s.array(s.object({
        groupName: groupName(),
        ingressRules: s.array(ingressRule()),
        egressRules: s.array(egressRule()),
      }).named('RayWorkerGroupNetworkPolicy'), { listType: 'map', listMapKeys: ['groupName'] }),
    }).named('RayNetworkPolicy'),
    rayVersion: s.string().describe('Ray version the images run.'),
    suspend: s.boolean(),
    tlsOptions: s.object({ enabled: s.boolean() }).named('RayTlsOptions'),
    upgradeStrategy: s.object({ type: s.enum('Recreate', 'None') }).named('RayClusterUpgradeStrategy'),
    workerGroupSpecs: s.array(s.object({
      ...replicaFields(),
      groupName: groupName(),
      idleTimeoutSeconds: s.int32(),
      labels: s.stringMap(),
      numOfHosts: s.int32().default(1).describe('Hosts per replica (multi-host TPU slices).'),
      priority: s.int32().default(0),
      rayStartParams: s.stringMap(),
      resources: s.stringMap(),
      scaleStrategy: scaleStrategy(),
      suspend: s.boolean(),
      template: podTemplate().required(),
    }).named('RayWorkerGroupSpec')),
  }).named('RayClusterSpec');
}

const quantities = () => ({
  desiredCPU: s.quantity(),
  desiredGPU: s.quantity(),
  desiredMemory: s.quantity(),
  desiredTPU: s.quantity(),
});

/** status of a ray.io/v1 RayCluster (also reported by RayJob and RayService). */
export function rayClusterStatusV1() {
  return s.object({
    ...quantities(),
    availableWorkerReplicas: s.int32(),
    conditions: metav1Conditions(),
    desiredWorkerReplicas: s.int32(),
    endpoints: s.stringMap(),
    head: s.object({ podIP: s.string(), podName: s.string(), serviceIP: s.string(), serviceName: s.string() }).named('RayHeadInfo'),
    lastUpdateTime: s.dateTime().nullable(),
    maxWorkerReplicas: s.int32(),
    minWorkerReplicas: s.int32(),
    observedGeneration: s.int64(),
    readyWorkerReplicas: s.int32(),
    reason: s.string(),
    state: s.string(),
    stateTransitionTimes: s.map(s.dateTime()),
  }).named('RayClusterStatus');
}

// --- ray.io/v1alpha1 (deprecated) -----------------------------------------------------------

/** spec of a ray.io/v1alpha1 RayCluster: the v1.0 field set. */
export function rayClusterSpecV1alpha1() {
  return s.object({
    autoscalerOptions: s.object({
      ...containerExtras(),
      idleTimeoutSeconds: s.int32(),
      image: s.string(),
      imagePullPolicy: s.string(),
      resources: resourceRequirements(),
      upscalingMode: s.enum('Default', 'Aggressive', 'Conservative'),
    }).named('RayAutoscalerOptionsV1alpha1'),
    enableInTreeAutoscaling: s.boolean(),
    headGroupSpec: s.object({
      enableIngress: s.boolean(),
      headService: embeddedService(),
      rayStartParams: s.stringMap().required(),
      serviceType: s.string(),
      template: podTemplate().required(),
    }).named('RayHeadGroupSpecV1alpha1').required(),
    headServiceAnnotations: s.stringMap(),
    rayVersion: s.string(),
    suspend: s.boolean(),
    workerGroupSpecs: s.array(s.object({
      ...replicaFields(),
      groupName: groupName(),
      rayStartParams: s.stringMap().required(),
      scaleStrategy: scaleStrategy(),
      template: podTemplate().required(),
    }).named('RayWorkerGroupSpecV1alpha1')),
  }).named('RayClusterSpecV1alpha1');
}

/** status of a ray.io/v1alpha1 RayCluster. */
export function rayClusterStatusV1alpha1() {
  return s.object({
    ...quantities(),
    availableWorkerReplicas: s.int32(),
    desiredWorkerReplicas: s.int32(),
    endpoints: s.stringMap(),
    head: s.object({ podIP: s.string(), serviceIP: s.string() }).named('RayHeadInfoV1alpha1'),
    lastUpdateTime: s.dateTime().nullable(),
    maxWorkerReplicas: s.int32(),
    minWorkerReplicas: s.int32(),
    observedGeneration: s.int64(),
    readyWorkerReplicas: s.int32(),
    reason: s.string(),
    state: s.string(),
  }).named('RayClusterStatusV1alpha1');
}
