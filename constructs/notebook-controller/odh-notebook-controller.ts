import { Construct } from 'constructs';
import { AggregatedClusterRole } from '../../lib/aggregation';
import type { Component } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { CrdDefinition } from '../../lib/crd';
import { AUTH_DELEGATOR_RULES, PolicyRule, Rbac, RuntimeRole } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';

export interface OdhNotebookControllerProps {
  /** The resolved odh-notebook-controller image. */
  readonly image: string;
  /** The resolved kube-rbac-proxy image it injects into notebooks. */
  readonly kubeRbacProxyImage: string;
  /** The Notebook CRD (its webhooks act on v1). */
  readonly notebook: CrdDefinition;
}

/** What Open Data Hub's notebook controller reads and writes besides Notebooks (its manager-role). */
export const ODH_NOTEBOOK_CONTROLLER_RULES: PolicyRule[] = [
  Rbac.verbs('', ['configmaps', 'secrets', 'serviceaccounts', 'services'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('', ['events'], ['create', 'patch']),
  Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']),
  Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
  Rbac.read('config.openshift.io', 'apiservers', 'proxies'),
  Rbac.read('datasciencepipelinesapplications.opendatahub.io', 'datasciencepipelinesapplications'),
  Rbac.verbs('datasciencepipelinesapplications.opendatahub.io', ['datasciencepipelinesapplications/api'], ['create', 'delete', 'get', 'patch', 'update']),
  Rbac.read('gateway.networking.k8s.io', 'gateways'),
  Rbac.manage('gateway.networking.k8s.io', 'httproutes', 'referencegrants'),
  Rbac.read('image.openshift.io', 'imagestreams'),
  Rbac.verbs('kubeflow.org', ['notebooks'], ['get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('kubeflow.org', ['notebooks/finalizers'], ['patch', 'update']),
  Rbac.verbs('kubeflow.org', ['notebooks/status'], ['get']),
  Rbac.verbs('networking.k8s.io', ['networkpolicies'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.verbs('networking.k8s.io', ['networkpolicies/finalizers'], ['patch', 'update']),
  Rbac.verbs('oauth.openshift.io', ['oauthclients'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.manage('rbac.authorization.k8s.io', 'clusterrolebindings', 'rolebindings'),
  Rbac.verbs('rbac.authorization.k8s.io', ['clusterroles'], ['get']),
  Rbac.verbs('rbac.authorization.k8s.io', ['roles'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
  Rbac.read('route.openshift.io', 'routes'),
];

/**
 * What the controller creates per Notebook (odh-notebook-controller controllers/ at
 * v1.10.0-14, the nearest tag the mirror holds to the pinned image): a RoleBinding of the
 * notebook's ServiceAccount to the DSPA user-access Role of the pipeline server named dspa,
 * when that Role exists (notebook_rbac.go ReconcileRoleBindings; DSPO creates the Role, so
 * its rules are written here), and a ClusterRoleBinding to system:auth-delegator for the
 * notebook's kube-rbac-proxy (notebook_kube_rbac_auth.go). Not declared: the RoleBinding to
 * mlflow-operator-mlflow-integration it makes when that ClusterRole exists (notebook_mlflow.go),
 * whose rules come from the MLflow operator's component, when a platform has it.
 */
export const ODH_NOTEBOOK_CONTROLLER_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'RoleBinding',
    name: 'elyra-pipelines-<notebook>',
    createdFor: 'per Notebook in a namespace with a DSPA named dspa, for Elyra\'s pipeline submissions (notebook_rbac.go ReconcileRoleBindings)',
    roleRef: { kind: 'Role', name: 'ds-pipeline-user-access-dspa' },
    rules: [{ apiGroups: ['datasciencepipelinesapplications.opendatahub.io'], resources: ['datasciencepipelinesapplications/api'], resourceNames: ['dspa'], verbs: ['create', 'delete', 'get', 'patch', 'update'] }],
  },
  {
    kind: 'ClusterRoleBinding',
    name: '<notebook>-rbac-<namespace>-auth-delegator',
    createdFor: 'per Notebook, for its kube-rbac-proxy: system:auth-delegator, a built-in ClusterRole (notebook_kube_rbac_auth.go NewNotebookKubeRbacProxyClusterRoleBinding)',
    roleRef: { kind: 'ClusterRole', name: 'system:auth-delegator' },
    rules: AUTH_DELEGATOR_RULES,
  },
];

/**
 * Open Data Hub's notebook controller (odh-notebook-controller): it extends the Kubeflow
 * notebook controller with a mutating webhook (auth proxy sidecar, pipeline runtime
 * configuration, CA bundles, image resolution) and a validating webhook on Notebooks,
 * and the notebooks-admin/edit/view roles aggregated into Kubernetes' admin/edit/view.
 */
export class OdhNotebookController extends Construct {
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Component, id: string, props: OdhNotebookControllerProps) {
    super(scope, id);
    const nb = props.notebook;
    this.controller = new Controller(scope, `${id}Manager`, {
      name: 'odh-notebook-controller-manager',
      image: props.image,
      command: ['/manager'],
      args: ['--kube-rbac-proxy-image', props.kubeRbacProxyImage],
      env: [
        { name: 'GOMEMLIMIT', value: '3600MiB' },
        { name: 'SET_PIPELINE_RBAC', value: 'true' },
        { name: 'SET_PIPELINE_SECRET', value: 'true' },
      ],
      selectorLabels: { 'app': 'odh-notebook-controller', 'app.kubernetes.io/component': 'odh-notebook-controller' },
      ports: { health: 8081, webhook: 8443 },
      metrics: ControllerMetrics.insecure(8080, 'the ODH notebook controller serves plain-HTTP metrics on :8080 and no flag to secure or rebind them is confirmed upstream'),
      webhookPortName: 'webhook',
      resources: { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '4Gi' } },
      rules: ODH_NOTEBOOK_CONTROLLER_RULES,
      grants: ODH_NOTEBOOK_CONTROLLER_RUNTIME_ROLES,
      watches: [
        { group: 'kubeflow.org', resource: 'notebooks' },
        { group: 'route.openshift.io', resource: 'routes' },
        { group: 'gateway.networking.k8s.io', resource: 'httproutes' },
        { group: 'image.openshift.io', resource: 'imagestreams' },
      ],
    });
    this.webhookServer = new WebhookServer(scope, `${id}WebhookServer`, {
      controller: this.controller,
      serviceName: 'odh-notebook-controller-webhook-service',
      secretName: 'odh-notebook-controller-webhook-cert',
    });
    const rules = [{ apiGroups: [nb.group], apiVersions: ['v1'], resources: [nb.plural], operations: ['CREATE' as const, 'UPDATE' as const] }];
    this.webhookServer.addMutatingWebhook('odh-notebook-controller-mutating-webhook-configuration', {
      name: 'notebooks.opendatahub.io',
      path: '/mutate-notebook-v1',
      rules,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    this.webhookServer.addValidatingWebhook('odh-notebook-controller-validating-webhook-configuration', {
      name: 'notebooks-validation.opendatahub.io',
      path: '/validate-notebook-v1',
      rules,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });

    const edit = ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'patch', 'update'];
    new AggregatedClusterRole(this, 'AdminRole', { name: 'notebooks-admin', aggregating: true, aggregateTo: ['admin'] });
    new AggregatedClusterRole(this, 'EditRole', {
      name: 'notebooks-edit',
      aggregateTo: ['edit', 'notebooks-admin'],
      rules: [{ apiGroups: [nb.group], resources: [nb.plural, `${nb.plural}/status`], verbs: edit }],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'notebooks-view',
      aggregateTo: ['view'],
      rules: [{ apiGroups: [nb.group], resources: [nb.plural, `${nb.plural}/status`], verbs: ['get', 'list', 'watch'] }],
    });
  }
}
