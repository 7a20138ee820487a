/**
 * Custom resources as users write them (after each project's documented examples), one per
 * kind a webhook of the platforms guards, for the "in motion" tests to send through the real
 * webhooks. All in namespace `examples` (cluster-scoped kinds without one).
 */
import { Manifest } from '../../lib/cluster/desired';

export const EXAMPLES_NAMESPACE = 'examples';
const ns = EXAMPLES_NAMESPACE;

/** KServe: one of each kind its webhooks guard that a platform does not create itself (after KServe's examples). */
export const KSERVE_EXAMPLES: readonly Manifest[] = [
  { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', metadata: { name: 'sklearn-iris', namespace: ns }, spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model' } } } },
  {
    apiVersion: 'serving.kserve.io/v1alpha1',
    kind: 'ServingRuntime',
    metadata: { name: 'sklearn-runtime', namespace: ns },
    spec: { supportedModelFormats: [{ name: 'sklearn', version: '1', autoSelect: true }], containers: [{ name: 'kserve-container', image: 'kserve/sklearnserver:v0.15.0', args: ['--model_name={{.Name}}'] }] },
  },
  { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'InferenceGraph', metadata: { name: 'graph', namespace: ns }, spec: { nodes: { root: { routerType: 'Sequence', steps: [{ name: 'first', serviceName: 'sklearn-iris' }] } } } },
  { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'TrainedModel', metadata: { name: 'iris-v2', namespace: ns }, spec: { inferenceService: 'sklearn-iris', model: { framework: 'sklearn', storageUri: 'gs://kfserving-examples/models/sklearn/1.0/model', memory: '256Mi' } } },
  { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'LocalModelCache', metadata: { name: 'opt-125m' }, spec: { sourceModelUri: 'hf://facebook/opt-125m', modelSize: '1Gi', nodeGroups: ['workers'] } },
  // v1alpha1 is not the storage version (v1alpha2): the API server calls the conversion webhook.
  { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'LLMInferenceService', metadata: { name: 'opt-125m', namespace: ns }, spec: { model: { uri: 'hf://facebook/opt-125m', name: 'facebook/opt-125m' } } },
];

/** cert-manager (when the platform runs it): a self-signed Issuer and a Certificate from it (after cert-manager's docs). */
export const CERT_MANAGER_EXAMPLES: readonly Manifest[] = [
  { apiVersion: 'cert-manager.io/v1', kind: 'Issuer', metadata: { name: 'selfsigned', namespace: ns }, spec: { selfSigned: {} } },
  { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'example-tls', namespace: ns }, spec: { secretName: 'example-tls', dnsNames: ['example.examples.svc'], issuerRef: { name: 'selfsigned', kind: 'Issuer' } } },
];

/** Katib: a random-search Experiment whose trials are batch Jobs (after Katib's random.yaml). */
export const KATIB_EXAMPLES: readonly Manifest[] = [{
  apiVersion: 'kubeflow.org/v1beta1',
  kind: 'Experiment',
  metadata: { name: 'random', namespace: ns },
  spec: {
    objective: { type: 'maximize', goal: 0.99, objectiveMetricName: 'Validation-accuracy', additionalMetricNames: ['Train-accuracy'] },
    algorithm: { algorithmName: 'random' },
    parallelTrialCount: 3,
    maxTrialCount: 12,
    maxFailedTrialCount: 3,
    parameters: [{ name: 'lr', parameterType: 'double', feasibleSpace: { min: '0.01', max: '0.03' } }],
    trialTemplate: {
      primaryContainerName: 'training-container',
      trialParameters: [{ name: 'learningRate', description: 'Learning rate for the training model', reference: 'lr' }],
      trialSpec: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'training-container', image: 'docker.io/kubeflowkatib/mxnet-mnist:latest', command: ['python3', '/opt/mxnet-mnist/mnist.py', '--lr=${trialParameters.learningRate}'] }] } } },
      },
    },
  },
}];

/** The Model Registry operator: a registry on PostgreSQL, at v1alpha1 (stored as v1beta1: converted by its webhook). */
export const MODEL_REGISTRY_EXAMPLES: readonly Manifest[] = [{
  apiVersion: 'modelregistry.opendatahub.io/v1alpha1',
  kind: 'ModelRegistry',
  metadata: { name: 'modelregistry-sample', namespace: ns },
  spec: { grpc: {}, rest: {}, postgres: { host: 'model-registry-db', port: 5432, database: 'model_registry', username: 'mlmduser', passwordSecret: { name: 'model-registry-db', key: 'database-password' } } },
}];

/** Models-as-a-Service and odh-model-controller's NIM account. */
export const MAAS_EXAMPLES: readonly Manifest[] = [
  { apiVersion: 'maas.opendatahub.io/v1alpha1', kind: 'AITenant', metadata: { name: 'team-a', namespace: ns }, spec: { gateway: { name: 'maas-default-gateway' } } },
  { apiVersion: 'nim.opendatahub.io/v1', kind: 'Account', metadata: { name: 'nim', namespace: ns }, spec: { apiKeySecret: { name: 'ngc-api-key' } } },
];

/** Training and batch on opendatahub: the training operator, KubeRay (with CodeFlare's webhook), AppWrapper, Spark, Kueue (a ClusterQueue at v1beta1: converted), notebooks. */
export const TRAINING_EXAMPLES: readonly Manifest[] = [
  {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'pytorch-simple', namespace: ns },
    spec: { pytorchReplicaSpecs: { Master: { replicas: 1, restartPolicy: 'OnFailure', template: { spec: { containers: [{ name: 'pytorch', image: 'docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727', command: ['python3', '/opt/pytorch-mnist/mnist.py', '--epochs=1'] }] } } } } },
  },
  { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'raycluster-mini', namespace: ns }, spec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.41.0' }] } } } } },
  {
    apiVersion: 'workload.codeflare.dev/v1beta2',
    kind: 'AppWrapper',
    metadata: { name: 'sample-job', namespace: ns },
    spec: { components: [{ template: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'sample-job' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'busybox', image: 'quay.io/project-codeflare/busybox:1.36', command: ['sh', '-c', 'sleep 10'] }] } } } } }] },
  },
  {
    apiVersion: 'sparkoperator.k8s.io/v1beta2',
    kind: 'SparkApplication',
    metadata: { name: 'spark-pi', namespace: ns },
    spec: {
      type: 'Scala',
      mode: 'cluster',
      image: 'spark:3.5.5',
      mainClass: 'org.apache.spark.examples.SparkPi',
      mainApplicationFile: 'local:///opt/spark/examples/jars/spark-examples.jar',
      sparkVersion: '3.5.5',
      driver: { cores: 1, memory: '512m', serviceAccount: 'spark-operator-spark' },
      executor: { instances: 1, cores: 1, memory: '512m' },
    },
  },
  { apiVersion: 'kueue.x-k8s.io/v1beta2', kind: 'ResourceFlavor', metadata: { name: 'default-flavor' }, spec: {} },
  {
    apiVersion: 'kueue.x-k8s.io/v1beta1',
    kind: 'ClusterQueue',
    metadata: { name: 'cluster-queue' },
    spec: { namespaceSelector: {}, resourceGroups: [{ coveredResources: ['cpu', 'memory'], flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: 9 }, { name: 'memory', nominalQuota: '36Gi' }] }] }] },
  },
  { apiVersion: 'kubeflow.org/v1', kind: 'Notebook', metadata: { name: 'workbench', namespace: ns }, spec: { template: { spec: { containers: [{ name: 'workbench', image: 'quay.io/opendatahub/workbench-images:jupyter-minimal-ubi9-python-3.11' }] } } } },
];
