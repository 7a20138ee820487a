import { PolicyRule, Rbac } from '../../lib/rbac';

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
  Rbac.verbs('', ['configmaps'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
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
  Rbac.manage('keda.sh', 'scaledobjects'),
  Rbac.manage('leaderworkerset.x-k8s.io', 'leaderworkersets'),
  Rbac.read('llm-d.ai', 'inferencemodelrewrites', 'inferenceobjectives'),
  Rbac.verbs('llmd.ai', ['variantautoscalings'], ['delete', 'list']),
  Rbac.manage('networking.k8s.io', 'ingresses'),
  Rbac.manage('rbac.authorization.k8s.io', 'rolebindings', 'roles'),
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
