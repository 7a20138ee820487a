import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

const MANAGER = 'Deployment/odh-model-controller';

/**
 * params.env keys that only feed kustomize replacements at build time (images of templates,
 * env values): at odh-v3.5-EA2 the program reads one key of this ConfigMap from the cluster,
 * ray-tls-generator-image (internal/webhook/core/v1/pod_webhook.go), which the construct ships.
 */
const BUILD_TIME_PARAMETERS = [
  'guardrails-detector-huggingface-runtime-image', 'kserve-state', 'mlserver-image', 'modelregistry-state', 'nim-state', 'odh-model-controller',
  'odh-model-serving-api', 'ovms-image', 'tgis-image', 'vllm-cpu-image', 'vllm-cpu-x86-image', 'vllm-cuda-image', 'vllm-gaudi-image', 'vllm-rocm-image',
  'vllm-spyre-image',
];

/** odh-model-controller's differences from upstream's odh-v3.5-EA2 install (config/base), on purpose. */
export const ODH_MODEL_CONTROLLER_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...itemDeviations({ kind: FactKind.CONFIGMAP_KEY, object: 'odh-model-controller-parameters', status: 'missing' }, BUILD_TIME_PARAMETERS, DeviationCategory.NOT_INSTALLED,
    'a kustomize parameter (config/base/kustomization.yaml replacements: an image or env value set at build time); the only key odh-v3.5-EA2 reads from the cluster is ray-tls-generator-image; the construct sets the env values and its own images directly and ships none of the runtime templates the other images are for.'),
  {
    fact: { kind: FactKind.PORT, object: `${MANAGER} container manager`, item: '8080/TCP', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the plain-HTTP metrics port the manager binds (--metrics-bind-address=:8080, as upstream), declared so that the metrics Service and network policy refer to a named port.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'extra' }, rbacItems('nim.opendatahub.io', ['accounts'], ['create', 'delete']), DeviationCategory.PLATFORM_INTEGRATION,
    'lib/controller.ts gives a controller full control of the CRD it owns (check MLP030 holds every owner to it); the Account controller at odh-v3.5-EA2 only reads, updates and patches Accounts.'),
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'nim.opendatahub.io|accounts/status|patch', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'lib/controller.ts grants get, update and patch on the status of a CRD the controller owns (check MLP030); odh-v3.5-EA2 writes Account status with update.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, rbacItems('nim.opendatahub.io', ['accounts/status'], ['list', 'watch']), DeviationCategory.SCOPED_RBAC,
    'a status subresource serves only get, update and patch: list and watch on it authorize no request.'),
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'serving.kserve.io|llminferenceservices|post', status: 'missing' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: '`post` is not a Kubernetes API verb (upstream\'s kubebuilder marker lists it): the grant authorizes no request.',
  },
];
