import { Construct } from 'constructs';
import { PodDefaultsWebhook } from '../constructs/admission-webhook';
import { ArgoWorkflows } from '../constructs/argo-workflows';
import { CentralDashboard } from '../constructs/central-dashboard';
import { CertManager } from '../constructs/cert-manager';
import { JupyterWebApp, TensorboardsWebApp, VolumesWebApp } from '../constructs/crud-web-apps';
import { Dex } from '../constructs/dex';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { JobSet } from '../constructs/jobset';
import { Katib, KatibTrialKind } from '../constructs/katib';
import { KServe } from '../constructs/kserve';
import { KubeflowIstioResources } from '../constructs/kubeflow-istio-resources';
import { KubeflowPipelines, PIPELINES_TRANSIENT_ERROR_PATTERN, pipelinesArtifactRepository, pipelinesExecutorSettings, pipelinesWorkflowDefaults } from '../constructs/kubeflow-pipelines';
import { KubeflowModelRegistry } from '../constructs/model-registry';
import { ModelsWebApp } from '../constructs/models-web-app';
import { NotebookController } from '../constructs/notebook-controller';
import { OAuth2Proxy } from '../constructs/oauth2-proxy';
import { ProfileController } from '../constructs/profile-controller';
import { PvcViewerController } from '../constructs/pvcviewer-controller';
import { SparkOperator } from '../constructs/spark-operator';
import { TensorboardController } from '../constructs/tensorboard-controller';
import { Trainer } from '../constructs/trainer';
import { PlatformCustomization } from '../lib/customization';
import { ISTIO_INJECTION_ENABLED } from '../lib/istio';
import { OidcProviderSettings } from '../lib/oidc';
import { DeviationCategory, ParityDeviation } from '../lib/parity';
import { networkPolicyDeviation } from '../lib/parity-items';
import { Platform } from '../lib/platform';
import { ISTIO, KNATIVE_SERVING } from '../lib/prerequisites';
import { checkPropKeys } from '../lib/prop-keys';

/**
 * The labels kubeflow/manifests v1.11.0 gives the kubeflow namespace (common/kubeflow-namespace):
 * every pod gets an Istio sidecar unless it opts out (the central components' Istio policies
 * are enforced only there), and Pod Security "restricted" is enforced, which the sidecars
 * pass with the Istio CNI plugin that kubeflow/manifests installs Istio with.
 */
export const KUBEFLOW_NAMESPACE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'control-plane': 'kubeflow',
  ...ISTIO_INJECTION_ENABLED,
  'pod-security.kubernetes.io/enforce': 'restricted',
});

export interface KubeflowPlatformProps extends PlatformCustomization {
  /** @default kubeflow */
  readonly name?: string;
  /** Tenants (Kubeflow profiles) to create, each owned by a user. @default none */
  readonly tenants?: Array<{ readonly name: string; readonly owner: string }>;
  /**
   * Adds upstream's example tenant, `kubeflow-user-example-com` owned by `user@example.com`
   * (what the default kubeflow platform shows). Never added unless asked for: a real
   * platform names its tenants.
   * @default false
   */
  readonly exampleTenant?: boolean;
  /**
   * An external OpenID Connect provider users sign in with (issuer, client id, the Secret
   * key of the client secret). Without it the platform runs Dex, as kubeflow/manifests does
   * (its example user's password hash and the client and cookie secrets from Secrets the
   * platform team creates: see docs/kubeflow-auth.md).
   * @default Dex in the platform
   */
  readonly oidcProvider?: OidcProviderSettings;
  /**
   * Isolates the kubeflow namespace with NetworkPolicies, as kubeflow/manifests v1.11.0's
   * example installs common/networkpolicies: its pods admit the namespace's own pods, and
   * each component there adds what else reaches its pods (the gateway's namespace to the web
   * apps, tenant namespaces to the pipelines API, the API server to webhook ports). A second
   * line of defence behind Istio's AuthorizationPolicies, for what Istio does not cover.
   * @default true
   */
  readonly networkPolicies?: boolean;
}

/**
 * How the kubeflow namespace's isolation differs from kubeflow/manifests v1.11.0's
 * common/networkpolicies where no component of the platform is the one to say so: policies
 * for applications this platform runs elsewhere or not at all, and the copies of
 * default-allow-same-namespace that the folder's `namespace: kubeflow` moves there.
 */
export const KUBEFLOW_ISOLATION_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  networkPolicyDeviation('kserve', 'missing', DeviationCategory.PLATFORM_INTEGRATION,
    'KServe runs in its own namespace (kserve) in this platform, which the platform does not isolate; kubeflow/manifests installs it in kubeflow, where its webhook port must be opened.'),
  ...['cert-manager-webhook', 'jobset-webhook', 'trainer-webhook'].map((name) => networkPolicyDeviation(name, 'missing', DeviationCategory.NOT_INSTALLED,
    `upstream's file places ${name} in the application's own namespace, but the folder's namespace: kubeflow moves it into kubeflow, where it selects no pod (cert-manager, JobSet and Trainer run in cert-manager, jobset-system and kubeflow-system, which neither install isolates); a policy that selects nothing fails synth here (MLP063).`)),
  networkPolicyDeviation('training-operator-webhook', 'missing', DeviationCategory.NOT_INSTALLED,
    'the policy of the training-operator (v1), which kubeflow/manifests\' example leaves out (Trainer replaces it) and so does this platform; in upstream\'s install it selects no pod.'),
  ...['auth', 'cert-manager', 'istio-system', 'knative-serving', 'kubeflow-system', 'oauth2-proxy'].map((ns) => networkPolicyDeviation(`default-allow-same-namespace-${ns}`, 'missing', DeviationCategory.NOT_INSTALLED,
    `meant to isolate namespace ${ns}, but the folder's namespace: kubeflow moves it into kubeflow, where it repeats default-allow-same-namespace; the platform isolates kubeflow alone, as upstream's render does.`)),
];

/** Upstream's example tenant (KubeflowPlatformProps.exampleTenant). */
export const KUBEFLOW_EXAMPLE_TENANT = { name: 'kubeflow-user-example-com', owner: 'user@example.com' } as const;

/**
 * A Kubeflow distribution: pipelines (with Argo Workflows), notebooks (with the Jupyter,
 * Volumes and TensorBoards web apps, TensorBoards and volume viewers), tuning (Katib),
 * training (Trainer with JobSet), a model registry, serving (KServe with the inference extension), multi-user
 * isolation (profiles, PodDefaults), the central dashboard with KServe's models web app, and
 * authentication (Dex or an external OIDC provider, oauth2-proxy, the Kubeflow gateway), with
 * cert-manager included so that the whole applies in one pass; Istio and Knative Serving are on the cluster.
 */
export class KubeflowPlatform extends Platform {
  public readonly profiles: ProfileController;

  constructor(scope: Construct, id: string, props: KubeflowPlatformProps = {}) {
    const { name, tenants, exampleTenant, oidcProvider, networkPolicies, ...customization } = props;
    super(scope, id, {
      ...customization,
      name: name ?? 'kubeflow',
      prerequisites: [ISTIO, KNATIVE_SERVING],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    new CertManager(this, 'cert-manager');
    // Workflows archive logs and outputs in the pipelines' object store, as KFP's install configures Argo.
    new ArgoWorkflows(this, 'argo-workflows', {
      artifactRepository: pipelinesArtifactRepository(),
      executor: pipelinesExecutorSettings(),
      workflowDefaults: pipelinesWorkflowDefaults(),
      transientErrorPattern: PIPELINES_TRANSIENT_ERROR_PATTERN,
    });
    const pipelines = new KubeflowPipelines(this, 'kubeflow-pipelines', { multiUser: true });
    new NotebookController(this, 'notebook-controller');
    // The notebooks' web apps and their controllers (kubeflow/notebooks), as kubeflow/manifests' example install.
    new JupyterWebApp(this, 'jupyter-web-app');
    new TensorboardController(this, 'tensorboard-controller');
    new TensorboardsWebApp(this, 'tensorboards-web-app');
    new PvcViewerController(this, 'pvcviewer-controller');
    new VolumesWebApp(this, 'volumes-web-app');
    this.profiles = new ProfileController(this, 'profile-controller');
    new PodDefaultsWebhook(this, 'admission-webhook');
    new JobSet(this, 'jobset');
    new Trainer(this, 'trainer');
    // Spark applications in every namespace, the operator in kubeflow without a sidecar (kubeflow/manifests' overlays/kubeflow).
    new SparkOperator(this, 'spark-operator', { namespace: pipelines.namespaceName, allNamespaces: true, istioSidecar: false });
    // Trials run as batch Jobs or Trainer TrainJobs (the training-operator's kinds need it in the platform).
    // The UI routed through the Kubeflow gateway, as kubeflow/manifests' katib-with-kubeflow.
    new Katib(this, 'katib', { trialKinds: [KatibTrialKind.JOB, KatibTrialKind.TRAINJOB], uiGateway: 'kubeflow/kubeflow-gateway' });
    new KubeflowModelRegistry(this, 'model-registry');
    new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension');
    new KServe(this, 'kserve');
    // Ingress and authentication (kubeflow/manifests common/istio, common/dex, common/oauth2-proxy)
    // and KServe's models web app (the dashboard's Endpoints page). Dex only without an external provider.
    new KubeflowIstioResources(this, 'kubeflow-istio-resources');
    if (!oidcProvider) new Dex(this, 'dex');
    new OAuth2Proxy(this, 'oauth2-proxy', { oidc: oidcProvider });
    new ModelsWebApp(this, 'models-web-app');
    new CentralDashboard(this, 'central-dashboard');
    for (const t of [...(exampleTenant ? [KUBEFLOW_EXAMPLE_TENANT] : []), ...(tenants ?? [])]) this.profiles.addTenant(t);
    // The central components' namespace, labelled as kubeflow/manifests labels it (customization's labels win).
    for (const ns of new Set([pipelines.namespaceName, this.profiles.namespaceName])) {
      this.labelNamespace(ns, KUBEFLOW_NAMESPACE_LABELS);
      if (networkPolicies ?? true) this.isolateNamespace(ns, { parityDeviations: KUBEFLOW_ISOLATION_PARITY_DEVIATIONS });
    }
  }
}
