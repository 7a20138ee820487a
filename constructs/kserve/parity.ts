import { RBAC_LEFT_OUT } from './rbac';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

const MANAGER = 'Deployment/kserve-controller-manager';
const LOCALMODEL = 'Deployment/kserve-localmodel-controller-manager';
const LLMISVC = 'Deployment/llmisvc-controller-manager';
const EVERY_VERB = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

const arg = (deployment: string, container: string, item: string, status: 'extra' | 'missing', category: DeviationCategory, reason: string): ParityDeviation => ({
  fact: { kind: FactKind.ARG, object: `${deployment} container ${container}`, item, status }, category, reason,
});
const explicitDefault = (deployment: string, item: string) => arg(deployment, 'manager', item, 'extra', DeviationCategory.PLATFORM_INTEGRATION,
  'states the v0.20.0 manager\'s own default (cmd/*/main.go: probes :8081, webhooks 9443), so that the declared ports cannot drift from what it binds.');
const ownedFinalizers = (deployment: string, plural: string): ParityDeviation => ({
  fact: { kind: FactKind.RBAC, object: deployment, item: `serving.kserve.io|${plural}/finalizers|update`, status: 'extra' },
  category: DeviationCategory.PLATFORM_INTEGRATION,
  reason: 'lib/controller.ts grants update on the finalizers of a CRD the controller owns (check MLP030), so that its owner references may block deletion.',
});
const selectorLabel = (service: string): ParityDeviation => ({
  fact: { kind: FactKind.SERVICE_SELECTOR, object: service, item: 'controller-tools.k8s.io', status: 'extra' },
  category: DeviationCategory.HARDENING,
  reason: 'the webhook Service selects the manager by its whole selector (control-plane and controller-tools.k8s.io: 1.0, both on the pods), so that it reaches only that manager\'s pods.',
});

/** Triples of constructs/kserve/rbac.ts RBAC_LEFT_OUT, each with its documented reason. */
function leftOut(deploymentOf: (serviceAccount: string) => string | undefined): ParityDeviation[] {
  return RBAC_LEFT_OUT.flatMap((l) => {
    const object = deploymentOf(l.serviceAccount);
    if (!object) return [];
    // Without verbs an entry leaves out every verb upstream grants on the resource.
    return itemDeviations({ kind: FactKind.RBAC, object, status: 'missing' }, rbacItems(l.group, l.resources, l.verbs ?? ['*']), DeviationCategory.SCOPED_RBAC,
      `${l.reason} (RBAC_LEFT_OUT).`, { patterns: true });
  });
}

/**
 * The launch scripts the project writes itself (constructs/kserve/llm-launcher.ts and
 * ray-bootstrap.ts) in place of upstream's v0.20.0 texts, each with upstream's digest; their
 * behaviour is held to upstream's by test/constructs/kserve/llm-launcher.test.ts and
 * multinode.test.ts, which run them.
 */
const OWN_SCRIPTS: ReadonlyArray<readonly [object: string, item: string, upstream: string]> = [
  ['ClusterServingRuntime/kserve-huggingfaceserver-multinode', 'spec.containers[kserve-container].command', 'sha256:4417c6bf93fc0a63f26feb47cc1449cf622e0329017975083dabc7e94cec129b'],
  ['ClusterServingRuntime/kserve-huggingfaceserver-multinode', 'spec.workerSpec.containers[worker-container].command', 'sha256:ad8d224d67fd3233c24012b4bd7f00c1710d3d2a5898860eae7c6bbfbb05bc88'],
  ['LLMInferenceServiceConfig/kserve-config-llm-decode-template', 'spec.template.containers[main].command', 'sha256:8638082835ab115f8df8715a0e1c968b194b9fcb010ad21bbd316b0abeb152a7'],
  ['LLMInferenceServiceConfig/kserve-config-llm-decode-worker-data-parallel', 'spec.template.containers[main].command', 'sha256:b30152ad01c00316ed2e8f4d94f62d9ea2b287a2754101807f9155c82350381d'],
  ['LLMInferenceServiceConfig/kserve-config-llm-decode-worker-data-parallel', 'spec.worker.containers[main].command', 'sha256:fcd24de630f53c806ad7b8f5817e533585a0dac336c8342e2f7c4a0b3dc46f8a'],
  ['LLMInferenceServiceConfig/kserve-config-llm-prefill-template', 'spec.prefill.template.containers[main].command', 'sha256:2efb386cd67345a355a66fc80c738c02e5f23bd04c5ee800cb5c77e8492b27d8'],
  ['LLMInferenceServiceConfig/kserve-config-llm-prefill-worker-data-parallel', 'spec.prefill.template.containers[main].command', 'sha256:96a29ba39cf2084e7b313936f22a1302c4caab53e27370a4ab5cf8de61b56415'],
  ['LLMInferenceServiceConfig/kserve-config-llm-prefill-worker-data-parallel', 'spec.prefill.worker.containers[main].command', 'sha256:53814aaa732269c617e57794017881f8ade020bd5fb7cd00a6fb53cbb1f003cb'],
  ['LLMInferenceServiceConfig/kserve-config-llm-template', 'spec.template.containers[main].command', 'sha256:e3499a59fe289e6a23c53487ed6e4f0118729c6e5a8f605945e8460cbcf6eb83'],
  ['LLMInferenceServiceConfig/kserve-config-llm-worker-data-parallel', 'spec.template.containers[main].command', 'sha256:6ed1e8f961fb44c1299b844dfe80bdf6b6ce320102015d0702edba8733a52e08'],
  ['LLMInferenceServiceConfig/kserve-config-llm-worker-data-parallel', 'spec.worker.containers[main].command', 'sha256:48837a4222919331426ba0f7183617e45c0ecfbae2af641392959d3808f054ff'],
];

function ownScripts(llmInferenceService: boolean): ParityDeviation[] {
  return OWN_SCRIPTS.filter(([object]) => llmInferenceService || !object.startsWith('LLMInferenceServiceConfig/'))
    .map(([object, item, upstream]) => valueDeviation({ kind: FactKind.CUSTOM_RESOURCE_TEXT, object, item }, upstream, DeviationCategory.OWN_TEXT,
      'the project\'s own launch script with the behaviour of upstream\'s at v0.20.0 (container args passed through, served names, KV cache offloading, shutdown and access-log flags; the multi-node head waits for its workers and workers check the head\'s models), run by the construct\'s tests.'));
}

/** Which parts of KServe the construct installs (its props). */
export interface KServeParityOptions {
  readonly llmInferenceService: boolean;
  readonly localModel: boolean;
  readonly workloadVariantAutoscaler: boolean;
}

/** KServe's differences from upstream's v0.20.0 install (config/overlays/all + clusterresources), on purpose. */
export function kserveParityDeviations(o: KServeParityOptions): ParityDeviation[] {
  const manager: ParityDeviation[] = [
    arg(MANAGER, 'kube-rbac-proxy', '--v=0', 'extra', DeviationCategory.HARDENING, 'the metrics proxy logs at verbosity 0: upstream\'s --v=10 traces every scrape request at debug level.'),
    arg(MANAGER, 'kube-rbac-proxy', '--v=10', 'missing', DeviationCategory.HARDENING, 'the metrics proxy logs at verbosity 0: upstream\'s --v=10 traces every scrape request at debug level.'),
    explicitDefault(MANAGER, '--health-probe-addr=:8081'),
    explicitDefault(MANAGER, '--webhook-port=9443'),
    {
      fact: { kind: FactKind.CONFIGMAP_KEY, object: 'inferenceservice-config', item: '_example', status: 'missing' },
      category: DeviationCategory.NOT_INSTALLED,
      reason: '_example is commented documentation of the keys in upstream\'s ConfigMap; no code at v0.20.0 reads it.',
    },
    {
      fact: { kind: FactKind.SERVICE, object: 'kserve-controller-manager-service', status: 'missing' },
      category: DeviationCategory.NOT_INSTALLED,
      reason: 'upstream\'s second Service on the same kube-rbac-proxy port 8443 as kserve-controller-manager-metrics-service, which the construct ships; nothing at v0.20.0 refers to this one by name.',
    },
    ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, rbacItems('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], EVERY_VERB), DeviationCategory.SCOPED_RBAC,
      'only a kubebuilder marker on the InferenceService controller grants it: no code at v0.20.0 reads or writes webhook configurations (cert-manager injects their CA bundles).'),
    ownedFinalizers(MANAGER, 'trainedmodels'),
    selectorLabel('kserve-webhook-server-service'),
  ];
  const localModel: ParityDeviation[] = o.localModel ? [
    explicitDefault(LOCALMODEL, '--health-probe-addr=:8081'),
    explicitDefault(LOCALMODEL, '--webhook-port=9443'),
    arg(LOCALMODEL, 'manager', '--leader-elect', 'extra', DeviationCategory.HARDENING,
      'leader election (a flag v0.20.0\'s cmd/localmodel defines, off by default), so that two replicas during a rolling update never reconcile LocalModelCaches at once.'),
    ownedFinalizers(LOCALMODEL, 'localmodelcaches'),
    ownedFinalizers(LOCALMODEL, 'localmodelnamespacecaches'),
    selectorLabel('localmodel-webhook-server-service'),
  ] : [];
  const securedMetrics = 'v0.20.0\'s llmisvc manager serves metrics over HTTPS with authentication and authorization by default (SecureServing, WithAuthenticationAndAuthorization); bound on every interface instead of upstream\'s 127.0.0.1, its Service llmisvc-controller-manager-service reaches it.';
  const llm: ParityDeviation[] = o.llmInferenceService ? [
    explicitDefault(LLMISVC, '--health-probe-addr=:8081'),
    explicitDefault(LLMISVC, '--webhook-port=9443'),
    arg(LLMISVC, 'manager', '--metrics-addr=:8443', 'extra', DeviationCategory.PLATFORM_INTEGRATION, securedMetrics),
    arg(LLMISVC, 'manager', '--metrics-secure', 'extra', DeviationCategory.PLATFORM_INTEGRATION, securedMetrics),
    arg(LLMISVC, 'manager', '--metrics-addr=127.0.0.1:8443', 'missing', DeviationCategory.PLATFORM_INTEGRATION, securedMetrics),
    ...itemDeviations({ kind: FactKind.RBAC, object: LLMISVC, status: 'missing' }, rbacItems('llmd.ai', ['variantautoscalings'], o.workloadVariantAutoscaler ? [] : ['create', 'get', 'patch', 'update', 'watch']), DeviationCategory.NOT_INSTALLED,
      'granted with workloadVariantAutoscaler (the Workload Variant Autoscaler in the platform); without it no VariantAutoscaling CRD exists, and v0.20.0 watches and creates them only when the CRD is served.'),
    selectorLabel('llmisvc-webhook-server-service'),
  ] : [];
  return [
    ...manager, ...localModel, ...llm, ...ownScripts(o.llmInferenceService),
    valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'inferenceservice-config', item: 'explainers' }, 'sha256:2a8610b4000a7a6ada503944006e48fbd2e89da4d8c57e8b56f74e1f6fb18f02',
      DeviationCategory.PLATFORM_INTEGRATION, 'the ART explainer\'s image and version come from the versions table (v0.20.0 pinned) where upstream says latest.'),
    ...leftOut((sa) => (sa === 'kserve-controller-manager' ? MANAGER : sa === 'llmisvc-controller-manager' && o.llmInferenceService ? LLMISVC : undefined)),
  ];
}
