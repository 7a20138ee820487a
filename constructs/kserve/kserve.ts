import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { DEFAULT_INFERENCESERVICE_CONFIG, DeepPartial, InferenceServiceConfigProps, mergeInferenceServiceConfig, renderInferenceServiceConfig } from './config';
import { CRDS, LOCAL_MODEL_CRDS } from './crds';
import { llmInferenceServiceConfigPresets } from './llm-presets';
import { KSERVE_LLMISVC_CRDS_OWNED, KSERVE_MANAGER_CRDS_OWNED } from './ownership';
import { kserveParityDeviations } from './parity';
import { KSERVE_MANAGER_RULES, LLMISVC_MANAGER_RULES, LLMISVC_RUNTIME_ROLES, LLMISVC_VARIANT_AUTOSCALER_RULES, LOCALMODEL_AGENT_RULES, LOCALMODEL_MANAGER_RULES } from './rbac';
import { clusterServingRuntimeSpec, DEFAULT_CLUSTER_SERVING_RUNTIMES } from './runtimes';
import { KSERVE_IMAGES, KSERVE_VERSION, KServeImageKey } from './versions';
import { ClusterServingRuntime, ClusterStorageContainer, LLMInferenceServiceConfig } from '../../imports/serving.kserve.io';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { bindingObject, Rbac, roleObject } from '../../lib/rbac';
import { declareSecurityExceptions, restrictedContainerSecurityContext, RootFilesystem } from '../../lib/security';
import { excludingNamespaces, WebhookRule, WebhookServer } from '../../lib/webhook-server';
import { workloadObject } from '../../lib/workload';
import { GatewayApiInferenceExtension } from '../gateway-api-inference-extension/gateway-api-inference-extension';

export interface KServeProps extends ComponentProps {
  /**
   * Overrides of the inferenceservice-config ConfigMap, merged into upstream's defaults.
   * @default - upstream defaults
   */
  readonly config?: DeepPartial<InferenceServiceConfigProps>;
  /** @default true: the LLMInferenceService controller and its webhooks */
  readonly llmInferenceService?: boolean;
  /** @default true: the LocalModel controller, node agent and webhook */
  readonly localModel?: boolean;
  /**
   * Default ClusterServingRuntimes to install, by name; `false` for none.
   * @default all of DEFAULT_CLUSTER_SERVING_RUNTIMES
   */
  readonly servingRuntimes?: string[] | false;
  /** Replicas of each controller (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /**
   * The LLMInferenceServiceConfig presets (`kserve-config-llm-*`) to install, by name; `false`
   * for none. The LLMInferenceService controller looks them up by name: leave them on unless
   * the platform ships its own.
   * @default all of LLM_INFERENCE_SERVICE_CONFIG_PRESETS (when llmInferenceService is on)
   */
  readonly llmInferenceServiceConfigs?: string[] | false;
  /** The `default` ClusterStorageContainer (the storage initializer for gs://, s3://, hf://, ...). @default true */
  readonly defaultStorageContainer?: boolean;
  /**
   * The Workload Variant Autoscaler is part of the platform: the LLMInferenceService
   * controller creates and updates its VariantAutoscalings (llmd.ai), which the platform
   * must then provide. Without it the controller only lists and deletes leftovers.
   * @default false
   */
  readonly workloadVariantAutoscaler?: boolean;
}

/** Names of the LLMInferenceServiceConfig presets KServe installs. */
export const LLM_INFERENCE_SERVICE_CONFIG_PRESETS: readonly string[] = Object.keys(llmInferenceServiceConfigPresets(() => 'unused:v0')).sort();

/**
 * Upstream's selector of each KServe workload (v0.20.0 config: control-plane and
 * controller-tools.k8s.io), kept whole so that a Deployment installed from upstream's
 * manifests can be taken over (selectors are immutable). app.kubernetes.io/name: kserve
 * stays on the pods as a label.
 */
const SELECTOR = (name: string) => ({ 'control-plane': name, 'controller-tools.k8s.io': '1.0' });
const POD_LABELS = { 'app.kubernetes.io/name': 'kserve' };
const GROUP = 'serving.kserve.io';

function rule(version: string, resources: string[], operations: WebhookRule['operations'] = ['CREATE', 'UPDATE']): WebhookRule[] {
  return [{ apiGroups: [GROUP], apiVersions: [version], resources, operations }];
}

/**
 * KServe: the serving.kserve.io CRDs, the KServe controller manager, the
 * LLMInferenceService controller, the LocalModel controller and node agent, their
 * webhook servers and webhook configurations, RBAC, the inferenceservice-config ConfigMap
 * and the default ClusterServingRuntimes.
 *
 * The InferencePool family is not bundled: it is required from the Gateway API
 * Inference Extension component.
 */
export class KServe extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return KSERVE_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = KSERVE_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly llmisvcController?: Controller;
  public readonly config: InferenceServiceConfigProps;

  constructor(scope: Platform, id: string, props: KServeProps = {}) {
    super(scope, id, props.namespace ?? 'kserve', props);
    const llm = props.llmInferenceService ?? true;
    const local = props.localModel ?? true;
    this.declareParityDeviations(kserveParityDeviations({ llmInferenceService: llm, localModel: local, workloadVariantAutoscaler: props.workloadVariantAutoscaler ?? false }));
    const ns = this.namespaceName;
    // The pod mutator skips namespaces labelled control-plane: our own pods are never sent to it.
    this.addNamespace({ 'control-plane': 'kserve-controller-manager', 'app.kubernetes.io/name': 'kserve' });

    const crds = new Map(CRDS.filter((d) => (llm || !d.kind.startsWith('LLM')) && (local || !LOCAL_MODEL_CRDS.includes(d))).map((d) => [d.kind, this.addCrd(d)]));

    // --- KServe controller manager ---------------------------------------------------
    this.controller = new Controller(this, 'ControllerManager', {
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      name: 'kserve-controller-manager',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--leader-elect', '--health-probe-addr=:8081', '--webhook-port=9443'],
      env: [{ name: 'SECRET_NAME', value: 'kserve-webhook-server-cert' }],
      selectorLabels: SELECTOR('kserve-controller-manager'),
      labels: POD_LABELS,
      ports: { health: 8081, webhook: 9443 },
      // As upstream: the manager serves plain metrics on localhost, kube-rbac-proxy serves them
      // authenticated and authorized on 8443 through upstream's Service name.
      metrics: ControllerMetrics.rbacProxy({
        image: this.image('kubeRbacProxy'),
        port: 8443,
        upstreamPort: 8080,
        args: ['--metrics-addr=127.0.0.1:8080'],
        serviceName: 'kserve-controller-manager-metrics-service',
        serviceAnnotations: { 'prometheus.io/port': '8443', 'prometheus.io/scheme': 'https', 'prometheus.io/scrape': 'true' },
      }),
      replicas: props.replicas,
      leaderElectionId: 'kserve-controller-manager-leader-lock',
      resources: { requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '100m', memory: '300Mi' } },
      owns: KSERVE_MANAGER_CRDS_OWNED.filter((k) => crds.has(k)).map((k) => crds.get(k)!.definition),
      rules: KSERVE_MANAGER_RULES,
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'services' },
        { group: '', resource: 'pods' },
        { group: '', resource: 'namespaces' },
        { group: 'serving.kserve.io', resource: 'localmodelcaches' },
      ],
      // ConfigMap-based leader election (upstream's leader-election Role).
      namespacedRules: [Rbac.manage('', 'configmaps'), Rbac.verbs('', ['configmaps/status'], ['get', 'patch', 'update'])],
    });
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: 'kserve-webhook-server-service',
      secretName: 'kserve-webhook-server-cert',
      certificateName: 'serving-cert',
      // Where the platform isolates the namespace (kubeflow/manifests' kserve policy, by its control-plane label).
      isolationPolicy: { name: 'kserve', selectorKeys: ['control-plane'] },
    });
    const w = this.webhookServer;
    const v1beta1 = ['v1beta1'];
    w.addMutatingWebhook('inferenceservice.serving.kserve.io', {
      name: 'inferenceservice.kserve-webhook-server.defaulter',
      path: '/mutate-serving-kserve-io-v1beta1-inferenceservice',
      rules: rule('v1beta1', ['inferenceservices']),
      admissionReviewVersions: v1beta1,
    });
    w.addMutatingWebhook('inferenceservice.serving.kserve.io', {
      name: 'inferenceservice.kserve-webhook-server.pod-mutator',
      path: '/mutate-pods',
      rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }],
      admissionReviewVersions: v1beta1,
      // Upstream skips namespaces labelled control-plane (ours is); we also skip kube-system, so
      // that a down webhook never blocks system pods there (MLP053).
      namespaceSelector: excludingNamespaces(['kube-system'], { matchExpressions: [{ key: 'control-plane', operator: 'DoesNotExist' }] }),
      objectSelector: { matchExpressions: [{ key: 'serving.kserve.io/inferenceservice', operator: 'Exists' }] },
      reinvocationPolicy: 'IfNeeded',
    });
    const validators: Array<[string, string, string]> = [
      ['inferenceservice', 'v1beta1', 'inferenceservices'],
      ['trainedmodel', 'v1alpha1', 'trainedmodels'],
      ['inferencegraph', 'v1alpha1', 'inferencegraphs'],
      ['servingruntime', 'v1alpha1', 'servingruntimes'],
      ['clusterservingruntime', 'v1alpha1', 'clusterservingruntimes'],
    ];
    for (const [kind, version, plural] of validators) {
      w.addValidatingWebhook(`${kind}.serving.kserve.io`, {
        name: `${kind}.kserve-webhook-server.validator`,
        path: `/validate-serving-kserve-io-${version}-${kind}`,
        rules: rule(version, [plural]),
        admissionReviewVersions: v1beta1,
      });
    }

    // --- inferenceservice-config ------------------------------------------------------
    this.config = mergeInferenceServiceConfig(DEFAULT_INFERENCESERVICE_CONFIG, props.config ?? {});
    let data: Record<string, string>;
    try {
      data = renderInferenceServiceConfig(this.config, (key: KServeImageKey) => this.image(key));
    } catch (e) {
      throw new Error(`${this.node.path}: config: ${(e as Error).message}`);
    }
    new k8s.KubeConfigMap(this, 'InferenceServiceConfig', {
      metadata: { name: 'inferenceservice-config', namespace: ns, labels: { 'app.kubernetes.io/name': 'kserve' } },
      data,
    });

    // --- LLMInferenceService controller -------------------------------------------------
    if (llm) {
      this.require({ group: 'inference.networking.k8s.io', kind: 'InferencePool', reason: 'LLMInferenceService creates InferencePools for its router', providedBy: GatewayApiInferenceExtension });
      this.require({ group: 'inference.networking.x-k8s.io', kind: 'InferencePool', reason: 'LLMInferenceService v1alpha1 routes to experimental InferencePools', providedBy: GatewayApiInferenceExtension });
      this.require({ group: 'inference.networking.x-k8s.io', kind: 'InferenceObjective', reason: 'the LLMInferenceService controller manages InferenceObjectives', providedBy: GatewayApiInferenceExtension });
      this.require({ group: 'inference.networking.x-k8s.io', kind: 'InferenceModelRewrite', reason: 'the LLMInferenceService controller manages InferenceModelRewrites', providedBy: GatewayApiInferenceExtension });
      if (props.workloadVariantAutoscaler) {
        this.require({ group: 'llmd.ai', kind: 'VariantAutoscaling', reason: 'the LLMInferenceService controller creates VariantAutoscalings for workloads scaled by WVA' });
      }
      const ctl = new Controller(this, 'LLMInferenceServiceController', {
        // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
        rootFilesystem: RootFilesystem.readOnly(),
        name: 'llmisvc-controller-manager',
        image: this.image('llmisvcController'),
        command: ['/manager'],
        args: ['--leader-elect', '--health-probe-addr=:8081', '--webhook-port=9443'],
        selectorLabels: SELECTOR('llmisvc-controller-manager'),
        labels: POD_LABELS,
        ports: { health: 8081, webhook: 9443 },
        // controller-runtime secure metrics (authn/authz) on 8443, upstream's Service name.
        metrics: ControllerMetrics.secure(8443, { args: ['--metrics-addr=:8443', '--metrics-secure'], serviceName: 'llmisvc-controller-manager-service', portName: 'metrics' }),
        replicas: props.replicas,
        leaderElectionId: 'llminferenceservice-kserve-controller-manager',
        resources: { requests: { cpu: '100m', memory: '300Mi' }, limits: { cpu: '100m', memory: '300Mi' } },
        terminationGracePeriodSeconds: 30,
        owns: KSERVE_LLMISVC_CRDS_OWNED.filter((k) => crds.has(k)).map((k) => crds.get(k)!.definition),
        rules: [...LLMISVC_MANAGER_RULES, ...(props.workloadVariantAutoscaler ? LLMISVC_VARIANT_AUTOSCALER_RULES : [])],
        grants: LLMISVC_RUNTIME_ROLES,
        watches: [
          { group: 'inference.networking.k8s.io', resource: 'inferencepools' },
          { group: 'inference.networking.x-k8s.io', resource: 'inferencepools' },
          { group: 'inference.networking.x-k8s.io', resource: 'inferenceobjectives' },
          { group: 'inference.networking.x-k8s.io', resource: 'inferencemodelrewrites' },
          { group: 'apps', resource: 'deployments' },
          { group: '', resource: 'services' },
          { group: '', resource: 'pods' },
        ],
      });
      this.llmisvcController = ctl;
      const lw = new WebhookServer(this, 'LLMInferenceServiceWebhookServer', {
        controller: ctl,
        serviceName: 'llmisvc-webhook-server-service',
        secretName: 'llmisvc-webhook-server-cert',
        certificateName: 'llmisvc-serving-cert',
      });
      const reviews = ['v1', 'v1beta1'];
      for (const version of ['v1alpha1', 'v1alpha2']) {
        lw.addMutatingWebhook('llminferenceservice.serving.kserve.io', {
          name: `llminferenceservice.kserve-webhook-server.${version}.defaulter`,
          path: `/mutate-serving-kserve-io-${version}-llminferenceservice`,
          rules: rule(version, ['llminferenceservices']),
          admissionReviewVersions: reviews,
          matchPolicy: 'Exact',
        });
        lw.addValidatingWebhook('llminferenceservice.serving.kserve.io', {
          name: `llminferenceservice.kserve-webhook-server.${version}.validator`,
          path: `/validate-serving-kserve-io-${version}-llminferenceservice`,
          rules: rule(version, ['llminferenceservices']),
          admissionReviewVersions: reviews,
          matchPolicy: 'Exact',
        });
        lw.addValidatingWebhook('llminferenceserviceconfig.serving.kserve.io', {
          name: `llminferenceserviceconfig.kserve-webhook-server.${version}.validator`,
          path: `/validate-serving-kserve-io-${version}-llminferenceserviceconfig`,
          rules: rule(version, ['llminferenceserviceconfigs'], ['CREATE', 'UPDATE', 'DELETE']),
          admissionReviewVersions: reviews,
          matchPolicy: 'Exact',
        });
      }
      for (const kind of ['LLMInferenceService', 'LLMInferenceServiceConfig']) lw.serveConversion(crds.get(kind)!);

      // The presets the controller looks up by name, in its own namespace.
      const presets = llmInferenceServiceConfigPresets((key) => this.image(key));
      const names = props.llmInferenceServiceConfigs === false ? [] : props.llmInferenceServiceConfigs ?? Object.keys(presets).sort();
      for (const name of names) {
        const spec = presets[name];
        if (!spec) {
          throw new Error(`${this.node.path}: llmInferenceServiceConfigs: unknown preset '${name}'; choose from ${Object.keys(presets).sort().join(', ')}`);
        }
        new LLMInferenceServiceConfig(this, `LLMConfig-${name}`, { metadata: { name, namespace: ns }, spec });
      }
    } else if (props.llmInferenceServiceConfigs) {
      throw new Error(`${this.node.path}: llmInferenceServiceConfigs needs llmInferenceService: true (the presets configure LLMInferenceServices); remove one of them`);
    }
    if (props.workloadVariantAutoscaler && !llm) {
      throw new Error(`${this.node.path}: workloadVariantAutoscaler needs llmInferenceService: true (WVA scales LLMInferenceService workloads); remove one of them`);
    }

    // --- LocalModel controller and node agent -----------------------------------------
    if (local) {
      const lm = new Controller(this, 'LocalModelController', {
        // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
        rootFilesystem: RootFilesystem.readOnly(),
        name: 'kserve-localmodel-controller-manager',
        image: this.image('localmodelController'),
        command: ['/manager'],
        args: ['--leader-elect', '--health-probe-addr=:8081', '--webhook-port=9443'],
        selectorLabels: SELECTOR('kserve-localmodel-controller-manager'),
        labels: POD_LABELS,
        ports: { health: 8081, webhook: 9443 },
        replicas: props.replicas,
        leaderElectionId: 'kserve-local-model-manager-leader-lock',
        resources: { requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '100m', memory: '300Mi' } },
        owns: ['LocalModelCache', 'LocalModelNamespaceCache'].map((k) => crds.get(k)!.definition),
        rules: LOCALMODEL_MANAGER_RULES,
      });
      const lmw = new WebhookServer(this, 'LocalModelWebhookServer', {
        controller: lm,
        serviceName: 'localmodel-webhook-server-service',
        secretName: 'localmodel-webhook-server-cert',
        certificateName: 'localmodel-serving-cert',
      });
      lmw.addValidatingWebhook('localmodelcache.serving.kserve.io', {
        name: 'localmodelcache.kserve-webhook-server.validator',
        path: '/validate-serving-kserve-io-v1alpha1-localmodelcache',
        rules: rule('v1alpha1', ['localmodelcaches'], ['CREATE', 'UPDATE', 'DELETE']),
        admissionReviewVersions: ['v1beta1'],
      });
      this.addNodeAgent();
    }

    // --- default ClusterStorageContainer --------------------------------------------------
    if (props.defaultStorageContainer ?? true) {
      new ClusterStorageContainer(this, 'DefaultStorageContainer', {
        metadata: { name: 'default' },
        spec: {
          container: {
            name: 'storage-initializer',
            image: this.image('storageInitializer'),
            imagePullPolicy: 'IfNotPresent',
            resources: { requests: { cpu: '100m', memory: '100Mi' }, limits: { cpu: '1', memory: '1Gi' } },
          },
          supportedUriFormats: [
            ...['gs://', 's3://', 'hdfs://', 'hf://', 'webhdfs://'].map((prefix) => ({ prefix })),
            ...['https://(.+?).blob.core.windows.net/(.+)', 'https://(.+?).file.core.windows.net/(.+)', 'https?://(.+)/(.+)'].map((regex) => ({ regex })),
          ],
          supportsMultiModelDownload: true,
          workloadType: 'initContainer',
        },
      });
    }

    // --- default ClusterServingRuntimes -------------------------------------------------
    const wanted = props.servingRuntimes === false ? [] : props.servingRuntimes ?? DEFAULT_CLUSTER_SERVING_RUNTIMES.map((r) => r.name);
    for (const name of wanted) {
      const rt = DEFAULT_CLUSTER_SERVING_RUNTIMES.find((r) => r.name === name);
      if (!rt) {
        throw new Error(`${this.node.path}: servingRuntimes: unknown runtime '${name}'; choose from ${DEFAULT_CLUSTER_SERVING_RUNTIMES.map((r) => r.name).join(', ')}`);
      }
      new ClusterServingRuntime(this, `Runtime-${rt.name}`, {
        metadata: { name: rt.name, annotations: { 'serving.kserve.io/server-type': rt.serverType } },
        spec: clusterServingRuntimeSpec(rt, this.image(rt.imageKey)),
      });
    }
  }

  /** The LocalModel node agent: a DaemonSet that downloads models onto each node. */
  private addNodeAgent(): void {
    const name = 'kserve-localmodelnode-agent';
    const selector = SELECTOR(name);
    const labels = { ...selector, ...POD_LABELS };
    new k8s.KubeServiceAccount(this, 'NodeAgentServiceAccount', { metadata: { name, namespace: this.namespaceName, labels } });
    roleObject(this, 'NodeAgentClusterRole', { name: `${name}-role`, labels, rules: LOCALMODEL_AGENT_RULES });
    bindingObject(this, 'NodeAgentClusterRoleBinding', {
      name: `${name}-rolebinding`,
      labels,
      roleRef: { kind: 'ClusterRole', name: `${name}-role` },
      serviceAccounts: [{ name, namespace: this.namespaceName }],
    });
    const agent = workloadObject(this, 'NodeAgent', {
      kind: 'DaemonSet',
      metadata: { name, namespace: this.namespaceName, labels },
      spec: {
        selector: { matchLabels: selector },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: name,
            terminationGracePeriodSeconds: 10,
            // As upstream: the agent runs only on the nodes labelled to keep local models.
            nodeSelector: { 'kserve/localmodel': 'worker' },
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'manager',
              image: this.image('localmodelNodeAgent'),
              imagePullPolicy: 'IfNotPresent',
              command: ['/manager'],
              env: [
                { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
              ],
              resources: { requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '100m', memory: '300Mi' } },
              securityContext: restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly() }),
              volumeMounts: [{ name: 'models', mountPath: '/mnt/models' }],
            }],
            // The model cache lives on the node. hostPath is outside the Pod Security
            // "restricted" and "baseline" profiles: the kserve namespace must admit it (as
            // upstream's install requires); turn localModel off where it cannot.
            volumes: [{ name: 'models', hostPath: { path: '/models', type: 'DirectoryOrCreate' } }],
          },
        },
      },
    });
    declareSecurityExceptions(agent, [{
      check: 'hostPath',
      reason: 'the LocalModel node agent keeps the model cache on each node\'s disk (/models), which upstream\'s DaemonSet mounts as hostPath; turn localModel off where the namespace must enforce "restricted"',
    }]);
  }
}
