/**
 * Kueue's RBAC as data: what the manager needs besides its job integrations (which
 * integrations.ts lists), and the user-facing roles upstream ships (batch-admin and
 * batch-user, aggregated from per-kind editor and viewer roles). Facts from upstream's
 * config/components/rbac at v0.19.2 (via the inventory).
 */
import { IntegrationInfo } from './integrations';
import { PolicyRule, Rbac } from '../../lib/rbac';

const K = 'kueue.x-k8s.io';

/** The manager's cluster-wide rules that do not depend on the enabled integrations. */
export const MANAGER_RULES: PolicyRule[] = [
  Rbac.read('', 'limitranges', 'namespaces', 'nodes'),
  // Pods: the pod integration, pod groups of Deployments/StatefulSets/LWS, and topology-aware scheduling.
  Rbac.verbs('', ['pods'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['pods/finalizers'], ['get', 'update']),
  Rbac.verbs('', ['pods/status'], ['get', 'patch']),
  Rbac.verbs('', ['podtemplates'], ['create', 'delete', 'get', 'list', 'update', 'watch']),
  Rbac.read('apps', 'deployments', 'replicasets', 'statefulsets'),
  Rbac.verbs('apiextensions.k8s.io', ['customresourcedefinitions'], ['list', 'watch']),
  { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: ['clusterprofiles.multicluster.x-k8s.io'], verbs: ['get'] },
  Rbac.verbs('admissionregistration.k8s.io', ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], ['list', 'watch']),
  Rbac.verbs('autoscaling.x-k8s.io', ['provisioningrequests'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('autoscaling.x-k8s.io', ['provisioningrequests/status'], ['get']),
  Rbac.verbs('events.k8s.io', ['events'], ['create', 'patch', 'update', 'watch']),
  Rbac.verbs('flowcontrol.apiserver.k8s.io', ['flowschemas', 'prioritylevelconfigurations'], ['list', 'watch']),
  Rbac.verbs('flowcontrol.apiserver.k8s.io', ['flowschemas/status'], ['patch']),
  Rbac.read('node.k8s.io', 'runtimeclasses'),
  Rbac.read('resource.k8s.io', 'deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices'),
  Rbac.read('scheduling.k8s.io', 'priorityclasses'),
  // Kueue's own kinds (Workload is owned: the Controller grants it in full).
  Rbac.verbs(K, ['admissionchecks', 'clusterqueues', 'resourceflavors', 'topologies'], ['get', 'list', 'update', 'watch']),
  Rbac.verbs(K, ['admissionchecks/finalizers', 'clusterqueues/finalizers', 'resourceflavors/finalizers', 'topologies/finalizers'], ['update']),
  Rbac.verbs(K, ['admissionchecks/status', 'clusterqueues/status', 'cohorts/status', 'localqueues/status', 'multikueueclusters/status'], ['get', 'patch', 'update']),
  Rbac.read(K, 'cohorts', 'localqueues', 'multikueueclusters', 'multikueueconfigs', 'provisioningrequestconfigs', 'workloadpriorityclasses'),
];

/** Rules only in the manager's namespace: leader election ConfigMaps (leases come with leader election), Secrets, ClusterProfiles. */
export const MANAGER_NAMESPACED_RULES: PolicyRule[] = [
  Rbac.manage('', 'configmaps'),
  Rbac.verbs('', ['secrets'], ['get', 'list', 'update', 'watch']),
  Rbac.read('multicluster.x-k8s.io', 'clusterprofiles'),
];

/** Aggregation labels of the user-facing roles. */
export const BATCH_ADMIN = 'rbac.kueue.x-k8s.io/batch-admin';
export const BATCH_USER = 'rbac.kueue.x-k8s.io/batch-user';
const TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';
const TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';

/** One user-facing ClusterRole: name (before the kueue- prefix), labels, rules. */
export interface UserRole {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly rules: PolicyRule[];
}

const EDIT_VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

function editorViewer(kind: string, group: string, resource: string, o: { status: boolean; batchUserEdits: boolean; batchUserViews: boolean; k8s: 'all' | 'admin' }): UserRole[] {
  const status = o.status ? [Rbac.verbs(group, [`${resource}/status`], ['get'])] : [];
  const k8s: Record<string, string> = o.k8s === 'all' ? { [TO_VIEW]: 'true', [TO_EDIT]: 'true', [TO_ADMIN]: 'true' } : { [TO_ADMIN]: 'true' };
  return [
    {
      name: `${kind}-editor-role`,
      labels: { 'rbac.kueue.x-k8s.io/role': `${kind}-editor`, [BATCH_ADMIN]: 'true', ...(o.batchUserEdits ? { [BATCH_USER]: 'true' } : {}) },
      rules: [Rbac.verbs(group, [resource], EDIT_VERBS), ...status],
    },
    {
      name: `${kind}-viewer-role`,
      labels: { 'rbac.kueue.x-k8s.io/role': `${kind}-viewer`, [BATCH_ADMIN]: 'true', ...(o.batchUserViews ? { [BATCH_USER]: 'true' } : {}), ...k8s },
      rules: [Rbac.read(group, resource), ...status],
    },
  ];
}

/**
 * Editor and viewer roles of Kueue's own kinds and the pending-workloads viewers of the
 * visibility API: queue and flavor roles aggregate to admin only, LocalQueue and Workload
 * viewers to view/edit/admin as well.
 */
export const KUEUE_USER_ROLES: UserRole[] = [
  ...editorViewer('clusterqueue', K, 'clusterqueues', { status: true, batchUserEdits: false, batchUserViews: false, k8s: 'admin' }),
  ...editorViewer('cohort', K, 'cohorts', { status: false, batchUserEdits: false, batchUserViews: false, k8s: 'admin' }),
  ...editorViewer('localqueue', K, 'localqueues', { status: true, batchUserEdits: false, batchUserViews: true, k8s: 'all' }),
  ...editorViewer('resourceflavor', K, 'resourceflavors', { status: false, batchUserEdits: false, batchUserViews: false, k8s: 'admin' }),
  ...editorViewer('topology', K, 'topologies', { status: false, batchUserEdits: false, batchUserViews: false, k8s: 'admin' }),
  ...editorViewer('workload', K, 'workloads', { status: true, batchUserEdits: false, batchUserViews: true, k8s: 'all' }),
  {
    name: 'pending-workloads-cq-viewer-role',
    labels: { 'rbac.kueue.x-k8s.io/role': 'pending-workloads-cq-viewer', [BATCH_ADMIN]: 'true', [TO_VIEW]: 'true', [TO_EDIT]: 'true', [TO_ADMIN]: 'true' },
    rules: [Rbac.read('visibility.kueue.x-k8s.io', 'clusterqueues/pendingworkloads')],
  },
  {
    name: 'pending-workloads-lq-viewer-role',
    labels: { 'rbac.kueue.x-k8s.io/role': 'pending-workloads-lq-viewer', [BATCH_ADMIN]: 'true', [BATCH_USER]: 'true', [TO_VIEW]: 'true', [TO_EDIT]: 'true', [TO_ADMIN]: 'true' },
    rules: [Rbac.read('visibility.kueue.x-k8s.io', 'localqueues/pendingworkloads')],
  },
];

/** Editor and viewer roles of a job kind (both aggregate into batch-admin and batch-user, viewers also to view/edit/admin). */
export function integrationUserRoles(i: IntegrationInfo): UserRole[] {
  // Upstream ships none for plain pods, Deployments, StatefulSets and AppWrappers.
  if (['pod', 'deployment', 'statefulset', 'workload.codeflare.dev/appwrapper'].includes(i.name)) return [];
  return editorViewer(i.kind.toLowerCase(), i.group, i.resource, { status: true, batchUserEdits: true, batchUserViews: i.viewerForBatchUser, k8s: 'all' });
}
