import * as fs from 'fs';
import { Construct } from 'constructs';
import { OPENDATAHUB_ARCHITECTURE_DECLARATIONS } from './opendatahub-architecture';
import { DataScienceClusterError, DataScienceClusterOptions, openDataHubPropsFromDataScienceCluster } from './opendatahub-dsc';
import { AiGatewayPayloadProcessing } from '../constructs/ai-gateway-payload-processing';
import { DataSciencePipelinesOperator } from '../constructs/data-science-pipelines-operator';
import { DistributedWorkloads } from '../constructs/distributed-workloads';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { DeploymentMode, KServe, KServeProps } from '../constructs/kserve';
import type { KueueIntegration } from '../constructs/kueue';
import { LlamaStackOperator } from '../constructs/llama-stack-k8s-operator';
import { LlmDRouter } from '../constructs/llm-d-router';
import { MLflowOperator } from '../constructs/mlflow-operator';
import { ModelRegistryOperator } from '../constructs/model-registry-operator';
import { MODELMESH_ETCD, ModelMeshServing } from '../constructs/modelmesh-serving';
import { ModelsAsAService } from '../constructs/models-as-a-service';
import { NotebookController } from '../constructs/notebook-controller';
import { IntegrationState, OdhModelController } from '../constructs/odh-model-controller';
import { OdhTrustedCaBundle } from '../constructs/odh-trusted-ca-bundle';
import { SparkOperator } from '../constructs/spark-operator';
import { TrainingOperator } from '../constructs/training-operator';
import { WorkloadVariantAutoscaler } from '../constructs/workload-variant-autoscaler';
import { architectureFactsOf } from '../lib/architecture-compare';
import { CertificateProvider } from '../lib/certificates';
import { GATEWAY_API, PROMETHEUS_OPERATOR } from '../lib/component';
import { PlatformCustomization } from '../lib/customization';
import { Platform } from '../lib/platform';
import { LEADER_WORKER_SET, ODH_OPERATOR, OPENSHIFT } from '../lib/prerequisites';
import { reportProblem } from '../lib/problems';
import { checkPropKeys } from '../lib/prop-keys';

export interface OpenDataHubPlatformProps extends PlatformCustomization {
  /** @default opendatahub */
  readonly name?: string;
  /**
   * The applications namespace, where every controller runs (DSCInitialization's
   * spec.applicationsNamespace). Same as `namespaces.applications`, which wins when both are set.
   * @default opendatahub
   */
  readonly applicationsNamespace?: string;
  /**
   * Where the Workload Variant Autoscaler reads model-server metrics, over https only (v0.5.1
   * exits on any other scheme).
   * @default https://thanos-querier.openshift-monitoring.svc:9091, OpenShift's query endpoint
   * over the cluster's and user workloads' Prometheus, its certificate not verified
   */
  readonly prometheusUrl?: string;
  /**
   * Skip verification of the Prometheus certificate.
   * @default true for the default prometheusUrl, else false
   */
  readonly prometheusTlsInsecureSkipVerify?: boolean;
  /** The CA of the Prometheus certificate, as a path in the autoscaler's container. @default none: the system roots */
  readonly prometheusCaCertPath?: string;
  /**
   * The Open Data Hub platform architecture document (Markdown), read from this path at
   * construction: REPORT.md then compares the platform with it row by row, each difference
   * classified by platforms/opendatahub-architecture.ts. Nothing of it is bundled.
   * @default none: no comparison in REPORT.md
   */
  readonly architectureDocument?: string;
  /**
   * KServe as the ODH operator configures it (DataScienceCluster spec.components.kserve).
   * @default - KServe's own defaults (Serverless, Headed Services, ingress creation on; NIM on)
   */
  readonly kserve?: OpenDataHubKServeSettings;
  /** The model registry as the ODH operator deploys it (spec.components.modelregistry). @default - the operator construct's defaults */
  readonly modelRegistry?: OpenDataHubModelRegistrySettings;
  /**
   * The namespace workbenches are created in (spec.components.workbenches.workbenchNamespace).
   * Another namespace than the applications namespace is created, labelled
   * opendatahub.io/generated-namespace=true as the ODH operator labels it.
   * @default - the applications namespace
   */
  readonly workbenchNamespace?: string;
  /**
   * The trusted CA bundle (DSCInitialization spec.trustedCABundle): Managed emits the
   * odh-trusted-ca-bundle ConfigMap (the custom bundle in odh-ca-bundle.crt; OpenShift's
   * network operator injects the cluster bundle into ca-bundle.crt, as the label asks) in the
   * applications namespace and the workbench namespace. The copies the ODH operator keeps in
   * every user namespace are its run-time work, not output.
   * @default - none
   */
  readonly trustedCABundle?: OpenDataHubTrustedCABundle;
}

/** KServe settings of the opendatahub platform, as a DataScienceCluster gives them. */
export interface OpenDataHubKServeSettings {
  /** inferenceservice-config deploy.defaultDeploymentMode. @default - KServe's (Serverless) */
  readonly defaultDeploymentMode?: DeploymentMode;
  /**
   * Headless: predictor Services without a cluster IP (service.serviceClusterIPNone true, the
   * ODH operator's default); Headed: with one.
   * @default - KServe's (Headed)
   */
  readonly rawDeploymentServiceConfig?: 'Headless' | 'Headed';
  /** Whether KServe creates ingresses for InferenceServices (ingress.disableIngressCreation negated). @default true */
  readonly ingressCreation?: boolean;
  /** NVIDIA NIM accounts in odh-model-controller (NIM_STATE). @default true */
  readonly nim?: boolean;
}

/** Model registry settings of the opendatahub platform. */
export interface OpenDataHubModelRegistrySettings {
  /**
   * Where the operator deploys registries (REGISTRIES_NAMESPACE); a namespace other than the
   * applications namespace is created (without labels, as the ODH operator creates it).
   * @default - the construct's default ('': each registry's own namespace)
   */
  readonly registriesNamespace?: string;
  /** odh-model-controller's model registry integration (MODELREGISTRY_STATE). @default false */
  readonly servingIntegration?: boolean;
}

/** DSCInitialization spec.trustedCABundle. */
export interface OpenDataHubTrustedCABundle {
  /** Managed emits the ConfigMap; Removed and Unmanaged emit nothing. */
  readonly managementState: 'Managed' | 'Removed' | 'Unmanaged';
  /** PEM certificates added to the cluster's bundle (odh-ca-bundle.crt). @default '' */
  readonly customCABundle?: string;
}

/**
 * Kueue's job integrations in the opendatahub platform: the set the Open Data Hub architecture
 * shows (its kb.io webhooks), each kept only while the component that provides its kind is on.
 * Left out: kubeflow.org/mpijob, whose kind (the MPI Operator's kubeflow.org/v2beta1 MPIJob)
 * is a different CRD under the same name as the training-operator's v1 MPIJob served here.
 */
function odhKueueIntegrations(on: (id: string) => boolean): KueueIntegration[] {
  return [
    'batch/job', 'pod', 'deployment', 'statefulset',
    // LeaderWorkerSet is on the cluster (LEADER_WORKER_SET prerequisite).
    'leaderworkerset.x-k8s.io/leaderworkerset',
    ...(on('training-operator')
      ? ['kubeflow.org/pytorchjob', 'kubeflow.org/tfjob', 'kubeflow.org/xgboostjob', 'kubeflow.org/paddlejob', 'kubeflow.org/jaxjob'] as const
      : []),
  ];
}

/**
 * The Open Data Hub distribution as the ODH operator lays it out: every controller in one
 * applications namespace, webhook certificates from OpenShift's service CA, and each
 * component's ODH variant where the construct has one (the ODH notebook controller with its
 * webhooks, OpenShift integrations of CodeFlare, MLflow and Llama Stack). The components are
 * those of the Open Data Hub platform architecture that the project has (the Workload Variant
 * Autoscaler, AI gateway payload processing, Models-as-a-Service and the Spark Operator
 * included; Kueue with the architecture's job integrations); platforms/opendatahub-architecture.ts
 * declares every difference from that architecture. The cluster is OpenShift with the ODH
 * operator's APIs, the Gateway API, the Prometheus Operator, ModelMesh's etcd and LeaderWorkerSet.
 */
export class OpenDataHubPlatform extends Platform {
  /**
   * The platform a DataScienceCluster and DSCInitialization (ODH operator v3.4.0's APIs, as
   * parsed YAML or JSON) ask for: each component's managementState turns our components on or
   * off, its settings and the DSCI's become props (platforms/opendatahub-dsc.ts has the
   * table). A Managed component this project does not provide is an error unless
   * `options.skipUnsupported` names it; an unknown field is an error ("did you mean").
   */
  public static fromDataScienceCluster(scope: Construct, id: string, dsc: unknown, dsci?: unknown, options: DataScienceClusterOptions = {}): OpenDataHubPlatform {
    let props: OpenDataHubPlatformProps;
    try {
      props = openDataHubPropsFromDataScienceCluster(dsc, dsci, options).props;
    } catch (e) {
      const where = scope.node.path ? `${scope.node.path}/${id}` : id;
      if (e instanceof DataScienceClusterError) throw new DataScienceClusterError(e.problems.map((p) => `${where}: ${p}`));
      throw e;
    }
    return new OpenDataHubPlatform(scope, id, props);
  }

  constructor(scope: Construct, id: string, props: OpenDataHubPlatformProps = {}) {
    const {
      name, applicationsNamespace, prometheusUrl, prometheusTlsInsecureSkipVerify, prometheusCaCertPath, architectureDocument,
      kserve, modelRegistry, workbenchNamespace, trustedCABundle, ...customization
    } = props;
    const applications = customization.namespaces?.applications ?? applicationsNamespace ?? 'opendatahub';
    super(scope, id, {
      ...customization,
      name: name ?? 'opendatahub',
      certificates: customization.certificates ?? CertificateProvider.openShiftServiceCa(),
      // OpenShift's user-workload Prometheus scrapes the components' metrics from its namespace.
      metricsFence: { monitoringNamespace: 'openshift-user-workload-monitoring', ...customization.metricsFence },
      namespaces: {
        ...customization.namespaces,
        applications,
        // Components label their own namespace with their name and control-plane=<their
        // manager>. The shared namespace is ODH's: KServe's pod webhook skips namespaces that
        // have a control-plane label at all, so one value serves every component.
        labels: {
          ...customization.namespaces?.labels,
          [applications]: { 'app.kubernetes.io/name': 'opendatahub', 'control-plane': 'controller-manager', ...customization.namespaces?.labels?.[applications] },
        },
      },
      prerequisites: [OPENSHIFT, ODH_OPERATOR, GATEWAY_API, PROMETHEUS_OPERATOR, MODELMESH_ETCD, LEADER_WORKER_SET],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    const oneOf = (prop: string, value: unknown, allowed: readonly string[]) => {
      if (value !== undefined && !allowed.includes(value as string)) reportProblem(this, `${prop}: ${JSON.stringify(value)} is not one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
    };
    oneOf('kserve.rawDeploymentServiceConfig', kserve?.rawDeploymentServiceConfig, ['Headless', 'Headed']);
    oneOf('trustedCABundle.managementState', trustedCABundle?.managementState, ['Managed', 'Removed', 'Unmanaged']);
    this.declareArchitecture(OPENDATAHUB_ARCHITECTURE_DECLARATIONS);
    if (architectureDocument !== undefined) {
      let text: string;
      try {
        text = fs.readFileSync(architectureDocument, 'utf8');
      } catch (e) {
        throw new Error(`${this.node.path}: architectureDocument '${architectureDocument}' cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): give the path of the architecture document, or leave architectureDocument out`);
      }
      try {
        this.compareWithArchitecture(architectureFactsOf(text));
      } catch (e) {
        throw new Error(`${this.node.path}: architectureDocument '${architectureDocument}': ${(e as Error).message}; give the Open Data Hub platform architecture document`);
      }
    }
    // Every component is created; the ones customization turns off emit nothing.
    // Serving.
    new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension');
    // LocalModel caching is left out: ODH does not deploy its controller and node agent.
    new KServe(this, 'kserve', { localModel: false, workloadVariantAutoscaler: this.isComponentEnabled('workload-variant-autoscaler'), ...kserveProps(kserve) });
    new OdhModelController(this, 'odh-model-controller', {
      ...(kserve?.nim !== undefined ? { nim: kserve.nim ? IntegrationState.MANAGED : IntegrationState.REMOVED } : {}),
      ...(modelRegistry?.servingIntegration !== undefined ? { modelRegistry: modelRegistry.servingIntegration ? IntegrationState.MANAGED : IntegrationState.REMOVED } : {}),
    });
    new ModelMeshServing(this, 'modelmesh-serving');
    new LlmDRouter(this, 'llm-d-router');
    new WorkloadVariantAutoscaler(this, 'workload-variant-autoscaler', {
      prometheusUrl: prometheusUrl ?? 'https://thanos-querier.openshift-monitoring.svc:9091',
      prometheusTlsInsecureSkipVerify: prometheusTlsInsecureSkipVerify ?? (prometheusUrl === undefined && prometheusCaCertPath === undefined),
      prometheusCaCertPath,
    });
    // External models behind the gateway, and Models-as-a-Service publishing models with subscriptions.
    new AiGatewayPayloadProcessing(this, 'ai-gateway-payload-processing');
    new ModelsAsAService(this, 'models-as-a-service');

    // Model lifecycle.
    new ModelRegistryOperator(this, 'model-registry-operator', modelRegistry?.registriesNamespace !== undefined ? { registriesNamespace: modelRegistry.registriesNamespace } : {});
    new MLflowOperator(this, 'mlflow-operator', { openShift: true });
    new LlamaStackOperator(this, 'llama-stack-k8s-operator', { openShift: true });

    // Training and batch: Kueue queues the jobs of the members that are on.
    new TrainingOperator(this, 'training-operator');
    // Spark applications run in the users' data science projects: the operator watches every namespace.
    new SparkOperator(this, 'spark-operator', { allNamespaces: true });
    DistributedWorkloads.addTo(this, {
      codeFlare: { openShift: true },
      kueue: { integrations: odhKueueIntegrations((c) => this.isComponentEnabled(c)) },
    });

    // Pipelines: DSPO deploys a Kubeflow Pipelines stack per DataSciencePipelinesApplication
    // and, with no Kubeflow Pipelines or Argo component here, emits the CRDs it uses from them.
    new DataSciencePipelinesOperator(this, 'data-science-pipelines-operator');

    // Workbenches: Kubeflow's notebook controller with ODH's, routing through Routes and the
    // Gateway API instead of Istio (ODH sets USE_ISTIO=false).
    new NotebookController(this, 'notebook-controller', { istio: false, odhWebhooks: true });

    // Namespaces and the trusted CA bundle the ODH operator creates from the DSC and DSCI.
    const generated = { 'opendatahub.io/generated-namespace': 'true' };
    const workbenches = workbenchNamespace ?? applications;
    if (workbenches !== applications && this.isComponentEnabled('notebook-controller')) this.addNamespace(workbenches, generated);
    const registries = modelRegistry?.registriesNamespace;
    // The operator creates the registries namespace without labels.
    if (registries && registries !== applications && this.isComponentEnabled('model-registry-operator')) this.addNamespace(registries);
    if (trustedCABundle?.managementState === 'Managed') {
      new OdhTrustedCaBundle(this, 'odh-trusted-ca-bundle', {
        namespace: applications,
        customCABundle: trustedCABundle.customCABundle ?? '',
        alsoIn: workbenches !== applications && this.isComponentEnabled('notebook-controller') ? [workbenches] : [],
      });
    }
  }
}

/** KServe's props from the platform's KServe settings. */
function kserveProps(s: OpenDataHubKServeSettings | undefined): { config?: KServeProps['config'] } {
  if (!s) return {};
  const config = {
    ...(s.defaultDeploymentMode !== undefined ? { deploy: { defaultDeploymentMode: s.defaultDeploymentMode } } : {}),
    ...(s.rawDeploymentServiceConfig !== undefined ? { service: { serviceClusterIPNone: s.rawDeploymentServiceConfig === 'Headless' } } : {}),
    ...(s.ingressCreation !== undefined ? { ingress: { disableIngressCreation: !s.ingressCreation } } : {}),
  };
  return Object.keys(config).length ? { config } : {};
}
