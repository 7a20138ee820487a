import { Construct } from 'constructs';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { PolicyRule } from '../../lib/rbac';

const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ = ['get', 'list', 'watch'];

/** Core Kubernetes permissions of a profile's administrators, beyond kubeflow-edit. */
export const KUBEFLOW_KUBERNETES_ADMIN_RULES: PolicyRule[] = [
  { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'], verbs: [...WRITE, ...READ] },
];

/** Core Kubernetes permissions of a profile's editors, beyond kubeflow-view. */
export const KUBEFLOW_KUBERNETES_EDIT_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], verbs: READ },
  { apiGroups: [''], resources: ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], verbs: WRITE },
  {
    apiGroups: [''],
    resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'],
    verbs: WRITE,
  },
  { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], verbs: WRITE },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: WRITE },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: WRITE },
  {
    apiGroups: ['extensions'],
    resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'],
    verbs: WRITE,
  },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: WRITE },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: WRITE },
];

/** Core Kubernetes permissions of a profile's viewers. */
export const KUBEFLOW_KUBERNETES_VIEW_RULES: PolicyRule[] = [
  {
    apiGroups: [''],
    resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'],
    verbs: READ,
  },
  {
    apiGroups: [''],
    resources: ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'],
    verbs: READ,
  },
  { apiGroups: [''], resources: ['namespaces'], verbs: READ },
  {
    apiGroups: ['apps'],
    resources: ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'],
    verbs: READ,
  },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], verbs: READ },
  { apiGroups: ['batch'], resources: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], verbs: READ },
  {
    apiGroups: ['extensions'],
    resources: ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'],
    verbs: READ,
  },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets', 'poddisruptionbudgets/status'], verbs: READ },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'ingresses/status', 'networkpolicies'], verbs: READ },
];

/**
 * The Kubeflow role hierarchy that profile namespaces bind: kubeflow-admin aggregates
 * kubeflow-edit, which aggregates kubeflow-view; each collects the roles that components
 * label for it (`aggregateTo(role, KubeflowRole.EDIT)`), plus the core Kubernetes
 * permissions of kubeflow-kubernetes-admin/edit/view.
 */
export class KubeflowRoles extends Construct {
  public readonly admin: AggregatedClusterRole;
  public readonly edit: AggregatedClusterRole;
  public readonly view: AggregatedClusterRole;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.admin = new AggregatedClusterRole(this, 'Admin', { name: KubeflowRole.ADMIN, aggregating: true });
    this.edit = new AggregatedClusterRole(this, 'Edit', { name: KubeflowRole.EDIT, aggregating: true, aggregateTo: [KubeflowRole.ADMIN] });
    this.view = new AggregatedClusterRole(this, 'View', { name: KubeflowRole.VIEW, aggregating: true, aggregateTo: [KubeflowRole.EDIT] });
    new AggregatedClusterRole(this, 'KubernetesAdmin', { name: 'kubeflow-kubernetes-admin', aggregateTo: [KubeflowRole.ADMIN], rules: KUBEFLOW_KUBERNETES_ADMIN_RULES });
    new AggregatedClusterRole(this, 'KubernetesEdit', { name: 'kubeflow-kubernetes-edit', aggregateTo: [KubeflowRole.EDIT], rules: KUBEFLOW_KUBERNETES_EDIT_RULES });
    new AggregatedClusterRole(this, 'KubernetesView', { name: 'kubeflow-kubernetes-view', aggregateTo: [KubeflowRole.VIEW], rules: KUBEFLOW_KUBERNETES_VIEW_RULES });
  }
}
