import { DSPA_GROUP } from './crds';
import { AUTH_DELEGATOR_RULES, MANAGE_VERBS, Rbac, RuntimeRole } from '../../lib/rbac';
import { ARGO_GROUP } from '../argo-workflows/crds';
import { KUBEFLOW_GROUP, PIPELINES_GROUP } from '../kubeflow-pipelines/crds';

// The roles DSPO v2.18.0 creates for each DataSciencePipelinesApplication, from its
// templates under config/internal/ at that tag (apiserver/default/role_*.yaml.tmpl,
// persistence-agent/, scheduled-workflow/, workflow-controller/, webhook/). The API server
// only lets the operator create them if it holds every rule itself, so the Controller
// derives its own RBAC from this list and MLP031 proves it holds them.
// `<dspa>` stands for the DSPA's name.

const ALL = ['*'];
const CREATE_READ_PATCH_DELETE = ['create', 'delete', 'get', 'list', 'patch'];

/** What the API server of a DSPA does: pipelines in Kubernetes, runs as Argo workflows, recurring runs, access reviews. */
const API_SERVER: RuntimeRole = {
  kind: 'Role',
  name: 'ds-pipeline-<dspa>',
  createdFor: 'per DSPA, for its API server (apiserver/default/role_ds-pipeline.yaml.tmpl)',
  rules: [
    Rbac.verbs(PIPELINES_GROUP, ['pipelines', 'pipelines/finalizers', 'pipelineversions', 'pipelineversions/status', 'pipelineversions/finalizers'], MANAGE_VERBS),
    Rbac.verbs('', ['pods', 'pods/log'], ['delete', 'get', 'list']),
    Rbac.verbs('', ['secrets'], ['get', 'list']),
    Rbac.manage(ARGO_GROUP, 'workflows'),
    Rbac.verbs(KUBEFLOW_GROUP, ['scheduledworkflows'], ['create', 'delete', 'get', 'list', 'patch', 'update']),
    Rbac.verbs(KUBEFLOW_GROUP, ['scheduledworkflows/finalizers'], ['update']),
    Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
    Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
    Rbac.verbs('image.openshift.io', ['imagestreamtags'], ['get']),
    Rbac.verbs('route.openshift.io', ['routes'], ['get']),
  ],
};

/** Who may reach a DSPA's API (its OAuth/kube-rbac-proxy checks this subresource). */
const USER_ACCESS: RuntimeRole = {
  kind: 'Role',
  name: 'ds-pipeline-user-access-<dspa>',
  createdFor: 'per DSPA, for users of its API (apiserver/default/role_ds-pipeline-user-access.yaml.tmpl)',
  rules: [{ apiGroups: [DSPA_GROUP], resources: ['datasciencepipelinesapplications/api'], resourceNames: ['<dspa>'], verbs: ['create', 'delete', 'get', 'patch', 'update'] }],
};

/** What pipeline steps may do: the broad role of the pipeline-runner-<dspa> ServiceAccount each run uses. */
const PIPELINE_RUNNER: RuntimeRole = {
  kind: 'Role',
  name: 'pipeline-runner-<dspa>',
  createdFor: 'per DSPA, for the ServiceAccount pipeline steps run as (apiserver/default/role_pipeline-runner.yaml.tmpl)',
  rules: [
    Rbac.verbs('', ['secrets'], ['get', 'list']),
    Rbac.read('', 'configmaps'),
    Rbac.verbs('', ['persistentvolumes', 'persistentvolumeclaims'], ALL),
    Rbac.verbs('snapshot.storage.k8s.io', ['volumesnapshots'], ['create', 'delete', 'get']),
    Rbac.verbs(ARGO_GROUP, ['workflowtaskresults'], ['create', 'patch']),
    Rbac.verbs(ARGO_GROUP, ['workflows'], ['get', 'list', 'patch', 'update', 'watch']),
    Rbac.verbs('', ['pods', 'pods/exec', 'pods/log', 'services'], ALL),
    { apiGroups: ['', 'apps', 'extensions'], resources: ['deployments', 'replicasets'], verbs: ALL },
    { apiGroups: [KUBEFLOW_GROUP], resources: ['*'], verbs: ALL },
    Rbac.verbs('batch', ['jobs'], ALL),
    Rbac.verbs('machinelearning.seldon.io', ['seldondeployments'], ALL),
    Rbac.verbs('ray.io', ['rayclusters', 'rayjobs', 'rayservices'], CREATE_READ_PATCH_DELETE),
    Rbac.verbs('workload.codeflare.dev', ['appwrappers', 'appwrappers/finalizers', 'appwrappers/status'], [...MANAGE_VERBS, 'deletecollection']),
    Rbac.verbs('networking.k8s.io', ['ingresses'], ['get', 'list']),
    Rbac.verbs('route.openshift.io', ['routes'], ['get', 'list']),
    Rbac.verbs('serving.kserve.io', ['inferenceservices'], CREATE_READ_PATCH_DELETE),
  ],
};

/** The persistence agent reads runs and recurring runs to record their state. */
const PERSISTENCE_AGENT: RuntimeRole = {
  kind: 'Role',
  name: 'ds-pipeline-persistenceagent-<dspa>',
  createdFor: 'per DSPA, for its persistence agent (persistence-agent/role.yaml.tmpl)',
  rules: [Rbac.read(ARGO_GROUP, 'workflows'), Rbac.read(KUBEFLOW_GROUP, 'scheduledworkflows')],
};

/** The scheduled-workflow controller turns recurring runs into workflows. */
const SCHEDULED_WORKFLOW: RuntimeRole = {
  kind: 'Role',
  name: 'ds-pipeline-scheduledworkflow-<dspa>',
  createdFor: 'per DSPA, for its scheduled-workflow controller (scheduled-workflow/role.yaml.tmpl)',
  rules: [
    Rbac.manage(ARGO_GROUP, 'workflows'),
    Rbac.manage(KUBEFLOW_GROUP, 'scheduledworkflows', 'scheduledworkflows/finalizers'),
    Rbac.verbs('', ['events'], ['create', 'patch']),
  ],
};

/** The DSPA's own Argo workflow controller, limited to the DSPA's namespace. */
const WORKFLOW_CONTROLLER: RuntimeRole = {
  kind: 'Role',
  name: 'ds-pipeline-workflow-controller-role-<dspa>',
  createdFor: 'per DSPA, for its Argo workflow controller (workflow-controller/role.yaml.tmpl)',
  rules: [
    Rbac.verbs('coordination.k8s.io', ['leases'], ['create', 'get', 'update']),
    Rbac.manage('', 'pods', 'pods/exec'),
    Rbac.read('', 'configmaps'),
    Rbac.verbs('', ['persistentvolumeclaims', 'persistentvolumeclaims/finalizers'], ['create', 'delete', 'get', 'update']),
    Rbac.manage(ARGO_GROUP, 'workflows', 'workflows/finalizers', 'workflowtasksets', 'workflowtasksets/finalizers', 'workflowartifactgctasks', 'workflowartifactgctasks/finalizers'),
    Rbac.read(ARGO_GROUP, 'workflowtemplates', 'workflowtemplates/finalizers'),
    Rbac.verbs('', ['serviceaccounts'], ['get', 'list']),
    Rbac.verbs(ARGO_GROUP, ['workflowtaskresults'], ['deletecollection', 'list', 'watch']),
    Rbac.verbs('', ['secrets'], ['get']),
    Rbac.verbs(ARGO_GROUP, ['cronworkflows', 'cronworkflows/finalizers'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
    Rbac.verbs('', ['events'], ['create', 'patch']),
    Rbac.verbs('policy', ['poddisruptionbudgets'], ['create', 'delete', 'get']),
  ],
};

/** The PipelineVersion webhook server reads pipelines cluster-wide. */
const WEBHOOK: RuntimeRole = {
  kind: 'ClusterRole',
  name: 'ds-pipelines-webhook',
  createdFor: 'once a DSPA stores pipelines in Kubernetes, for the PipelineVersion webhook server (webhook/role_webhook.yaml.tmpl)',
  rules: [Rbac.read(PIPELINES_GROUP, 'pipelines')],
};

/** Binds each per-DSPA Role to the ServiceAccount of the same name (its rolebinding*.yaml.tmpl beside each role). */
function bindingOf(role: RuntimeRole, name: string, template: string): RuntimeRole {
  return { kind: 'RoleBinding', name, createdFor: `per DSPA, binding Role ${role.name} to its ServiceAccount (${template})`, roleRef: { kind: 'Role', name: role.name } };
}

/** The API server's and metadata proxy's ServiceAccounts review tokens and access: system:auth-delegator, a built-in ClusterRole. */
const AUTH_DELEGATOR: RuntimeRole = {
  kind: 'ClusterRoleBinding',
  name: 'ds-pipeline-ui-auth-delegator-<namespace>-<dspa>',
  createdFor: 'per DSPA, for its API server\'s kube-rbac-proxy (common/no-owner/clusterrolebinding.yaml.tmpl)',
  roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
  rules: AUTH_DELEGATOR_RULES,
};

/** Every role and binding DSPO v2.18.0 creates at run time (config/internal at that tag). */
export const DSPO_RUNTIME_ROLES: RuntimeRole[] = [
  API_SERVER, USER_ACCESS, PIPELINE_RUNNER, PERSISTENCE_AGENT, SCHEDULED_WORKFLOW, WORKFLOW_CONTROLLER, WEBHOOK,
  bindingOf(API_SERVER, 'ds-pipeline-<dspa>', 'apiserver/default/rolebinding_ds-pipeline.yaml.tmpl'),
  bindingOf(PIPELINE_RUNNER, 'pipeline-runner-<dspa>', 'apiserver/default/rolebinding_pipeline-runner.yaml.tmpl'),
  bindingOf(PERSISTENCE_AGENT, 'ds-pipeline-persistenceagent-<dspa>', 'persistence-agent/rolebinding.yaml.tmpl'),
  bindingOf(SCHEDULED_WORKFLOW, 'ds-pipeline-scheduledworkflow-<dspa>', 'scheduled-workflow/rolebinding.yaml.tmpl'),
  bindingOf(WORKFLOW_CONTROLLER, 'ds-pipeline-workflow-controller-rolebinding-<dspa>', 'workflow-controller/rolebinding.yaml.tmpl'),
  {
    kind: 'ClusterRoleBinding',
    name: 'ds-pipelines-webhook',
    createdFor: 'once a DSPA stores pipelines in Kubernetes, binding the webhook server\'s ServiceAccount (webhook/rolebinding_webhook.yaml.tmpl)',
    roleRef: { kind: 'ClusterRole', name: 'ds-pipelines-webhook' },
  },
  AUTH_DELEGATOR,
];
