import { PolicyRule, Rbac } from '../../lib/rbac';

const CREATE_DELETE_READ = ['create', 'delete', 'get', 'list', 'watch'];

/**
 * What the AppWrapper controller does besides owning AppWrappers (which the Controller
 * derives from `owns`), from upstream's generated manager role (v1.2.1). The cert
 * rotator's Secret and webhook-configuration rights come from the WebhookServer, scoped
 * to its own objects; the metrics authn/authz rights from ControllerMetrics.secure.
 */
export const APPWRAPPER_MANAGER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['events'], ['create', 'patch', 'update', 'watch']),
  // Autopilot node health monitoring.
  Rbac.read('', 'nodes'),
  // The kinds an AppWrapper may wrap: created, watched and deleted as its components.
  Rbac.verbs('', ['pods', 'services'], CREATE_DELETE_READ),
  Rbac.verbs('apps', ['deployments', 'statefulsets'], CREATE_DELETE_READ),
  Rbac.verbs('batch', ['jobs'], CREATE_DELETE_READ),
  Rbac.verbs('jobset.x-k8s.io', ['jobsets'], CREATE_DELETE_READ),
  Rbac.verbs('kubeflow.org', ['pytorchjobs'], CREATE_DELETE_READ),
  Rbac.verbs('ray.io', ['rayclusters', 'rayjobs'], CREATE_DELETE_READ),
  { apiGroups: ['scheduling.sigs.k8s.io', 'scheduling.x-k8s.io'], resources: ['podgroups'], verbs: CREATE_DELETE_READ },
  // Which wrappable kinds the cluster serves.
  Rbac.verbs('apiextensions.k8s.io', ['customresourcedefinitions'], ['list']),
  // The admission webhook checks that the user may create every wrapped object.
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
];

/** Rules of the user-facing AppWrapper roles. */
export const APPWRAPPER_ROLE_RULES = {
  editor: [
    Rbac.manage('workload.codeflare.dev', 'appwrappers'),
    Rbac.verbs('workload.codeflare.dev', ['appwrappers/status'], ['get']),
  ],
  viewer: [
    Rbac.read('workload.codeflare.dev', 'appwrappers'),
    Rbac.verbs('workload.codeflare.dev', ['appwrappers/status'], ['get']),
  ],
  // Upstream's user role also grants update on "appwrappers/finalizer", a subresource that
  // does not exist (the real one is appwrappers/finalizers); it grants nothing and is left out.
  user: [
    Rbac.verbs('workload.codeflare.dev', ['appwrappers'], CREATE_DELETE_READ),
    Rbac.verbs('workload.codeflare.dev', ['appwrappers/status'], ['get']),
  ],
};
