import { metav1Conditions } from '../../../lib/schema/common';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** The API group of every Spark Operator kind. */
export const SPARK_GROUP = 'sparkoperator.k8s.io';

/** The CRD annotations upstream ships (the k8s.io group needs API approval). */
export const SPARK_CRD_ANNOTATIONS = {
  'api-approved.kubernetes.io': 'https://github.com/kubeflow/spark-operator/pull/1298',
  'controller-gen.kubebuilder.io/version': 'v0.17.1',
};

/**
 * Pod name pattern as upstream's CRD carries it: the Go marker doubles the backslash, so
 * the dot group matches a backslash followed by any character. Kept as shipped (a pod
 * name with a dot is then only accepted by the unanchored match on its first label).
 */
const POD_NAME_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';

const namePath = (typeName: string) => s.object({ name: s.string().required(), path: s.string().required() }).named(typeName);

/** Fields shared by the driver and the executors (SparkPodSpec). */
function sparkPodFields() {
  return {
    affinity: core('V1Affinity'),
    annotations: s.stringMap(),
    configMaps: s.array(namePath('SparkNamePath')).describe('ConfigMaps mounted into the pod, by path.'),
    coreLimit: s.string().describe('Hard CPU limit of the pod, e.g. 1200m.'),
    coreRequest: s.string().describe('CPU request of the pod; takes precedence over cores for the request.'),
    cores: s.int32({ minimum: 1 }).describe('Spark cores of the pod.'),
    dnsConfig: plainCore('V1PodDNSConfig'),
    env: s.array(core('V1EnvVar')),
    envFrom: s.array(plainCore('V1EnvFromSource')),
    envSecretKeyRefs: s.map(s.object({ key: s.string().required(), name: s.string().required() }).named('SparkNameKey'))
      .describe('Deprecated: environment variables from Secret keys; use env.'),
    envVars: s.stringMap().describe('Deprecated: environment variables; use env.'),
    gpu: s.object({
      name: s.string().required().describe('Extended resource name of the GPU, e.g. nvidia.com/gpu.'),
      quantity: s.int64().required(),
    }).named('SparkGpuSpec'),
    hostAliases: s.array(plainCore('V1HostAlias')),
    hostNetwork: s.boolean(),
    image: s.string(),
    initContainers: s.array(core('V1Container')),
    javaOptions: s.string(),
    labels: s.stringMap(),
    lifecycle: s.object({
      postStart: core('V1LifecycleHandler'),
      preStop: core('V1LifecycleHandler'),
    }).named('SparkLifecycle'),
    memory: s.string().describe('Memory of the Spark process, e.g. 512m.'),
    memoryLimit: s.string(),
    memoryOverhead: s.string(),
    nodeSelector: s.stringMap(),
    podSecurityContext: core('V1PodSecurityContext'),
    ports: s.array(s.object({
      containerPort: s.int32().required(),
      name: s.string().required(),
      protocol: s.string().required(),
    }).named('SparkPort')),
    priorityClassName: s.string(),
    schedulerName: s.string(),
    secrets: s.array(s.object({
      name: s.string().required(),
      path: s.string().required(),
      secretType: s.string().required().describe('GCPServiceAccount, HadoopDelegationToken or Generic.'),
    }).named('SparkSecretInfo')),
    securityContext: core('V1SecurityContext'),
    serviceAccount: s.string(),
    shareProcessNamespace: s.boolean(),
    sidecars: s.array(core('V1Container')),
    template: s.object({}, { preserveUnknownFields: true }).describe('A pod template file handed to Spark (spark.kubernetes.*.podTemplateFile).'),
    terminationGracePeriodSeconds: s.int64(),
    tolerations: s.array(plainCore('V1Toleration')),
    volumeMounts: s.array(plainCore('V1VolumeMount')),
  };
}

export function driverSpec() {
  return s.object({
    ...sparkPodFields(),
    kubernetesMaster: s.string(),
    podName: s.string({ pattern: POD_NAME_PATTERN }),
    serviceAnnotations: s.stringMap(),
    serviceLabels: s.stringMap(),
  }).named('SparkDriverSpec');
}

export function executorSpec() {
  return s.object({
    ...sparkPodFields(),
    deleteOnTermination: s.boolean(),
    instances: s.int32({ minimum: 1 }),
  }).named('SparkExecutorSpec');
}

export function dynamicAllocation() {
  return s.object({
    enabled: s.boolean(),
    initialExecutors: s.int32(),
    maxExecutors: s.int32(),
    minExecutors: s.int32(),
    shuffleTrackingEnabled: s.boolean(),
    shuffleTrackingTimeout: s.int64(),
  }).named('SparkDynamicAllocation');
}

const ingressTls = () => s.array(plainCore('V1IngressTLS'));

/** spec of a SparkApplication (also the template of a ScheduledSparkApplication). */
export function sparkApplicationSpec() {
  return s.object({
    arguments: s.array(s.string()),
    batchScheduler: s.string().describe('Batch scheduler for the driver and executors (volcano, yunikorn, kube-scheduler).'),
    batchSchedulerOptions: s.object({
      priorityClassName: s.string(),
      queue: s.string(),
      resources: s.map(s.quantity()),
    }).named('SparkBatchSchedulerOptions'),
    deps: s.object({
      archives: s.array(s.string()),
      excludePackages: s.array(s.string()),
      files: s.array(s.string()),
      jars: s.array(s.string()),
      packages: s.array(s.string()),
      pyFiles: s.array(s.string()),
      repositories: s.array(s.string()),
    }).named('SparkDependencies'),
    driver: driverSpec().required(),
    driverIngressOptions: s.array(s.object({
      ingressAnnotations: s.stringMap(),
      ingressTLS: ingressTls(),
      ingressURLFormat: s.string(),
      serviceAnnotations: s.stringMap(),
      serviceLabels: s.stringMap(),
      servicePort: s.int32().required(),
      servicePortName: s.string().required(),
      serviceType: s.string(),
    }).named('SparkDriverIngressConfiguration')),
    dynamicAllocation: dynamicAllocation(),
    executor: executorSpec().required(),
    failureRetries: s.int32(),
    hadoopConf: s.stringMap(),
    hadoopConfigMap: s.string(),
    image: s.string(),
    imagePullPolicy: s.string(),
    imagePullSecrets: s.array(s.string()),
    mainApplicationFile: s.string().required(),
    mainClass: s.string(),
    memoryOverheadFactor: s.string(),
    mode: s.enum('cluster', 'client'),
    monitoring: s.object({
      exposeDriverMetrics: s.boolean().required(),
      exposeExecutorMetrics: s.boolean().required(),
      metricsProperties: s.string(),
      metricsPropertiesFile: s.string(),
      prometheus: s.object({
        configFile: s.string(),
        configuration: s.string(),
        jmxExporterJar: s.string().required(),
        port: s.int32({ minimum: 1024, maximum: 49151 }),
        portName: s.string(),
      }).named('SparkPrometheusSpec'),
    }).named('SparkMonitoringSpec'),
    nodeSelector: s.stringMap(),
    proxyUser: s.string(),
    pythonVersion: s.enum('2', '3'),
    restartPolicy: s.object({
      onFailureRetries: s.int32({ minimum: 0 }),
      onFailureRetryInterval: s.int64({ minimum: 1 }),
      onSubmissionFailureRetries: s.int32({ minimum: 0 }),
      onSubmissionFailureRetryInterval: s.int64({ minimum: 1 }),
      type: s.enum('Never', 'Always', 'OnFailure'),
    }).named('SparkRestartPolicy'),
    retryInterval: s.int64(),
    sparkConf: s.stringMap(),
    sparkConfigMap: s.string(),
    sparkUIOptions: s.object({
      ingressAnnotations: s.stringMap(),
      ingressTLS: ingressTls(),
      serviceAnnotations: s.stringMap(),
      serviceLabels: s.stringMap(),
      servicePort: s.int32(),
      servicePortName: s.string(),
      serviceType: s.string(),
    }).named('SparkUIConfiguration'),
    sparkVersion: s.string().required(),
    suspend: s.boolean(),
    timeToLiveSeconds: s.int64(),
    type: s.enum('Java', 'Python', 'Scala', 'R').required(),
    volumes: s.array(core('V1Volume')),
  }).named('SparkApplicationSpec');
}

const CONDITION_TYPE_PATTERN = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/** A whole core Service embedded in a spec (SparkConnect's server service). */
export function embeddedService() {
  const portStatus = s.object({
    error: s.string({ maxLength: 316, pattern: CONDITION_TYPE_PATTERN }).required(),
    port: s.int32().required(),
    protocol: s.string().required(),
  }).named('SparkServicePortStatus');
  return s.object({
    apiVersion: s.string(),
    kind: s.string(),
    metadata: s.object({
      annotations: s.stringMap(),
      finalizers: s.array(s.string()),
      labels: s.stringMap(),
      name: s.string(),
      namespace: s.string(),
    }).named('SparkEmbeddedMeta'),
    spec: core('V1ServiceSpec'),
    status: s.object({
      conditions: metav1Conditions(),
      loadBalancer: s.object({
        ingress: s.array(s.object({
          hostname: s.string(),
          ip: s.string(),
          ipMode: s.string(),
          ports: s.array(portStatus, { listType: 'atomic' }),
        }).named('SparkLoadBalancerIngress'), { listType: 'atomic' }),
      }).named('SparkLoadBalancerStatus'),
    }).named('SparkEmbeddedServiceStatus'),
  }).named('SparkEmbeddedService');
}
