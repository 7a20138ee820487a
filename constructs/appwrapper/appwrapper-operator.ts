import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { AppWrapperConfigProps, appWrapperConfigDocument, renderAppWrapperConfig, validateAppWrapperConfig } from './config';
import { appWrapperCrd, APPWRAPPER_GROUP } from './crds';
import { APPWRAPPER_PARITY_DEVIATIONS } from './parity';
import { APPWRAPPER_MANAGER_RULES } from './rbac';
import { AppWrapperUserRoles } from './user-roles';
import { APPWRAPPER_IMAGES, APPWRAPPER_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { WebhookServer } from '../../lib/webhook-server';

export interface AppWrapperOperatorProps extends ComponentProps, AppWrapperConfigProps {
  /** Controller replicas (leader election keeps one active; every replica serves the webhooks). @default 1 */
  readonly replicas?: number;
  /** @default requests 100m CPU / 64Mi, limits 2 CPU / 128Mi (upstream's) */
  readonly resources?: ControllerResources;
  /** The controller's log verbosity (--zap-log-level). @default 2 */
  readonly logLevel?: number;
}

/** Names upstream installs under (kustomize namePrefix appwrapper-). */
export const APPWRAPPER_NAMES = {
  namespace: 'appwrapper-system',
  controller: 'appwrapper-controller-manager',
  configMap: 'appwrapper-operator-config',
  webhookService: 'appwrapper-webhook-service',
  webhookSecret: 'appwrapper-webhook-server-cert',
  metricsService: 'appwrapper-controller-manager-metrics-service',
  mutatingConfiguration: 'appwrapper-mutating-webhook-configuration',
  validatingConfiguration: 'appwrapper-validating-webhook-configuration',
  leaderElectionId: 'f134c674.codeflare.dev',
} as const;

const HEALTH_PORT = 8081;
const METRICS_PORT = 8443;
const WEBHOOK_PORT = 9443;

/**
 * The standalone AppWrapper controller (project-codeflare/appwrapper v1.2.1): the
 * AppWrapper CRD, the controller with its configuration, its mutating and validating
 * webhooks (with the certificate it rotates itself), secure metrics, and the editor,
 * viewer and user roles.
 *
 * Named AppWrapperOperator so that it does not clash with the AppWrapper custom resource
 * binding (imports/workload.codeflare.dev).
 *
 * With the Kueue integration on (the default), AppWrappers are suspended until Kueue
 * admits them: the platform must serve Kueue's Workloads, and Kueue must run its own
 * AppWrapper integration (whose webhooks, mappwrapper.kb.io and vappwrapper.kb.io, share
 * their names with this component's, in other configurations).
 */
export class AppWrapperOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return APPWRAPPER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = APPWRAPPER_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  /** The configuration file the controller reads (config.yaml of its ConfigMap). */
  public readonly config: Record<string, unknown>;

  constructor(scope: Platform, id: string, props: AppWrapperOperatorProps = {}) {
    super(scope, id, props.namespace ?? APPWRAPPER_NAMES.namespace, props);
    this.declareParityDeviations(APPWRAPPER_PARITY_DEVIATIONS);
    validateAppWrapperConfig(this.node.path, props);
    const logLevel = props.logLevel ?? 2;
    if (!Number.isInteger(logLevel) || logLevel < 0) {
      throw new Error(`${this.node.path}: logLevel ${props.logLevel} must be a whole number >= 0 (zap verbosity, e.g. 2)`);
    }
    const labels = { 'app.kubernetes.io/name': 'appwrapper', 'app.kubernetes.io/component': 'controller' };
    this.addNamespace();
    const crd = this.addCrd(appWrapperCrd);

    if (props.kueueIntegration ?? true) {
      this.require({
        group: 'kueue.x-k8s.io',
        kind: 'Workload',
        reason: 'with the Kueue integration on, every AppWrapper stays suspended until Kueue admits its Workload (or set kueueIntegration: false)',
        // Kueue watches AppWrappers in turn: the order is Kueue after AppWrapper.
        runtimeOnly: true,
      });
    }

    this.config = appWrapperConfigDocument(props, { healthPort: HEALTH_PORT, metricsPort: METRICS_PORT, leaderElection: true });
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: APPWRAPPER_NAMES.configMap, namespace: this.namespaceName, labels },
      data: { 'config.yaml': renderAppWrapperConfig(this.config) },
    });

    this.controller = new Controller(this, 'Controller', {
      name: APPWRAPPER_NAMES.controller,
      image: this.image('controller'),
      command: ['/manager'],
      // The ports, leader election and certificate names come from the ConfigMap (the
      // --config flag defaults to appwrapper-operator-config).
      args: [`--zap-log-level=${logLevel}`],
      env: [{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
      selectorLabels: { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'appwrapper' },
      labels: { 'app.kubernetes.io/component': 'controller' },
      podAnnotations: { 'kubectl.kubernetes.io/default-container': 'manager' },
      ports: { health: HEALTH_PORT, webhook: WEBHOOK_PORT },
      metrics: ControllerMetrics.secure(METRICS_PORT, { serviceName: APPWRAPPER_NAMES.metricsService }),
      replicas: props.replicas,
      leaderElectionId: APPWRAPPER_NAMES.leaderElectionId,
      resources: props.resources ?? { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '2', memory: '128Mi' } },
      owns: [crd.definition],
      rules: APPWRAPPER_MANAGER_RULES,
      // Reads (and creates if absent) its ConfigMap; upstream's leader-election role.
      namespacedRules: [Rbac.manage('', 'configmaps')],
      watches: [
        { group: '', resource: 'pods' },
        { group: '', resource: 'nodes' },
      ],
    });

    // The controller always runs its own certificate rotator (cert-controller): it fills
    // the Secret and patches caBundle into both configurations below.
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: APPWRAPPER_NAMES.webhookService,
      secretName: APPWRAPPER_NAMES.webhookSecret,
      selfManaged: { required: true },
    });
    const rules = (operations: Array<'CREATE' | 'UPDATE'>) => [{ apiGroups: [APPWRAPPER_GROUP], apiVersions: ['v1beta2'], resources: ['appwrappers'], operations }];
    this.webhookServer.addMutatingWebhook(APPWRAPPER_NAMES.mutatingConfiguration, {
      name: 'mappwrapper.kb.io',
      path: '/mutate-workload-codeflare-dev-v1beta2-appwrapper',
      rules: rules(['CREATE']),
    });
    this.webhookServer.addValidatingWebhook(APPWRAPPER_NAMES.validatingConfiguration, {
      name: 'vappwrapper.kb.io',
      path: '/validate-workload-codeflare-dev-v1beta2-appwrapper',
      rules: rules(['CREATE', 'UPDATE']),
    });

    new AppWrapperUserRoles(this, 'UserRoles', {
      editorRoleName: 'appwrapper-editor-role',
      viewerRoleName: 'appwrapper-viewer-role',
      userRoleName: 'appwrapper-user-role',
      labels: { 'app.kubernetes.io/name': 'appwrapper' },
    });
  }
}
