import { PolicyRule, Rbac, RuntimeRole } from '../../lib/rbac';

/**
 * What the KubeRay operator does beyond reconciling its own four kinds, as upstream's
 * generated ClusterRole grants it (ray-operator/config/rbac/role.yaml at v1.7.0).
 */
export const KUBERAY_OPERATOR_RULES: PolicyRule[] = [
  // Head and worker pods, their services and volumes; the submitter Job of a RayJob.
  Rbac.verbs('', ['pods'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.manage('', 'persistentvolumeclaims', 'pods/status', 'services'),
  Rbac.verbs('', ['pods/proxy', 'services/status'], ['get', 'patch', 'update']),
  Rbac.verbs('', ['pods/resize'], ['patch']),
  Rbac.verbs('', ['services/proxy'], ['create', 'get', 'patch', 'update']),
  Rbac.manage('batch', 'jobs'),
  // Redis passwords and auth tokens; the autoscaler's service account and its role.
  Rbac.verbs('', ['secrets'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.verbs('', ['serviceaccounts'], ['create', 'delete', 'get', 'list', 'watch']),
  Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.verbs('rbac.authorization.k8s.io', ['rolebindings'], ['create', 'delete', 'get', 'list', 'watch']),
  // Dashboard exposure: Ingress, OpenShift Route, Gateway API (RayService incremental upgrade).
  Rbac.manage('extensions', 'ingresses'),
  Rbac.manage('networking.k8s.io', 'ingresses'),
  Rbac.read('networking.k8s.io', 'ingressclasses'),
  Rbac.manage('route.openshift.io', 'routes'),
  Rbac.verbs('gateway.networking.k8s.io', ['gateways', 'httproutes'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  // Network isolation of Ray clusters.
  Rbac.verbs('networking.k8s.io', ['networkpolicies'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.read('discovery.k8s.io', 'endpointslices'),
  // Ray TLS certificates through cert-manager, when a cluster asks for them.
  Rbac.verbs('cert-manager.io', ['certificates'], ['create', 'get', 'list', 'update', 'watch']),
  Rbac.verbs('cert-manager.io', ['certificates/status'], ['get']),
  Rbac.verbs('cert-manager.io', ['issuers'], ['create', 'get', 'list', 'watch']),
  Rbac.verbs('events.k8s.io', ['events'], ['create', 'patch']),
];

/**
 * What v1.7.0 creates for a RayCluster with in-tree autoscaling (raycluster_controller.go
 * reconcileAutoscalerRole/RoleBinding, common/rbac.go BuildRole, BuildRoleBinding): a Role
 * named after the cluster, for the autoscaler sidecar, and its binding to the head's
 * ServiceAccount. The operator holds every rule of the Role (MLP031).
 */
export const KUBERAY_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'Role',
    name: '<raycluster>',
    createdFor: 'per RayCluster with enableInTreeAutoscaling, for its autoscaler (common/rbac.go BuildRole)',
    rules: [
      Rbac.verbs('', ['pods'], ['get', 'list', 'patch', 'watch']),
      Rbac.verbs('', ['pods/resize'], ['patch']),
      Rbac.verbs('ray.io', ['rayclusters'], ['get', 'patch']),
    ],
  },
  {
    kind: 'RoleBinding',
    name: '<raycluster>',
    createdFor: 'per RayCluster with enableInTreeAutoscaling, binding the head\'s ServiceAccount (common/rbac.go BuildRoleBinding)',
    roleRef: { kind: 'Role', name: '<raycluster>' },
  },
];
