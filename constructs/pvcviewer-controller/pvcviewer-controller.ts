import { CRDS } from './crds';
import { pvcViewerControllerParityDeviations } from './parity';
import { PVCVIEWER_CONTROLLER_IMAGES, PVCVIEWER_CONTROLLER_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import { isolationPolicyDeviations } from '../../lib/parity-items';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';

export interface PvcViewerControllerProps extends ComponentProps {
  /** Replicas of the manager (leader election keeps one active; the webhooks are served by all). @default 1 */
  readonly replicas?: number;
  /** @default requests 10m/64Mi, limits 500m/128Mi (upstream's) */
  readonly resources?: ControllerResources;
}

const SELECTOR = { 'app': 'pvcviewer', 'control-plane': 'controller-manager' };
const LABELS = {
  'app.kubernetes.io/component': 'manager',
  'app.kubernetes.io/created-by': 'pvc-viewer',
  'app.kubernetes.io/instance': 'controller-manager',
  'app.kubernetes.io/part-of': 'pvc-viewer',
};
const WEBHOOK_PORT = 9443;

/**
 * The PVC viewer controller (kubeflow/notebooks v1.11.0, components/pvcviewer-controller):
 * the PVCViewer CRD, the controller that runs each PVCViewer as a Deployment, Service and
 * Istio VirtualService, and its webhooks, which default a PVCViewer's pod spec and check it
 * (fail closed: no PVCViewer is created without them).
 */
export class PvcViewerController extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return PVCVIEWER_CONTROLLER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = PVCVIEWER_CONTROLLER_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;

  constructor(scope: Platform, id: string, props: PvcViewerControllerProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1 (the webhooks fail closed: with 0 replicas no PVCViewer can be created)`);
    }
    this.addNamespace();
    const [viewer] = CRDS.map((d) => this.addCrd(d));
    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the controller routes each PVCViewer with networking through an Istio VirtualService' });

    this.controller = new Controller(this, 'Controller', {
      name: 'pvcviewer-controller-manager',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--health-probe-bind-address=:8081', '--leader-elect'],
      selectorLabels: SELECTOR,
      labels: LABELS,
      ports: { health: 8081, webhook: WEBHOOK_PORT },
      metrics: ControllerMetrics.rbacProxy({
        image: this.image('kubeRbacProxy'),
        port: 8443,
        upstreamPort: 8080,
        args: ['--metrics-bind-address=127.0.0.1:8080'],
        serviceName: 'pvcviewer-controller-manager-metrics-service',
      }),
      // As upstream: the API server calls the webhook port directly, past the sidecar.
      podAnnotations: { 'traffic.sidecar.istio.io/excludeInboundPorts': String(WEBHOOK_PORT) },
      replicas,
      leaderElectionId: '57a72bdf.kubeflow.org',
      resources: props.resources ?? { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
      owns: [viewer.definition],
      rules: [
        Rbac.verbs('apps', ['deployments'], ['create', 'get', 'list', 'update', 'watch']),
        Rbac.verbs('', ['services'], ['create', 'get', 'list', 'update', 'watch']),
        Rbac.verbs('networking.istio.io', ['virtualservices'], ['create', 'get', 'list', 'update', 'watch']),
        // The pods mounting a viewer's ReadWriteOnce claim, to schedule next to them.
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
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: 'pvcviewer-webhook-service',
      secretName: 'pvcviewer-webhook-server-cert',
      certificateName: 'pvcviewer-serving-cert',
      // Where the platform isolates the namespace: the API server reaches the webhook port (kubeflow/manifests' pvcviewer-webhook).
      isolationPolicy: { name: 'pvcviewer-webhook' },
    });
    const rules = [{ apiGroups: [viewer.definition.group], apiVersions: ['v1alpha1'], resources: [viewer.definition.plural], operations: ['CREATE' as const, 'UPDATE' as const] }];
    this.webhookServer.addMutatingWebhook('pvcviewer-mutating-webhook-configuration', {
      name: 'mpvcviewer.kb.io',
      path: '/mutate-kubeflow-org-v1alpha1-pvcviewer',
      rules,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    this.webhookServer.addValidatingWebhook('pvcviewer-validating-webhook-configuration', {
      name: 'vpvcviewer.kb.io',
      path: '/validate-kubeflow-org-v1alpha1-pvcviewer',
      rules,
      failurePolicy: 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    });
    this.declareParityDeviations([...pvcViewerControllerParityDeviations(), ...isolationPolicyDeviations(['pvcviewer-webhook'])]);
  }
}
