import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { CRDS } from './crds';
import { PayloadProcessor } from './payload-processor';
import { DEFAULT_PRE_PROCESSING_PLUGINS, DEFAULT_PROCESSING_PLUGINS, PayloadPlugin, pluginProblems, renderPluginConfig } from './plugins';
import { PAYLOAD_PROCESSING_IMAGES } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { bindingObject, Rbac, roleObject } from '../../lib/rbac';
import { GatewayApiInferenceExtension } from '../gateway-api-inference-extension/gateway-api-inference-extension';

export interface AiGatewayPayloadProcessingProps extends ComponentProps {
  /**
   * The namespace of the gateway whose ext_proc filters call the processor.
   * @default openshift-ingress
   */
  readonly namespace?: string;
  /**
   * Emit a Namespace object. The gateway namespace normally belongs to the gateway
   * installation: list it in the platform's existingNamespaces instead.
   * @default false
   */
  readonly createNamespace?: boolean;
  /** Replicas of each stage. @default 1 */
  readonly replicas?: number;
  /** klog verbosity of both stages (0 to 10). @default 3 */
  readonly verbosity?: number;
  /** Plugins of the stage before the gateway's authorization. @default DEFAULT_PRE_PROCESSING_PLUGINS */
  readonly preProcessingPlugins?: readonly PayloadPlugin[];
  /** Plugins of the stage after authorization. @default DEFAULT_PROCESSING_PLUGINS */
  readonly processingPlugins?: readonly PayloadPlugin[];
}

const LABELS = {
  'app.kubernetes.io/component': 'payload-processing',
  'app.kubernetes.io/name': 'payload-processing',
  'app.kubernetes.io/part-of': 'models-as-a-service',
};
const CONFIG_MAP = 'payload-processing-plugins';
const SERVICE_ACCOUNT = 'payload-processing';

/**
 * AI gateway payload processing: the inference.opendatahub.io ExternalModel and
 * ExternalProvider CRDs, and the ext-proc server that the AI gateway calls twice per request
 * (before and after authorization). The same binary reconciles ExternalProviders and
 * ExternalModels (ServiceEntries, DestinationRules, HTTPRoutes) and migrates legacy
 * maas.opendatahub.io ExternalModels.
 */
export class AiGatewayPayloadProcessing extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return PAYLOAD_PROCESSING_IMAGES.processor.tag;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = PAYLOAD_PROCESSING_IMAGES;
  /** The stage in front of the authorization filter. */
  public readonly preProcessor: PayloadProcessor;
  /** The stage after it (and the reconcilers). */
  public readonly processor: PayloadProcessor;

  constructor(scope: Platform, id: string, props: AiGatewayPayloadProcessingProps = {}) {
    super(scope, id, props.namespace ?? 'openshift-ingress', props);
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1 (each stage serves every request through the gateway)`);
    }
    const verbosity = props.verbosity ?? 3;
    if (!Number.isInteger(verbosity) || verbosity < 0 || verbosity > 10) {
      throw new Error(`${this.node.path}: verbosity ${props.verbosity} must be a whole number from 0 to 10`);
    }
    const pre = props.preProcessingPlugins ?? DEFAULT_PRE_PROCESSING_PLUGINS;
    const post = props.processingPlugins ?? DEFAULT_PROCESSING_PLUGINS;
    for (const [prop, plugins] of [['preProcessingPlugins', pre], ['processingPlugins', post]] as const) {
      const problems = pluginProblems(plugins);
      if (problems.length) throw new Error(`${this.node.path}: ${prop} ${problems.join('; ')}`);
    }

    for (const def of CRDS) this.addCrd(def);
    this.require({
      group: 'inference.networking.k8s.io',
      kind: 'InferencePool',
      reason: 'the processor runs in the gateway in front of the InferencePools that serve in-cluster models',
      providedBy: GatewayApiInferenceExtension,
    });
    if (props.createNamespace ?? false) this.addNamespace();

    const ns = this.namespaceName;
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: { name: SERVICE_ACCOUNT, namespace: ns, labels: LABELS } });
    const rules = [
      Rbac.read('', 'configmaps', 'secrets'),
      Rbac.verbs('', ['services'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
      // Legacy maas.opendatahub.io ExternalModels are read and migrated when they exist.
      Rbac.read('maas.opendatahub.io', 'externalmodels'),
      Rbac.verbs('maas.opendatahub.io', ['externalmodels/finalizers'], ['update']),
      Rbac.verbs('inference.opendatahub.io', ['externalmodels', 'externalproviders'], ['create', 'get', 'list', 'update', 'watch']),
      Rbac.verbs('inference.opendatahub.io', ['externalmodels/status', 'externalproviders/status'], ['get', 'patch', 'update']),
      Rbac.verbs('inference.opendatahub.io', ['externalmodels/finalizers', 'externalproviders/finalizers'], ['update']),
      Rbac.verbs('gateway.networking.k8s.io', ['httproutes'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
      Rbac.verbs('networking.istio.io', ['destinationrules', 'serviceentries'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
    ];
    roleObject(this, 'ClusterRole', { name: 'payload-processing-reader', labels: LABELS, rules });
    bindingObject(this, 'ClusterRoleBinding', {
      name: 'payload-processing-reader',
      labels: LABELS,
      roleRef: { kind: 'ClusterRole', name: 'payload-processing-reader' },
      serviceAccounts: [{ name: SERVICE_ACCOUNT, namespace: ns }],
    });
    const PRE_KEY = 'custom-pre-processing-ipp-config.yaml';
    const POST_KEY = 'custom-ipp-config.yaml';
    new k8s.KubeConfigMap(this, 'Plugins', {
      metadata: { name: CONFIG_MAP, namespace: ns, labels: LABELS },
      data: { [PRE_KEY]: renderPluginConfig(pre), [POST_KEY]: renderPluginConfig(post) },
    });
    const common = { namespace: ns, image: this.image('processor'), serviceAccountName: SERVICE_ACCOUNT, configMapName: CONFIG_MAP, labels: LABELS, replicas, verbosity };
    this.preProcessor = new PayloadProcessor(this, 'PreProcessing', {
      ...common,
      name: 'payload-pre-processing',
      configKey: PRE_KEY,
      metrics: false,
      resources: { requests: { cpu: '25m', memory: '32Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
    });
    this.processor = new PayloadProcessor(this, 'Processing', {
      ...common,
      name: 'payload-processing',
      configKey: POST_KEY,
      metrics: true,
      resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    });
  }
}
