import { Construct } from 'constructs';
import { AiGatewayPayloadProcessing } from '../constructs/ai-gateway-payload-processing';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { KServe } from '../constructs/kserve';
import { LlamaStackOperator } from '../constructs/llama-stack-k8s-operator';
import { LlmDRouter } from '../constructs/llm-d-router';
import { MLflowOperator } from '../constructs/mlflow-operator';
import { ModelRegistryOperator } from '../constructs/model-registry-operator';
import { MODELMESH_ETCD, ModelMeshServing } from '../constructs/modelmesh-serving';
import { ModelsAsAService } from '../constructs/models-as-a-service';
import { OdhModelController } from '../constructs/odh-model-controller';
import { WorkloadVariantAutoscaler } from '../constructs/workload-variant-autoscaler';
import { CERT_MANAGER, GATEWAY_API, PROMETHEUS_OPERATOR } from '../lib/component';
import { PlatformCustomization } from '../lib/customization';
import { Platform } from '../lib/platform';
import { checkPropKeys } from '../lib/prop-keys';

export interface ModelServingPlatformProps extends PlatformCustomization {
  /** @default model-serving */
  readonly name?: string;
  /**
   * Where the Workload Variant Autoscaler reads model-server metrics, over https only (v0.5.1
   * exits on any other scheme): the Prometheus must serve TLS (`web.tlsConfig`; a stock
   * prometheus-operator Prometheus serves plain HTTP).
   * @default https://prometheus-operated.monitoring.svc:9090, its certificate not verified
   * (upstream's install does the same for its self-signed in-cluster Prometheus)
   */
  readonly prometheusUrl?: string;
  /**
   * Skip verification of the Prometheus certificate.
   * @default true for the default prometheusUrl (as upstream's install), else false
   */
  readonly prometheusTlsInsecureSkipVerify?: boolean;
  /**
   * The CA of the Prometheus certificate, as a path in the autoscaler's container (the
   * optional Secret prometheus-client-cert is mounted at /etc/prometheus-certs).
   * @default none: the system roots
   */
  readonly prometheusCaCertPath?: string;
}

/**
 * The serving and model-lifecycle side of the platform: KServe and the Gateway API
 * Inference Extension, with ModelMesh sharing KServe's CRDs, the llm-d router, the Workload
 * Variant Autoscaler, AI gateway payload processing, Models-as-a-Service, the Model Registry
 * operator, the ODH model controller, the Llama Stack operator and the MLflow operator.
 * The cluster runs cert-manager, the Prometheus Operator, the Gateway API CRDs and ModelMesh's etcd.
 */
export class ModelServingPlatform extends Platform {
  public readonly inferenceExtension: GatewayApiInferenceExtension;
  public readonly kserve: KServe;
  public readonly modelMesh: ModelMeshServing;
  public readonly llmDRouter: LlmDRouter;
  public readonly autoscaler: WorkloadVariantAutoscaler;

  constructor(scope: Construct, id: string, props: ModelServingPlatformProps = {}) {
    const { name, prometheusUrl, prometheusTlsInsecureSkipVerify, prometheusCaCertPath, ...customization } = props;
    super(scope, id, {
      ...customization,
      name: name ?? 'model-serving',
      prerequisites: [CERT_MANAGER, PROMETHEUS_OPERATOR, GATEWAY_API, MODELMESH_ETCD],
    });
    // A misspelled prop fails ("did you mean") rather than being ignored where nothing type-checks it.
    checkPropKeys(this, new.target.name, props);
    this.inferenceExtension = new GatewayApiInferenceExtension(this, 'gateway-api-inference-extension');
    this.kserve = new KServe(this, 'kserve', { workloadVariantAutoscaler: true });
    this.modelMesh = new ModelMeshServing(this, 'modelmesh-serving');
    this.llmDRouter = new LlmDRouter(this, 'llm-d-router');
    this.autoscaler = new WorkloadVariantAutoscaler(this, 'workload-variant-autoscaler', {
      prometheusUrl: prometheusUrl ?? 'https://prometheus-operated.monitoring.svc:9090',
      prometheusTlsInsecureSkipVerify: prometheusTlsInsecureSkipVerify ?? (prometheusUrl === undefined && prometheusCaCertPath === undefined),
      prometheusCaCertPath,
    });
    new AiGatewayPayloadProcessing(this, 'ai-gateway-payload-processing', { createNamespace: true });
    new ModelsAsAService(this, 'models-as-a-service');
    new ModelRegistryOperator(this, 'model-registry-operator');
    new OdhModelController(this, 'odh-model-controller');
    new LlamaStackOperator(this, 'llama-stack-k8s-operator');
    new MLflowOperator(this, 'mlflow-operator');
  }
}
