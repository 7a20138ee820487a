/**
 * How the `opendatahub` platform differs from the Open Data Hub platform architecture
 * (test/architecture/opendatahub.json holds its facts; scripts/extract-architecture-facts.ts
 * makes them from the document): the document's component names mapped to ours, and every
 * difference with its class and reason. The architecture test fails on a difference not
 * declared here and on a declaration that no longer matches a difference; `mlplatform report
 * --compare-architecture FILE` prints the same classification.
 */
import { ArchitectureDeclaration, ArchitectureDeclarations, ComponentNameMapping, DifferenceClass } from '../lib/architecture-compare';

const COMPONENT_NAMES: ComponentNameMapping[] = [
  {
    architecture: 'distributed-workloads',
    ours: ['kueue'],
    reason: 'ODH\'s distributed-workloads component carries Kueue\'s webhook configuration (its kb.io webhooks are Kueue\'s, of Kueue\'s kinds and its job integrations); our DistributedWorkloads composition serves them from its kueue component',
  },
  {
    architecture: 'llm-d-inference-scheduler',
    ours: ['llm-d-router'],
    reason: 'the llm-d inference scheduler is the endpoint picker of our llm-d-router component (LlmDRouter.scheduler())',
  },
  {
    architecture: 'kubeflow',
    ours: ['notebook-controller'],
    reason: 'ODH\'s kubeflow repository is its notebook controller (with the ODH webhooks), our notebook-controller with odhWebhooks',
  },
  {
    architecture: 'model-registry',
    ours: ['model-registry-operator'],
    reason: 'ODH deploys model registries through the model registry operator',
  },
  {
    architecture: 'data-science-pipelines',
    ours: ['data-science-pipelines-operator'],
    reason: 'ODH deploys Kubeflow Pipelines per DataSciencePipelinesApplication through DSPO, which emits the pipeline CRDs here',
  },
];

const REPO = 'repository-artefact' as const;
const MISSING = 'missing-component' as const;

function d(table: ArchitectureDeclaration['table'], key: string, cls: DifferenceClass, reason: string, setting?: string): ArchitectureDeclaration {
  return { table, key, class: cls, reason, ...(setting ? { setting } : {}) };
}

const notRead = (kind: string) => `the release we pin grants itself no read on ${kind} (its role reads InferencePools only), so it watches none; the document's edge comes from the Inference Extension API types its repository imports`;
const COUNTS = 'the document counts the webhooks its repository defines (every version and integration, optional ones included); the row above the named webhooks explains each named one';

const DIFFERENCES: ArchitectureDeclaration[] = [
  // --- CRD ownership ----------------------------------------------------------------------
  ...['CompositeController', 'ControllerRevision', 'DecoratorController'].map((k) => d('crd', `data-science-pipelines/${k}`, REPO,
    'Metacontroller\'s CRDs, which the data-science-pipelines repository keeps for Kubeflow Pipelines\' multi-user manifests; DSPO\'s deployment of a pipelines stack does not use Metacontroller')),
  ...['LocalModelCache', 'LocalModelNamespaceCache', 'LocalModelNode', 'LocalModelNodeGroup'].map((k) => d('crd', `kserve/${k}`, 'optional',
    'KServe\'s LocalModel cache; the ODH operator does not deploy its controller and node agent, so the opendatahub platform turns it off', 'KServeProps.localModel (true in KServe\'s default; false in the opendatahub platform)')),
  d('crd', 'llama-stack-k8s-operator/OGXServer', MISSING, 'the Llama Stack operator release we pin (v0.9.0) has no OGXServer CRD; it came later'),
  ...['ClusterServingRuntime', 'InferenceService', 'ServingRuntime'].map((k) => d('crd', `modelmesh-serving/${k}`, REPO,
    'ModelMesh\'s repository keeps copies of KServe\'s CRDs; the platform emits one copy, KServe\'s, which modelmesh-serving uses (Component.useCrd)')),

  // --- dependencies -----------------------------------------------------------------------
  ...['InferenceModelRewrite', 'InferenceObjective'].map((k) => d('dependency', `ai-gateway-payload-processing -> gateway-api-inference-extension watches-crd:${k}`, REPO, notRead(k))),
  d('dependency', 'kubeflow -> data-science-pipelines-operator go-module', REPO, 'a Go module import in the notebook controller\'s repository; the running controller reads no DSPO kind'),
  ...['InferenceModelRewrite', 'InferenceObjective'].map((k) => d('dependency', `llm-d-inference-scheduler -> gateway-api-inference-extension watches-crd:${k}`, REPO,
    `the llm-d router release we pin reads ${k} of its own group llm-d.ai (a CRD llm-d-router emits); the scheduler's repository still imports the Inference Extension's x-k8s.io types, which its role also grants`)),
  d('dependency', 'mlflow-operator -> mlflow-operator go-module', REPO, 'the operator\'s repository importing its own module; not a dependency between components'),
  d('dependency', 'model-registry -> kserve watches-crd:InferenceService', MISSING,
    'the model registry\'s InferenceService reconciler runs in the model registry server\'s repository (its optional controller); the model registry operator we compose deploys registries and does not watch InferenceServices'),
  ...['InferenceGraph', 'TrainedModel'].map((k) => d('dependency', `modelmesh-serving -> kserve watches-crd:${k}`, REPO,
    `ModelMesh's repository imports KServe's API module, ${k} included; its controller reconciles Predictors, InferenceServices and ServingRuntimes only`)),
  d('dependency', 'odh-cli -> opendatahub-operator go-module', REPO, 'odh-cli is a command-line tool, not a component deployed on the cluster'),
  d('dependency', 'workload-variant-autoscaler -> gateway-api-inference-extension watches-crd:InferenceObjective', REPO, notRead('InferenceObjective')),
  d('dependency', 'kserve -> modelmesh-serving webhook-ref', REPO,
    'the document attributes KServe\'s webhooks to ModelMesh because ModelMesh\'s repository carries a copy of KServe\'s webhook configuration; KServe\'s webhooks are served by KServe (see the webhook rows)'),
  d('dependency', 'modelmesh-serving -> workload-variant-autoscaler webhook-ref', REPO,
    'a conversion stanza whose Service the analysis could not name (conversion-unknown); ModelMesh\'s CRDs have no conversion webhook'),
  d('dependency', 'spark-operator -> workload-variant-autoscaler webhook-ref', REPO,
    'a conversion stanza whose Service the analysis could not name (conversion-unknown); the Spark Operator\'s CRDs have no conversion webhook'),

  // --- named webhooks ---------------------------------------------------------------------
  d('webhook', 'modelmesh-serving conversion conversion-unknown /convert', REPO, 'kubebuilder\'s commented-out conversion patch in ModelMesh\'s repository; no install enables it'),
  d('webhook', 'spark-operator conversion conversion-unknown /convert', REPO, 'kubebuilder\'s conversion patch in the Spark Operator\'s repository; its chart installs no conversion webhook'),
  ...['mutating mmpijob.kb.io /mutate-kubeflow-org-v2beta1-mpijob', 'validating vmpijob.kb.io /validate-kubeflow-org-v2beta1-mpijob'].map((w) => d('webhook', `distributed-workloads ${w}`, 'optional',
    'Kueue serves it with its kubeflow.org/mpijob integration, whose kind is the MPI Operator\'s kubeflow.org/v2beta1 MPIJob: a CRD of the same name (mpijobs.kubeflow.org) as the training-operator\'s v1 MPIJob this platform serves, so the two cannot both be on the cluster',
    'KueueProps.integrations \'kubeflow.org/mpijob\', with the MPI Operator in place of the training-operator\'s MPIJob')),
  d('webhook', 'kuberay mutating mraycluster.kb.io /mutate-ray-io-v1-raycluster', REPO,
    'a defaulting webhook scaffolded in KubeRay\'s repository that no overlay deploys; KubeRay\'s opt-in webhooks are validating (KubeRayProps.webhooks)'),

  // --- webhooks per component -------------------------------------------------------------
  ...['data-science-pipelines-operator', 'distributed-workloads', 'kserve', 'kuberay', 'kueue', 'modelmesh-serving', 'trainer'].map((c) => d('webhook-count', c, REPO, COUNTS)),
  d('webhook-count', 'llama-stack-k8s-operator', REPO, 'the Llama Stack operator release we pin serves no webhook; the document counts one of a later release'),
  d('webhook-count', 'llm-d-inference-scheduler', REPO, 'the llm-d router serves no admission webhook in its deployment; the document counts webhooks its repository defines'),
  d('webhook-count', 'spark-operator', REPO, COUNTS),
  d('webhook-count', 'workload-variant-autoscaler', REPO, 'the autoscaler release we pin (v0.5.1) serves no webhook; the document counts the webhooks its repository scaffolds'),
];

/** What the opendatahub platform declares about the Open Data Hub platform architecture. */
export const OPENDATAHUB_ARCHITECTURE_DECLARATIONS: ArchitectureDeclarations = {
  componentNames: COMPONENT_NAMES,
  differences: DIFFERENCES,
};
