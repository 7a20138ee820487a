import { FactKind } from '../../lib/parity';

/**
 * Which default platform and components each upstream install (test/parity/facts/) is
 * compared with, and which image carries the release the component models.
 */
export interface ParityTarget {
  /** The facts file: test/parity/facts/<install>.json. */
  readonly install: string;
  /** The default platform (platforms/index.ts) whose output is compared. */
  readonly platform: string;
  /** The components of that platform whose objects make up upstream's install. */
  readonly components: readonly string[];
  /**
   * The versions.json entry (component id, image key) whose `modelled` tag is the release
   * modelled; a string instead, for an install that runs no image, says why it has none.
   */
  readonly release: { readonly component: string; readonly key: string } | string;
  /**
   * Only facts of these kinds are compared, for an install of one kind of object that spans
   * many components (kubeflow/manifests' NetworkPolicies).
   * @default every kind
   */
  readonly factKinds?: readonly FactKind[];
  /** Only the components' objects in this namespace are compared. @default every namespace */
  readonly namespace?: string;
}

export const PARITY_TARGETS: readonly ParityTarget[] = [
  { install: 'kserve', platform: 'serving', components: ['kserve'], release: { component: 'kserve', key: 'controller' } },
  { install: 'gateway-api-inference-extension', platform: 'serving', components: ['gateway-api-inference-extension'], release: { component: 'gateway-api-inference-extension', key: 'epp' } },
  { install: 'kueue', platform: 'training', components: ['kueue'], release: { component: 'kueue', key: 'controller' } },
  { install: 'jobset', platform: 'training', components: ['jobset'], release: { component: 'jobset', key: 'controller' } },
  // Trainer's manager overlay installs JobSet too.
  { install: 'trainer', platform: 'training', components: ['trainer', 'jobset'], release: { component: 'trainer', key: 'controller' } },
  { install: 'training-operator', platform: 'training', components: ['training-operator'], release: { component: 'training-operator', key: 'controller' } },
  { install: 'kuberay', platform: 'training', components: ['kuberay'], release: { component: 'kuberay', key: 'operator' } },
  { install: 'appwrapper', platform: 'training', components: ['appwrapper'], release: { component: 'appwrapper', key: 'controller' } },
  { install: 'codeflare-operator', platform: 'training', components: ['codeflare'], release: { component: 'codeflare', key: 'operator' } },
  { install: 'spark-operator', platform: 'training', components: ['spark-operator'], release: { component: 'spark-operator', key: 'operator' } },
  { install: 'modelmesh-serving', platform: 'model-serving', components: ['modelmesh-serving'], release: { component: 'modelmesh-serving', key: 'controller' } },
  { install: 'llm-d-inference-scheduler', platform: 'model-serving', components: ['llm-d-router'], release: { component: 'llm-d-router', key: 'endpointPicker' } },
  { install: 'workload-variant-autoscaler', platform: 'model-serving', components: ['workload-variant-autoscaler'], release: { component: 'workload-variant-autoscaler', key: 'controller' } },
  { install: 'models-as-a-service', platform: 'model-serving', components: ['models-as-a-service'], release: { component: 'models-as-a-service', key: 'controller' } },
  { install: 'model-registry-operator', platform: 'model-serving', components: ['model-registry-operator'], release: { component: 'model-registry-operator', key: 'operator' } },
  { install: 'llama-stack-k8s-operator', platform: 'model-serving', components: ['llama-stack-k8s-operator'], release: { component: 'llama-stack-k8s-operator', key: 'controller' } },
  { install: 'mlflow-operator', platform: 'model-serving', components: ['mlflow-operator'], release: { component: 'mlflow-operator', key: 'controller' } },
  { install: 'odh-model-controller', platform: 'model-serving', components: ['odh-model-controller'], release: { component: 'odh-model-controller', key: 'controller' } },
  // The kubeflow platform runs Pipelines multi-user, as the Kubeflow distribution does.
  { install: 'kubeflow-pipelines-multi-user', platform: 'kubeflow', components: ['kubeflow-pipelines'], release: { component: 'kubeflow-pipelines', key: 'apiServer' } },
  { install: 'argo-workflows', platform: 'kubeflow', components: ['argo-workflows'], release: { component: 'argo-workflows', key: 'workflowController' } },
  { install: 'katib', platform: 'kubeflow', components: ['katib'], release: { component: 'katib', key: 'controller' } },
  { install: 'notebook-controller', platform: 'kubeflow', components: ['notebook-controller'], release: { component: 'notebook-controller', key: 'controller' } },
  { install: 'profile-controller', platform: 'kubeflow', components: ['profile-controller'], release: { component: 'profile-controller', key: 'controller' } },
  { install: 'admission-webhook', platform: 'kubeflow', components: ['admission-webhook'], release: { component: 'admission-webhook', key: 'webhook' } },
  { install: 'jupyter-web-app', platform: 'kubeflow', components: ['jupyter-web-app'], release: { component: 'jupyter-web-app', key: 'webApp' } },
  { install: 'volumes-web-app', platform: 'kubeflow', components: ['volumes-web-app'], release: { component: 'volumes-web-app', key: 'webApp' } },
  { install: 'tensorboards-web-app', platform: 'kubeflow', components: ['tensorboards-web-app'], release: { component: 'tensorboards-web-app', key: 'webApp' } },
  { install: 'tensorboard-controller', platform: 'kubeflow', components: ['tensorboard-controller'], release: { component: 'tensorboard-controller', key: 'controller' } },
  { install: 'pvcviewer-controller', platform: 'kubeflow', components: ['pvcviewer-controller'], release: { component: 'pvcviewer-controller', key: 'controller' } },
  { install: 'central-dashboard', platform: 'kubeflow', components: ['central-dashboard'], release: { component: 'central-dashboard', key: 'dashboard' } },
  { install: 'model-registry', platform: 'kubeflow', components: ['model-registry'], release: { component: 'model-registry', key: 'server' } },
  // kubeflow/manifests v1.11.0's own installs (common/dex, common/oauth2-proxy, common/istio) and the models web app it vendors.
  { install: 'models-web-app', platform: 'kubeflow', components: ['models-web-app'], release: { component: 'models-web-app', key: 'webApp' } },
  { install: 'dex', platform: 'kubeflow', components: ['dex'], release: { component: 'dex', key: 'dex' } },
  { install: 'oauth2-proxy', platform: 'kubeflow', components: ['oauth2-proxy'], release: { component: 'oauth2-proxy', key: 'proxy' } },
  { install: 'kubeflow-istio-resources', platform: 'kubeflow', components: ['kubeflow-istio-resources'], release: 'a Gateway and ClusterRoles: no image, so no image tag to hold to kubeflow/manifests v1.11.0 (the construct\'s release says v1.11.0)' },
  // kubeflow/manifests v1.11.0's common/networkpolicies: the policies of the kubeflow namespace, whichever component declares each.
  {
    install: 'kubeflow-networkpolicies',
    platform: 'kubeflow',
    components: ['namespace-isolation', 'kubeflow-pipelines', 'katib', 'jupyter-web-app', 'volumes-web-app', 'tensorboards-web-app', 'models-web-app', 'model-registry', 'pvcviewer-controller', 'spark-operator', 'admission-webhook', 'central-dashboard', 'profile-controller'],
    factKinds: [FactKind.NETWORK_POLICY, FactKind.NETWORK_POLICY_RULE],
    namespace: 'kubeflow',
    release: 'NetworkPolicies only: no image, so no image tag to hold to kubeflow/manifests v1.11.0 (the platform models v1.11.0\'s example)',
  },
  { install: 'data-science-pipelines-operator', platform: 'opendatahub', components: ['data-science-pipelines-operator'], release: { component: 'data-science-pipelines-operator', key: 'operator' } },
];

/**
 * Facts files no default platform is compared with, and why (kept for reference and for
 * the release check).
 */
export const UNCOMPARED_INSTALLS: Readonly<Record<string, string>> = {
  'kubeflow-pipelines': 'single-user Pipelines: no default platform runs it (kubeflow runs multi-user, opendatahub runs the operator)',
};

/** Default components with no upstream facts, and why. */
export const COMPONENTS_WITHOUT_FACTS: Readonly<Record<string, string>> = {
  'cert-manager': 'infrastructure the platform may install; its release manifest is not among the rendered upstream installs',
  'ai-gateway-payload-processing': 'upstream ships a Helm chart only: there is no rendered default install to take facts from',
};
