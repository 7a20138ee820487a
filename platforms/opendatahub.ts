import { Construct } from 'constructs';
import { DataSciencePipelinesOperator } from '../constructs/data-science-pipelines-operator';
import { DistributedWorkloads } from '../constructs/distributed-workloads';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { KServe } from '../constructs/kserve';
import { LlamaStackOperator } from '../constructs/llama-stack-k8s-operator';
import { LlmDRouter } from '../constructs/llm-d-router';
import { MLflowOperator } from '../constructs/mlflow-operator';
import { ModelRegistryOperator } from '../constructs/model-registry-operator';
import { MODELMESH_ETCD, ModelMeshServing } from '../constructs/modelmesh-serving';
import { NotebookController } from '../constructs/notebook-controller';
import { OdhModelController } from '../constructs/odh-model-controller';
import { TrainingOperator } from '../constructs/training-operator';
import { CertificateProvider } from '../lib/certificates';
import { GATEWAY_API, PROMETHEUS_OPERATOR } from '../lib/component';
import { PlatformCustomization } from '../lib/customization';
import { Platform } from '../lib/platform';
import { ODH_OPERATOR, OPENSHIFT } from '../lib/prerequisites';
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
}

/**
 * The Open Data Hub distribution as the ODH operator lays it out: every controller in one
 * applications namespace, webhook certificates from OpenShift's service CA, and each
 * component's ODH variant where the construct has one (the ODH notebook controller with its
 * webhooks, OpenShift integrations of CodeFlare, MLflow and Llama Stack). The cluster is
 * OpenShift with the ODH operator's APIs, the Gateway API, the Prometheus Operator and
 * ModelMesh's etcd.
 */
export class OpenDataHubPlatform extends Platform {
  constructor(scope: Construct, id: string, props: OpenDataHubPlatformProps = {}) {
    const { name, applicationsNamespace, ...customization } = props;
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
      prerequisites: [OPENSHIFT, ODH_OPERATOR, GATEWAY_API, PROMETHEUS_OPERATOR, MODELMESH_ETCD],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    // Every component is created; the ones customization turns off emit nothing.
    // Serving.
    new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension');
    // LocalModel caching is left out: ODH does not deploy its controller and node agent.
    new KServe(this, 'kserve', { localModel: false });
    new OdhModelController(this, 'odh-model-controller');
    new ModelMeshServing(this, 'modelmesh-serving');
    new LlmDRouter(this, 'llm-d-router');

    // Model lifecycle.
    new ModelRegistryOperator(this, 'model-registry-operator');
    new MLflowOperator(this, 'mlflow-operator', { openShift: true });
    new LlamaStackOperator(this, 'llama-stack-k8s-operator', { openShift: true });

    // Training and batch: Kueue queues the jobs of the members that are on.
    new TrainingOperator(this, 'training-operator');
    DistributedWorkloads.addTo(this, {
      codeFlare: { openShift: true },
      kueue: {
        integrations: [
          ...(this.isComponentEnabled('training-operator') ? ['kubeflow.org/pytorchjob' as const] : []),
          ...(this.isComponentEnabled('kuberay') ? ['ray.io/rayservice' as const] : []),
        ],
      },
    });

    // Pipelines: DSPO deploys a Kubeflow Pipelines stack per DataSciencePipelinesApplication
    // and, with no Kubeflow Pipelines or Argo component here, emits the CRDs it uses from them.
    new DataSciencePipelinesOperator(this, 'data-science-pipelines-operator');

    // Workbenches: Kubeflow's notebook controller with ODH's, routing through Routes and the
    // Gateway API instead of Istio (ODH sets USE_ISTIO=false).
    new NotebookController(this, 'notebook-controller', { istio: false, odhWebhooks: true });
  }
}
