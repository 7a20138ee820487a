import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { CRDS } from './crds';
import { TENSORBOARD_LEADER_ELECTION_CONFIGMAP_VERBS, tensorboardControllerParityDeviations } from './parity';
import { TENSORBOARD_CONTROLLER_IMAGES, TENSORBOARD_CONTROLLER_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { gatewayRouteProblems } from '../../lib/gateway-route';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';

export interface TensorboardControllerProps extends ComponentProps {
  /** The Istio Gateway the Tensorboards' VirtualServices attach to, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly istioGateway?: string;
  /** Host of the Tensorboards' VirtualServices. @default * */
  readonly istioHost?: string;
  /**
   * Schedule a Tensorboard on the node where its ReadWriteOnce claim is already mounted
   * (RWO_PVC_SCHEDULING), so that it can mount the claim too.
   * @default true
   */
  readonly rwoPvcScheduling?: boolean;
  /** More than 1 turns on leader election. @default 1 */
  readonly replicas?: number;
  /** @default requests 10m/64Mi, limits 500m/128Mi (upstream's) */
  readonly resources?: ControllerResources;
}

const SELECTOR = { 'app': 'tensorboard-controller', 'kustomize.component': 'tensorboard-controller' };
const CONFIG = 'tensorboard-controller-config';

/**
 * The TensorBoard controller (kubeflow/notebooks v1.11.0, components/tensorboard-controller):
 * the Tensorboard CRD and the controller that runs each Tensorboard as a Deployment of the
 * TensorBoard image, a Service and an Istio VirtualService at /tensorboard/<namespace>/<name>/.
 */
export class TensorboardController extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return TENSORBOARD_CONTROLLER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = TENSORBOARD_CONTROLLER_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: TensorboardControllerProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    const problems = gatewayRouteProblems('istioGateway', gateway);
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) problems.push(`replicas ${props.replicas} must be a whole number >= 1`);
    if (props.istioHost !== undefined && !props.istioHost.trim()) problems.push('istioHost is empty; give a host, or * for any');
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);
    this.addNamespace();
    const [tensorboard] = CRDS.map((d) => this.addCrd(d));
    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the controller routes each Tensorboard through an Istio VirtualService' });

    // Read by name at run time (envFrom): upstream's names and keys.
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: CONFIG, namespace: this.namespaceName, labels: SELECTOR },
      data: {
        ISTIO_GATEWAY: gateway,
        ISTIO_HOST: props.istioHost ?? '*',
        RWO_PVC_SCHEDULING: (props.rwoPvcScheduling ?? true) ? 'True' : 'False',
        TENSORBOARD_IMAGE: this.image('tensorboard'),
      },
    });

    this.controller = new Controller(this, 'Controller', {
      name: 'tensorboard-controller-deployment',
      serviceAccountName: 'tensorboard-controller-controller-manager',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--health-probe-bind-address=:8081', ...(replicas > 1 ? ['--leader-elect'] : [])],
      envFrom: [{ configMapRef: { name: CONFIG } }],
      selectorLabels: SELECTOR,
      ports: { health: 8081 },
      metrics: ControllerMetrics.rbacProxy({
        image: this.image('kubeRbacProxy'),
        port: 8443,
        upstreamPort: 8080,
        args: ['--metrics-bind-address=127.0.0.1:8080'],
        serviceName: 'tensorboard-controller-controller-manager-metrics-service',
      }),
      runAsUser: 999,
      replicas,
      leaderElectionId: replicas > 1 ? 'kubeflow-tensorboard-controller' : undefined,
      // controller-runtime v0.11.0 elects its leader with the configmapsleases lock.
      namespacedRules: replicas > 1 ? [Rbac.verbs('', ['configmaps'], TENSORBOARD_LEADER_ELECTION_CONFIGMAP_VERBS)] : undefined,
      resources: props.resources ?? { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
      owns: [tensorboard.definition],
      rules: [
        Rbac.verbs('apps', ['deployments'], ['create', 'get', 'list', 'update', 'watch']),
        Rbac.verbs('', ['services'], ['create', 'get', 'list', 'update', 'watch']),
        Rbac.verbs('networking.istio.io', ['virtualservices'], ['create', 'get', 'list', 'update', 'watch']),
        // The pods mounting a Tensorboard's ReadWriteOnce claim, to schedule next to them.
        Rbac.read('', 'persistentvolumeclaims', 'pods'),
      ],
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'services' },
        { group: 'networking.istio.io', resource: 'virtualservices' },
        { group: '', resource: 'pods' },
        { group: '', resource: 'persistentvolumeclaims' },
      ],
    });
    this.declareParityDeviations(tensorboardControllerParityDeviations({ leaderElection: replicas > 1 }));
  }
}
