import { CRDS } from './crds';
import { MLFLOW_OPERATOR_PARITY_DEVIATIONS } from './parity';
import { MLFLOW_OPERATOR_IMAGES } from './versions';
import { CertificateProviderKind, OPENSHIFT_SERVING_CERT_ANNOTATION } from '../../lib/certificates';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject, RuntimeRole } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';

export interface MLflowOperatorProps extends ComponentProps {
  /** The Gateway the MLflow servers are exposed through (HTTPRoutes attach to it). @default data-science-gateway */
  readonly gatewayName?: string;
  /** The external URL of MLflow (shown in the console link). @default - upstream's placeholder, set by the ODH operator */
  readonly url?: string;
  /** Title of the dashboard section. @default MLflow */
  readonly sectionTitle?: string;
  /**
   * Run on OpenShift with the Open Data Hub platform: console links, the platform's Auth
   * object and the cluster TLS profile. @default false
   */
  readonly openShift?: boolean;
  /** Run the MLflowOperator module controller (off upstream). @default false */
  readonly moduleController?: boolean;
}

const NAME = 'mlflow-operator';
const PREFIX = `${NAME}-`;
const SELECTOR = { 'app.kubernetes.io/name': NAME, 'control-plane': 'controller-manager' };
const GROUP = 'mlflow.opendatahub.io';
const KF_GROUP = 'mlflow.kubeflow.org';

/**
 * What the operator creates per MLflow at 1.1.0, rendering its Helm chart
 * (charts/mlflow/templates/rbac.yaml, applied by mlflow_controller.go): the shared ClusterRole
 * mlflow, and a ClusterRoleBinding of the MLflow server's ServiceAccount to it.
 */
const MLFLOW_RUNTIME_ROLES: RuntimeRole[] = [
  {
    kind: 'ClusterRole',
    name: 'mlflow',
    createdFor: 'per MLflow, shared by all of them: workspaces list namespaces, read their artifact connection Secret and MLflowConfigs (charts/mlflow/templates/rbac.yaml)',
    rules: [
      Rbac.read('', 'namespaces'),
      { apiGroups: [''], resources: ['secrets'], resourceNames: ['mlflow-artifact-connection'], verbs: ['get', 'list', 'watch'] },
      Rbac.read(KF_GROUP, 'mlflowconfigs'),
    ],
  },
  {
    kind: 'ClusterRoleBinding',
    name: 'mlflow<suffix>',
    createdFor: 'per MLflow, binding its server\'s ServiceAccount (charts/mlflow/templates/rbac.yaml)',
    roleRef: { kind: 'ClusterRole', name: 'mlflow' },
  },
];
/** Resources of mlflow.kubeflow.org that are no CRDs: the MLflow server checks them by SubjectAccessReview. */
const MLFLOW_SERVER_RESOURCES = ['datasets', 'experiments', 'registeredmodels', 'gatewaysecrets', 'gatewayendpoints', 'gatewaymodeldefinitions', 'mcpservers'];
const METRICS_CERT_SECRET = 'controller-manager-metrics-tls';

/**
 * The MLflow operator (Open Data Hub): the MLflow, MLflowConfig and MLflowOperator CRDs, the
 * operator that deploys MLflow tracking servers, and the aggregated user roles through which
 * namespace users reach MLflow. No webhooks.
 */
export class MLflowOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string | undefined {
    return MLFLOW_OPERATOR_IMAGES.controller.tag;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = MLFLOW_OPERATOR_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: MLflowOperatorProps = {}) {
    super(scope, id, props.namespace ?? 'opendatahub', props);
    const gateway = props.gatewayName ?? 'data-science-gateway';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(gateway) || gateway.length > 63) {
      throw new Error(`${this.node.path}: gatewayName '${gateway}' is not a Gateway name (a lower-case DNS label)`);
    }
    if (props.url !== undefined && !/^https:\/\/[^\s/]+(\/\S*)?$/.test(props.url)) {
      throw new Error(`${this.node.path}: url '${props.url}' must be an https URL, e.g. https://mlflow.apps.example.com`);
    }
    this.addNamespace();
    this.declareParityDeviations(MLFLOW_OPERATOR_PARITY_DEVIATIONS);
    const crds = new Map(CRDS.map((d) => [d.kind, this.addCrd(d)]));
    this.require({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', reason: 'it exposes each MLflow server through an HTTPRoute on the gateway' });
    this.require({ group: 'monitoring.coreos.com', kind: 'ServiceMonitor', reason: 'it creates a ServiceMonitor for each MLflow server' });
    if (props.openShift) {
      this.require({ group: 'console.openshift.io', kind: 'ConsoleLink', reason: 'it adds MLflow to the OpenShift console' });
      this.require({ group: 'services.platform.opendatahub.io', kind: 'Auth', reason: 'it reads the platform\'s admin and user groups from the Auth object' });
    }

    const named = (apiGroups: string[], resources: string[], resourceNames: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, resourceNames, verbs: [...verbs].sort() });
    const openShiftMetrics = scope.certificates.kind === CertificateProviderKind.OPENSHIFT_SERVICE_CA;
    this.controller = new Controller(this, 'Controller', {
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      name: `${NAME}-controller-manager`,
      image: this.image('controller'),
      command: ['/manager'],
      // --namespace: where the operator creates the MLflow servers (1.1.0 defaults to
      // opendatahub, later builds to the pod's namespace); its namespaced Role covers only ours.
      args: [
        '--leader-elect', '--health-probe-bind-address=:8081', `--namespace=${this.namespaceName}`,
      ],
      env: [
        { name: 'ENABLE_NAMESPACE_RBAC', value: 'true' },
        { name: 'MLFLOW_IMAGE', value: this.image('mlflow') },
        { name: 'GATEWAY_NAME', value: gateway },
        { name: 'MLFLOW_URL', value: props.url ?? 'https://www.gateway-hostname-placeholder-with-mlflow-path.com' },
        { name: 'SECTION_TITLE', value: props.sectionTitle ?? 'MLflow' },
        { name: 'ENABLE_MLFLOW_OPERATOR_MODULE_CONTROLLER', value: String(props.moduleController ?? false) },
        { name: 'RESOURCE_NAME_PREFIX', value: PREFIX },
      ],
      selectorLabels: SELECTOR,
      ports: { health: 8081 },
      metrics: ControllerMetrics.secure(8443, {
        // Without a certificate path the manager serves metrics with a self-signed certificate;
        // on OpenShift the service CA signs one for the metrics Service.
        args: ['--metrics-bind-address=:8443', ...(openShiftMetrics ? ['--metrics-cert-path=/etc/metrics-certs'] : [])],
        serviceName: `${NAME}-controller-manager-metrics-service`,
        serviceAnnotations: openShiftMetrics ? { [OPENSHIFT_SERVING_CERT_ANNOTATION]: METRICS_CERT_SECRET } : undefined,
      }),
      leaderElectionId: 'mlflow-operator-leader-election',
      resources: { requests: { cpu: '200m', memory: '400Mi' }, limits: { cpu: '1', memory: '4Gi' } },
      owns: [crds.get('MLflow')!.definition],
      grants: MLFLOW_RUNTIME_ROLES,
      rules: [
        Rbac.read('', 'namespaces'),
        named([''], ['secrets'], ['mlflow-artifact-connection'], ['get', 'list', 'watch']),
        Rbac.verbs('components.platform.opendatahub.io', ['mlflowoperators'], ['get', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('components.platform.opendatahub.io', ['mlflowoperators/finalizers'], ['update']),
        Rbac.verbs('components.platform.opendatahub.io', ['mlflowoperators/status'], ['get', 'patch', 'update']),
        Rbac.manage('console.openshift.io', 'consolelinks'),
        Rbac.manage('gateway.networking.k8s.io', 'httproutes'),
        Rbac.read(KF_GROUP, 'mlflowconfigs'),
        named(['rbac.authorization.k8s.io'], ['clusterrolebindings', 'clusterroles'], ['mlflow'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
        named(['rbac.authorization.k8s.io'], ['clusterrolebindings', 'clusterroles'], ['mlflow-gc'], ['delete', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('rbac.authorization.k8s.io', ['clusterrolebindings', 'clusterroles', 'rolebindings'], ['create']),
        named(['rbac.authorization.k8s.io'], ['clusterroles'], [`${PREFIX}mlflow-edit`, `${PREFIX}mlflow-view`], ['bind']),
        named(['rbac.authorization.k8s.io'], ['rolebindings'], ['odh-group-mlflow-edit', 'odh-group-mlflow-view'], ['delete', 'get', 'list', 'patch', 'update', 'watch']),
        named(['services.platform.opendatahub.io'], ['auths'], ['auth'], ['get', 'list', 'watch']),
        ...(props.openShift ? [Rbac.read('config.openshift.io', 'apiservers')] : []),
      ],
      watches: [
        { group: '', resource: 'namespaces' },
        { group: KF_GROUP, resource: 'mlflowconfigs' },
        { group: 'components.platform.opendatahub.io', resource: 'mlflowoperators' },
        { group: 'gateway.networking.k8s.io', resource: 'httproutes' },
      ],
      // The MLflow servers run in the operator's namespace: their workloads are managed there only.
      namespacedRules: [
        Rbac.manage('', 'configmaps', 'persistentvolumeclaims', 'secrets', 'serviceaccounts', 'services'),
        Rbac.read('', 'pods'),
        Rbac.manage('apps', 'deployments'),
        Rbac.manage('batch', 'jobs', 'cronjobs'),
        Rbac.manage('networking.k8s.io', 'networkpolicies'),
        Rbac.manage('monitoring.coreos.com', 'servicemonitors'),
      ],
      volumes: openShiftMetrics ? [{ name: 'metrics-cert', secret: { secretName: METRICS_CERT_SECRET } }] : undefined,
      volumeMounts: openShiftMetrics ? [{ name: 'metrics-cert', mountPath: '/etc/metrics-certs', readOnly: true }] : undefined,
    });

    // User roles. edit and view aggregate into the built-in roles; integration is bound to
    // workloads (pipelines, notebooks) that log to MLflow. The mlflow.kubeflow.org resources
    // other than mlflowconfigs are checked by the MLflow server itself.
    const aggregate = (...roles: string[]) => Object.fromEntries(roles.map((r) => [`rbac.authorization.k8s.io/aggregate-to-${r}`, 'true']));
    roleObject(this, 'EditRole', {
      name: `${PREFIX}mlflow-edit`,
      labels: aggregate('admin', 'edit'),
      rules: [
        { apiGroups: [GROUP], resources: ['mlflows'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] },
        { apiGroups: [GROUP], resources: ['mlflows/finalizers'], verbs: ['patch', 'update'] },
        { apiGroups: [KF_GROUP], resources: ['mlflowconfigs'], verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'] },
        { apiGroups: [KF_GROUP], resources: ['gatewaysecrets'], verbs: ['get', 'list'] },
        { apiGroups: [KF_GROUP], resources: MLFLOW_SERVER_RESOURCES, verbs: ['create', 'delete', 'update'] },
        { apiGroups: [KF_GROUP], resources: ['gatewaysecrets/use', 'gatewayendpoints/use', 'gatewaymodeldefinitions/use'], verbs: ['create'] },
      ],
    });
    roleObject(this, 'ViewRole', {
      name: `${PREFIX}mlflow-view`,
      labels: aggregate('admin', 'edit', 'view'),
      rules: [
        { apiGroups: [GROUP], resources: ['mlflows', 'mlflows/status'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [KF_GROUP], resources: ['mlflowconfigs'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [KF_GROUP], resources: MLFLOW_SERVER_RESOURCES.filter((r) => r !== 'gatewaysecrets'), verbs: ['get', 'list'] },
      ],
    });
    roleObject(this, 'IntegrationRole', {
      name: `${PREFIX}mlflow-integration`,
      rules: [
        { apiGroups: [KF_GROUP], resources: ['datasets', 'experiments', 'registeredmodels'], verbs: ['create', 'get', 'list', 'update'] },
        { apiGroups: [KF_GROUP], resources: ['gatewayendpoints', 'mcpservers'], verbs: ['get', 'list'] },
        { apiGroups: [KF_GROUP], resources: ['gatewayendpoints/use'], verbs: ['create'] },
      ],
    });
  }
}
