import { KubeflowRole } from '../../lib/aggregation';
import { RuntimeRole } from '../../lib/rbac';

/**
 * The RoleBindings the profile controller's ServiceAccount creates in each profile
 * namespace (`<profile>`) at kubeflow/dashboard v2.0.0: the controller's own
 * (profile_controller.go: namespaceAdmin for the owner, and the default-editor and
 * default-viewer ServiceAccounts' bindings, updateServiceAccount) and those of the access
 * management sidecar kfam, which runs in the same pod (kfam/bindings.go Create: one per
 * contributor, the dashboard asking for edit or view, which roleBindingNameMap turns into
 * the Kubeflow roles). All bind the Kubeflow ClusterRoles, which aggregate what every
 * component gives users: the controller holds `bind` on exactly those three.
 */
export const PROFILE_RUNTIME_BINDINGS: RuntimeRole[] = [
  {
    kind: 'RoleBinding',
    name: 'namespaceAdmin',
    createdFor: 'per Profile, for its owner (profile_controller.go Reconcile)',
    roleRef: { kind: 'ClusterRole', name: KubeflowRole.ADMIN },
  },
  {
    kind: 'RoleBinding',
    name: 'default-editor',
    createdFor: 'per Profile, for the default-editor ServiceAccount notebooks and pipelines run as (profile_controller.go updateServiceAccount)',
    roleRef: { kind: 'ClusterRole', name: KubeflowRole.EDIT },
  },
  {
    kind: 'RoleBinding',
    name: 'default-viewer',
    createdFor: 'per Profile, for the default-viewer ServiceAccount (profile_controller.go updateServiceAccount)',
    roleRef: { kind: 'ClusterRole', name: KubeflowRole.VIEW },
  },
  ...(['edit', 'view'] as const).map((role): RuntimeRole => ({
    kind: 'RoleBinding',
    name: `user-<user>-clusterrole-${role}`,
    createdFor: `by kfam when an owner shares the profile with a contributor as ${role} (access-management kfam/bindings.go Create)`,
    roleRef: { kind: 'ClusterRole', name: role === 'edit' ? KubeflowRole.EDIT : KubeflowRole.VIEW },
  })),
];
