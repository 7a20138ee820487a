import { CRDS } from './crds';
import { LLAMA_STACK_OPERATOR_PARITY_DEVIATIONS } from './parity';
import { LLAMA_STACK_OPERATOR_IMAGES, LLAMA_STACK_OPERATOR_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, roleObject, RuntimeRole } from '../../lib/rbac';

export interface LlamaStackOperatorProps extends ComponentProps {
  /**
   * Grant the OpenShift SecurityContextConstraints the operator uses for distribution pods
   * (use of anyuid), as upstream's role does. Only meaningful on OpenShift.
   * @default false
   */
  readonly openShift?: boolean;
  /** @default upstream's: requests 10m/256Mi, limits 500m/1Gi */
  readonly resources?: ControllerResources;
}

const NAME = 'llama-stack-k8s-operator';
const SELECTOR = { 'app.kubernetes.io/name': NAME, 'control-plane': 'controller-manager' };
const GROUP = 'llamastack.io';

/**
 * The Llama Stack Kubernetes operator v0.9.0: the LlamaStackDistribution CRD and the operator
 * that runs each distribution (Deployment, Service, storage, network policy, ingress,
 * autoscaler, disruption budget). No webhooks.
 */
export class LlamaStackOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return LLAMA_STACK_OPERATOR_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = LLAMA_STACK_OPERATOR_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: LlamaStackOperatorProps = {}) {
    super(scope, id, props.namespace ?? `${NAME}-system`, props);
    this.addNamespace();
    this.declareParityDeviations(LLAMA_STACK_OPERATOR_PARITY_DEVIATIONS);
    const [llsd] = CRDS.map((d) => this.addCrd(d));

    const openShiftRules: PolicyRule[] = props.openShift
      ? [{ apiGroups: ['security.openshift.io'], resources: ['securitycontextconstraints'], resourceNames: ['anyuid'], verbs: ['use'] }]
      : [];
    // On OpenShift (where the ClusterRole exists; pkg/deploy/kustomizer.go skips it elsewhere),
    // v0.9.0 binds each distribution's ServiceAccount to the anyuid SCC's ClusterRole
    // (controllers/manifests/base/rolebinding.yaml, named with the instance's prefix).
    const grants: RuntimeRole[] = props.openShift
      ? [{
        kind: 'RoleBinding',
        name: '<llamastackdistribution>-rb',
        createdFor: 'per LlamaStackDistribution on OpenShift: system:openshift:scc:anyuid, a ClusterRole OpenShift ships (controllers/manifests/base/rolebinding.yaml)',
        roleRef: { kind: 'ClusterRole', name: 'system:openshift:scc:anyuid' },
        rules: openShiftRules,
      }]
      : [];
    this.controller = new Controller(this, 'Controller', {
      name: `${NAME}-controller-manager`,
      grants,
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--leader-elect', '--health-probe-bind-address=:8081'],
      env: [
        // Keeps the Go heap under the 1Gi limit.
        { name: 'GOMEMLIMIT', value: '800MiB' },
        // Upstream's manager env carries the version without the tag's leading v.
        { name: 'OPERATOR_VERSION', value: LLAMA_STACK_OPERATOR_VERSION.replace(/^v/, '') },
      ],
      selectorLabels: SELECTOR,
      ports: { health: 8081 },
      // v0.9.0's manager serves controller-runtime metrics over plain HTTP on :8080 (its
      // --metrics-bind-address default, no secure serving in main.go). Upstream's Service names
      // an https port 8443 for a kube-rbac-proxy whose patch its default install leaves out, so
      // that port leads nowhere; ours targets the port the manager serves, under upstream's
      // Service name. The platform's metrics fence admits it only from the monitoring namespace.
      metrics: ControllerMetrics.insecure(8080, 'v0.9.0 serves metrics over plain HTTP only (controller-runtime without secure serving; the kube-rbac-proxy patch is not in its default install)', {
        serviceName: `${NAME}-controller-manager-metrics-service`,
      }),
      leaderElectionId: '54e06e98.llamastack.io',
      resources: props.resources ?? { requests: { cpu: '10m', memory: '256Mi' }, limits: { cpu: '500m', memory: '1Gi' } },
      owns: [llsd.definition],
      rules: [
        Rbac.verbs('', ['configmaps'], ['create', 'get', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'get', 'list', 'watch']),
        Rbac.manage('', 'serviceaccounts', 'services'),
        Rbac.manage('apps', 'deployments'),
        Rbac.manage('autoscaling', 'horizontalpodautoscalers'),
        Rbac.manage('networking.k8s.io', 'ingresses', 'networkpolicies'),
        Rbac.manage('policy', 'poddisruptionbudgets'),
        Rbac.verbs('rbac.authorization.k8s.io', ['clusterrolebindings'], ['delete', 'get', 'list']),
        Rbac.read('rbac.authorization.k8s.io', 'clusterroles'),
        Rbac.manage('rbac.authorization.k8s.io', 'rolebindings'),
        ...openShiftRules,
      ],
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'services' },
        { group: '', resource: 'configmaps' },
        { group: '', resource: 'persistentvolumeclaims' },
        { group: 'networking.k8s.io', resource: 'networkpolicies' },
      ],
      namespacedRules: [Rbac.manage('', 'configmaps')],
    });

    // User roles that aggregate into the built-in admin, edit and view roles.
    const userRole = (roleId: string, name: string, aggregateTo: string[], verbs: string[]) =>
      roleObject(this, roleId, {
        name: `${NAME}-${name}`,
        labels: { 'app.kubernetes.io/name': NAME, ...Object.fromEntries(aggregateTo.map((r) => [`rbac.authorization.k8s.io/aggregate-to-${r}`, 'true'])) },
        rules: [
          { apiGroups: [GROUP], resources: ['llamastackdistributions'], verbs },
          { apiGroups: [GROUP], resources: ['llamastackdistributions/status'], verbs: ['get'] },
        ],
      });
    userRole('EditorRole', 'llsd-editor-role', ['admin', 'edit'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    userRole('ViewerRole', 'llsd-viewer-role', ['view'], ['get', 'list', 'watch']);
  }
}
