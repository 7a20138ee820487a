import { AUTH_DELEGATOR_RULES, LeftOutRbac, PolicyRule, Rbac, READ_VERBS, RuntimeRole } from '../../lib/rbac';

// What each KServe controller creates and reads besides the CRDs it owns (which the
// Controller derives from `owns`). Facts from upstream's generated roles.

export const KSERVE_MANAGER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps'], ['create', 'get', 'update']),
  Rbac.manage('', 'events', 'services'),
  Rbac.read('', 'namespaces', 'pods'),
  Rbac.verbs('', ['secrets', 'serviceaccounts'], ['get']),
  Rbac.manage('apps', 'deployments'),
  Rbac.manage('autoscaling', 'horizontalpodautoscalers'),
  Rbac.manage('gateway.networking.k8s.io', 'httproutes'),
  ...Rbac.own('keda.sh', 'scaledobjects'),
  ...Rbac.own('networking.istio.io', 'virtualservices'),
  Rbac.manage('networking.k8s.io', 'ingresses'),
  ...Rbac.own('opentelemetry.io', 'opentelemetrycollectors'),
  ...Rbac.own('serving.knative.dev', 'services'),
  Rbac.manage('serving.kserve.io', 'clusterstoragecontainers'),
  Rbac.read('serving.kserve.io', 'localmodelcaches', 'localmodelnamespacecaches'),
];

export const LLMISVC_MANAGER_RULES: PolicyRule[] = [
  { nonResourceURLs: ['/metrics'], verbs: ['get'] },
  // It only reads ConfigMaps (inferenceservice-config, scheduler configs): v0.20.0 writes none.
  Rbac.read('', 'configmaps'),
  Rbac.verbs('', ['events'], ['create', 'patch', 'update']),
  Rbac.read('', 'pods'),
  Rbac.manage('', 'secrets', 'serviceaccounts', 'services'),
  {
    apiGroups: ['apiextensions.k8s.io'],
    resources: ['customresourcedefinitions'],
    resourceNames: ['llminferenceserviceconfigs.serving.kserve.io', 'llminferenceservices.serving.kserve.io'],
    verbs: ['get', 'list', 'watch'],
  },
  {
    apiGroups: ['apiextensions.k8s.io'],
    resources: ['customresourcedefinitions/status'],
    resourceNames: ['llminferenceserviceconfigs.serving.kserve.io', 'llminferenceservices.serving.kserve.io'],
    verbs: ['patch', 'update'],
  },
  Rbac.manage('apps', 'deployments'),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.manage('autoscaling', 'horizontalpodautoscalers'),
  Rbac.manage('coordination.k8s.io', 'leases'),
  Rbac.read('discovery.k8s.io', 'endpointslices'),
  Rbac.manage('gateway.networking.k8s.io', 'gatewayclasses', 'gateways', 'httproutes'),
  Rbac.manage('inference.networking.k8s.io', 'inferencepools'),
  Rbac.manage('inference.networking.x-k8s.io', 'inferencemodelrewrites', 'inferenceobjectives', 'inferencepoolimports', 'inferencepools'),
  // The rest of what its run-time Roles grant (LLMISVC_RUNTIME_ROLES) is derived from them.
  Rbac.manage('keda.sh', 'scaledobjects'),
  Rbac.manage('leaderworkerset.x-k8s.io', 'leaderworkersets'),
  Rbac.read('llm-d.ai', 'inferencemodelrewrites', 'inferenceobjectives'),
  // Cleans up VariantAutoscalings it created; creating them is LLMISVC_VARIANT_AUTOSCALER_RULES.
  Rbac.verbs('llmd.ai', ['variantautoscalings'], ['delete', 'list']),
  Rbac.manage('networking.k8s.io', 'ingresses'),
  // The scheduler's RBAC: its Role and RoleBinding, and the auth-delegator ClusterRoleBinding.
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings', 'roles'),
  Rbac.manage('resource.k8s.io', 'resourceclaims', 'resourceclaimtemplates'),
  Rbac.read('serving.kserve.io', 'localmodelcaches', 'localmodelnamespacecaches'),
];

export const LOCALMODEL_MANAGER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps'], ['get']),
  Rbac.read('', 'nodes'),
  Rbac.verbs('', ['nodes/status'], ['get', 'watch']),
  Rbac.manage('', 'persistentvolumeclaims', 'persistentvolumes'),
  Rbac.read('serving.kserve.io', 'inferenceservices', 'llminferenceservices', 'localmodelnodegroups'),
  Rbac.manage('serving.kserve.io', 'localmodelnodes'),
  Rbac.verbs('serving.kserve.io', ['localmodelnodes/status'], ['get', 'watch']),
];

export const LOCALMODEL_AGENT_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps'], ['get']),
  Rbac.read('', 'nodes', 'secrets', 'serviceaccounts'),
  Rbac.verbs('', ['nodes/status'], ['get', 'watch']),
  Rbac.manage('batch', 'jobs'),
  Rbac.verbs('batch', ['jobs/status'], ['get']),
  Rbac.read('serving.kserve.io', 'clusterstoragecontainers', 'localmodelnodegroups'),
  Rbac.manage('serving.kserve.io', 'localmodelnodes'),
  Rbac.verbs('serving.kserve.io', ['localmodelnodes/status'], ['get', 'patch', 'update']),
];

/**
 * The routing sidecar's reads (workload.go sidecarSSRFProtectionRules): the Roles the
 * controller creates for single-node and multi-node workloads hold these.
 */
const SIDECAR_RULES: PolicyRule[] = [
  Rbac.read('', 'pods'),
  Rbac.read('inference.networking.k8s.io', 'inferencepools'),
  Rbac.read('inference.networking.x-k8s.io', 'inferencepools'),
];

/**
 * The roles and bindings the LLMInferenceService controller (ServiceAccount
 * llmisvc-controller-manager) creates at v0.20.0, in each LLMInferenceService's namespace
 * (`<llmisvc>` its name): the scheduler's (scheduler.go expectedSchedulerRole, ...RoleBinding,
 * ...AuthDelegatorBinding) and the workloads' (workload_single_node.go, workload_multi_node.go).
 * The API server refuses a Role that grants what its creator lacks, whether or not the
 * resources exist (inferencemodels is served by no CRD at v1.x of the inference extension,
 * yet the scheduler's Role lists it): the controller holds every rule (MLP031, and
 * test/apiserver/runtime-grants.test.ts on a real server).
 */
export const LLMISVC_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: '<llmisvc>-epp-role',
    createdFor: 'per LLMInferenceService with a managed scheduler, for the endpoint picker (scheduler.go expectedSchedulerRole)',
    rules: [
      Rbac.read('', 'pods'),
      { apiGroups: ['inference.networking.k8s.io', 'inference.networking.x-k8s.io'], resources: ['inferencemodels', 'inferenceobjectives', 'inferencepools'], verbs: READ_VERBS },
      Rbac.read('inference.networking.x-k8s.io', 'inferencemodelrewrites', 'inferencepoolimports'),
      Rbac.read('llm-d.ai', 'inferencemodelrewrites', 'inferenceobjectives'),
      Rbac.read('discovery.k8s.io', 'endpointslices'),
      Rbac.manage('coordination.k8s.io', 'leases'),
    ],
  },
  {
    kind: 'RoleBinding',
    name: '<llmisvc>-epp-rb',
    createdFor: 'per LLMInferenceService with a managed scheduler, binding the endpoint picker\'s ServiceAccount (scheduler.go expectedSchedulerRoleBinding)',
    roleRef: { kind: 'Role', name: '<llmisvc>-epp-role' },
  },
  {
    kind: 'ClusterRoleBinding',
    name: '<namespace>-<llmisvc>-epp-auth-rb',
    createdFor: 'per LLMInferenceService with a managed scheduler, for the endpoint picker\'s token and access reviews: system:auth-delegator, a built-in ClusterRole (scheduler.go expectedSchedulerAuthDelegatorBinding)',
    roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
    rules: AUTH_DELEGATOR_RULES,
  },
  {
    kind: 'Role',
    name: '<llmisvc>-kserve-role',
    createdFor: 'per single-node LLMInferenceService, for its routing sidecar (workload_single_node.go expectedSingleNodeRole)',
    rules: SIDECAR_RULES,
  },
  {
    kind: 'RoleBinding',
    name: '<llmisvc>-kserve-rb',
    createdFor: 'per single-node LLMInferenceService, binding its workload\'s ServiceAccount (workload_single_node.go expectedSingleNodeRoleBinding)',
    roleRef: { kind: 'Role', name: '<llmisvc>-kserve-role' },
  },
  {
    kind: 'Role',
    name: '<llmisvc>-kserve-mn-role',
    createdFor: 'per multi-node LLMInferenceService, for its routing sidecar (workload_multi_node.go expectedMultiNodeMainRole)',
    rules: SIDECAR_RULES,
  },
  {
    kind: 'RoleBinding',
    name: '<llmisvc>-kserve-mn-rb',
    createdFor: 'per multi-node LLMInferenceService, binding its workload\'s ServiceAccount (workload_multi_node.go expectedMultiNodeRoleBinding)',
    roleRef: { kind: 'Role', name: '<llmisvc>-kserve-mn-role' },
  },
];

/** With the Workload Variant Autoscaler in the platform: the controller creates and updates VariantAutoscalings. */
export const LLMISVC_VARIANT_AUTOSCALER_RULES: PolicyRule[] = [Rbac.manage('llmd.ai', 'variantautoscalings')];

/**
 * What KServe v0.20.0's roles grant and we leave out, with why. Checked against upstream's
 * roles with scripts/rbac-diff.ts; test/constructs/kserve/rbac.test.ts keeps each entry absent.
 */
export const RBAC_LEFT_OUT: LeftOutRbac[] = [
  {
    serviceAccount: 'llmisvc-controller-manager',
    group: 'inference.networking.k8s.io',
    resources: ['inferencemodels', 'inferenceobjectives'],
    verbs: ['create', 'delete', 'patch', 'update'],
    reason: 'the controller writes neither: it only grants reading them in the scheduler\'s Role (LLMISVC_RUNTIME_ROLES), which it holds (get, list, watch) so that the API server lets it create that Role',
  },
  {
    serviceAccount: 'llmisvc-controller-manager',
    group: 'inference.networking.x-k8s.io',
    resources: ['inferencemodels'],
    verbs: ['create', 'delete', 'patch', 'update'],
    reason: 'the controller does not write InferenceModels: it only grants reading them in the scheduler\'s Role (LLMISVC_RUNTIME_ROLES), which it holds (get, list, watch)',
  },
  {
    serviceAccount: 'llmisvc-controller-manager',
    group: 'authentication.k8s.io',
    resources: ['subjectaccessreviews'],
    reason: 'SubjectAccessReview is in authorization.k8s.io (granted there); authentication.k8s.io serves only TokenReview',
  },
  {
    serviceAccount: 'kserve-controller-manager',
    group: 'keda.sh',
    resources: ['scaledobjects/finalizers'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
    reason: 'the finalizers subresource is only ever updated (granted: update)',
  },
  {
    serviceAccount: 'kserve-controller-manager',
    group: 'networking.istio.io',
    resources: ['virtualservices/finalizers'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
    reason: 'the finalizers subresource is only ever updated (granted: update)',
  },
  {
    serviceAccount: 'kserve-controller-manager',
    group: 'opentelemetry.io',
    resources: ['opentelemetrycollectors/finalizers'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
    reason: 'the finalizers subresource is only ever updated (granted: update)',
  },
  {
    serviceAccount: 'kserve-controller-manager',
    group: 'serving.knative.dev',
    resources: ['services/finalizers'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
    reason: 'the finalizers subresource is only ever updated (granted: update)',
  },
  {
    serviceAccount: 'kserve-controller-manager',
    group: 'serving.kserve.io',
    resources: ['clusterservingruntimes/finalizers', 'inferencegraphs/finalizers', 'inferenceservices/finalizers', 'servingruntimes/finalizers'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'watch'],
    reason: 'the finalizers subresource is only ever updated (granted: update)',
  },
];
