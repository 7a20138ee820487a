import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { codeFlareConfigDocument, renderCodeFlareConfig } from './config';
import { codeFlareParityDeviations } from './parity';
import { CODEFLARE_APPWRAPPER_RULES, CODEFLARE_OAUTH_RULES, CODEFLARE_OAUTH_RUNTIME_ROLES, CODEFLARE_OPENSHIFT_RULES, CODEFLARE_RAYCLUSTER_CLIENT_CALLS, CODEFLARE_RAYCLUSTER_RULES } from './rbac';
import { CODEFLARE_IMAGES, CODEFLARE_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { crdName } from '../../lib/crd';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { PolicyRule, Rbac, ResourceRef } from '../../lib/rbac';
import { checkDnsSubdomain } from '../../lib/validation/names';
import { WebhookRule, WebhookServer } from '../../lib/webhook-server';
import { appWrapperCrd, APPWRAPPER_GROUP } from '../appwrapper/crds';
import { AppWrapperUserRoles } from '../appwrapper/user-roles';

export interface CodeFlareOperatorProps extends ComponentProps {
  /**
   * Run the embedded AppWrapper controller (AppWrapper v1.1.2) with its webhooks and the
   * AppWrapper CRD. Off by default, as upstream configures it; a platform that wants
   * AppWrappers can use the standalone AppWrapperOperator (v1.2.1) instead. Both at once
   * would run two controllers on the same objects, which is an error.
   * @default false
   */
  readonly appWrapper?: boolean;
  /**
   * The cluster is OpenShift: RayCluster dashboards get a Route (behind the OAuth proxy when
   * rayDashboardOAuth is on) and the ingress domain may be read from the cluster.
   * @default false
   */
  readonly openShift?: boolean;
  /**
   * Domain for the dashboard and Ray client hosts (<name>-<namespace>.<domain>). Required
   * off OpenShift, where the operator cannot look it up (it exits at start without one).
   * @default - on OpenShift, the cluster's ingress domain
   */
  readonly ingressDomain?: string;
  /**
   * Put the Ray dashboard behind OpenShift's OAuth proxy, exposed by a Route (OpenShift
   * only). Off OpenShift the dashboard gets an Ingress instead; on OpenShift with it off,
   * the operator exposes no dashboard at all.
   * @default the value of openShift
   */
  readonly rayDashboardOAuth?: boolean;
  /** Mutual TLS between Ray nodes (the webhook injects certificate init containers). @default true */
  readonly mTls?: boolean;
  /** Leader election (needed for more than one replica). @default false, as upstream */
  readonly leaderElection?: boolean;
  /** @default 1 */
  readonly replicas?: number;
  /** @default requests and limits 1 CPU / 1Gi (upstream's) */
  readonly resources?: ControllerResources;
}

/** Names upstream installs under (kustomize namePrefix codeflare-operator-). */
export const CODEFLARE_NAMES = {
  namespace: 'opendatahub',
  controller: 'codeflare-operator-manager',
  configMap: 'codeflare-operator-config',
  webhookService: 'codeflare-operator-webhook-service',
  webhookSecret: 'codeflare-operator-webhook-server-cert',
  metricsService: 'codeflare-operator-manager-metrics',
  mutatingConfiguration: 'codeflare-operator-mutating-webhook-configuration',
  validatingConfiguration: 'codeflare-operator-validating-webhook-configuration',
  // Not set by upstream's default configuration (leader election is off there).
  leaderElectionId: 'codeflare-operator-leader-election',
} as const;

const HEALTH_PORT = 8081;
const METRICS_PORT = 8080;
const WEBHOOK_PORT = 9443;

/**
 * The CodeFlare operator (Open Data Hub's build): extends KubeRay's RayClusters with an
 * OAuth-protected dashboard (OpenShift Route) or an Ingress, mTLS between Ray nodes and
 * NetworkPolicies, through its RayCluster controller and mutating/validating webhooks;
 * optionally runs the embedded AppWrapper controller. It rotates its own webhook
 * certificate and reads codeflare-operator-config.
 *
 * Its webhook names mappwrapper.kb.io and vappwrapper.kb.io are also used by Kueue and
 * by the standalone AppWrapper controller, each in their own configurations.
 */
export class CodeFlareOperator extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return CODEFLARE_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = CODEFLARE_IMAGES;
  public readonly controller: Controller;
  public readonly webhookServer: WebhookServer;
  public readonly config: Record<string, unknown>;
  public readonly appWrapper: boolean;

  constructor(scope: Platform, id: string, props: CodeFlareOperatorProps = {}) {
    super(scope, id, props.namespace ?? CODEFLARE_NAMES.namespace, props);
    const openShift = props.openShift ?? false;
    const oauth = props.rayDashboardOAuth ?? openShift;
    this.appWrapper = props.appWrapper ?? false;
    if (props.ingressDomain !== undefined) {
      const problem = checkDnsSubdomain(props.ingressDomain);
      if (problem) throw new Error(`${this.node.path}: ingressDomain '${props.ingressDomain}' must be ${problem}`);
    } else if (!openShift) {
      throw new Error(`${this.node.path}: ingressDomain is required when openShift is false: the operator cannot look the domain up and exits at start; set ingressDomain (e.g. 'apps.example.com') or openShift: true`);
    }
    if (oauth && !openShift) {
      throw new Error(`${this.node.path}: rayDashboardOAuth true needs openShift: the OAuth proxy and its Route exist only there (elsewhere the dashboard is exposed through an Ingress); set rayDashboardOAuth: false or openShift: true`);
    }
    const leader = props.leaderElection ?? false;
    if ((props.replicas ?? 1) > 1 && !leader) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} needs leaderElection: true, or every replica reconciles the same RayClusters`);
    }

    const labels = { 'app.kubernetes.io/name': 'codeflare-operator', 'app.kubernetes.io/part-of': 'codeflare' };
    this.addNamespace();

    this.require({ group: 'ray.io', kind: 'RayCluster', reason: 'its controller and webhooks extend RayClusters (KubeRay)' });
    this.require({ group: 'dscinitialization.opendatahub.io', kind: 'DSCInitialization', reason: 'the RayCluster controller reads default-dsci for the applications namespace; without the kind every reconcile fails' });
    if (openShift) {
      this.require({ group: 'route.openshift.io', kind: 'Route', reason: 'RayCluster dashboards and Ray clients are exposed through Routes on OpenShift' });
      if (props.ingressDomain === undefined) this.require({ group: 'config.openshift.io', kind: 'Ingress', reason: 'without ingressDomain the operator reads the cluster Ingress configuration' });
    }

    const owns = [];
    if (this.appWrapper) {
      owns.push(this.addCrd(appWrapperCrd).definition);
      this.require({ group: 'kueue.x-k8s.io', kind: 'Workload', reason: 'the embedded AppWrapper controller runs with its Kueue integration: AppWrappers wait for Kueue to admit their Workloads', runtimeOnly: true });
      this.node.addValidation({ validate: () => this.checkSingleAppWrapperController() });
    }

    this.config = codeFlareConfigDocument({
      metricsPort: METRICS_PORT,
      healthPort: HEALTH_PORT,
      namespace: this.namespaceName,
      leaderElectionId: leader ? CODEFLARE_NAMES.leaderElectionId : undefined,
      rayDashboardOAuth: oauth,
      mTls: props.mTls ?? true,
      ingressDomain: props.ingressDomain ?? '',
      appWrapper: this.appWrapper,
      qps: 50,
      burst: 100,
    });
    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: CODEFLARE_NAMES.configMap, namespace: this.namespaceName, labels },
      data: { 'config.yaml': renderCodeFlareConfig(this.config) },
    });

    const rules: PolicyRule[] = [
      ...CODEFLARE_RAYCLUSTER_RULES,
      ...(openShift ? CODEFLARE_OPENSHIFT_RULES : []),
      ...(oauth ? CODEFLARE_OAUTH_RULES : []),
      ...(this.appWrapper ? CODEFLARE_APPWRAPPER_RULES : []),
    ];
    this.declareParityDeviations(codeFlareParityDeviations({ openShift, oauth, appWrapper: this.appWrapper, leaderElection: leader, rules: [...rules, ...owns.map((d) => ({ apiGroups: [d.group], resources: [d.plural, `${d.plural}/status`, `${d.plural}/finalizers`], verbs: ['*'] }))] }));
    const watches: ResourceRef[] = [
      { group: 'ray.io', resource: 'rayclusters' },
      { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
      { group: 'dscinitialization.opendatahub.io', resource: 'dscinitializations' },
      { group: '', resource: 'secrets' },
      { group: '', resource: 'services' },
      { group: 'networking.k8s.io', resource: 'networkpolicies' },
      ...(openShift ? [{ group: 'route.openshift.io', resource: 'routes' }] : [{ group: 'networking.k8s.io', resource: 'ingresses' }]),
      ...(this.appWrapper ? [{ group: '', resource: 'pods' }, { group: '', resource: 'nodes' }] : []),
    ];
    this.controller = new Controller(this, 'Controller', {
      name: CODEFLARE_NAMES.controller,
      grants: oauth ? CODEFLARE_OAUTH_RUNTIME_ROLES : [],
      image: this.image('operator'),
      command: ['/manager'],
      // --config defaults to codeflare-operator-config, the ConfigMap above.
      env: [{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
      selectorLabels: labels,
      podAnnotations: { 'kubectl.kubernetes.io/default-container': 'manager' },
      ports: { health: HEALTH_PORT, webhook: WEBHOOK_PORT },
      metrics: ControllerMetrics.insecure(METRICS_PORT, 'upstream serves plain-HTTP metrics on :8080 and has no setting for authenticated metrics', {
        serviceName: CODEFLARE_NAMES.metricsService,
      }),
      replicas: props.replicas,
      leaderElectionId: leader ? CODEFLARE_NAMES.leaderElectionId : undefined,
      resources: props.resources ?? { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      owns,
      rules,
      clientCalls: CODEFLARE_RAYCLUSTER_CLIENT_CALLS,
      // Reads (and creates if absent) its ConfigMap.
      namespacedRules: [Rbac.verbs('', ['configmaps'], ['create', 'get'])],
      watches,
    });

    // The operator always runs its own certificate rotator: it fills the Secret and patches
    // caBundle into both configurations below.
    this.webhookServer = new WebhookServer(this, 'WebhookServer', {
      controller: this.controller,
      serviceName: CODEFLARE_NAMES.webhookService,
      secretName: CODEFLARE_NAMES.webhookSecret,
      selfManaged: { required: true },
    });
    const w = this.webhookServer;
    const rayRules: WebhookRule[] = [{ apiGroups: ['ray.io'], apiVersions: ['v1'], resources: ['rayclusters'], operations: ['CREATE', 'UPDATE'] }];
    w.addMutatingWebhook(CODEFLARE_NAMES.mutatingConfiguration, { name: 'mraycluster.ray.openshift.ai', path: '/mutate-ray-io-v1-raycluster', rules: rayRules });
    w.addValidatingWebhook(CODEFLARE_NAMES.validatingConfiguration, { name: 'vraycluster.ray.openshift.ai', path: '/validate-ray-io-v1-raycluster', rules: rayRules });
    if (this.appWrapper) {
      const awRules = (operations: WebhookRule['operations']): WebhookRule[] => [{ apiGroups: [APPWRAPPER_GROUP], apiVersions: ['v1beta2'], resources: ['appwrappers'], operations }];
      w.addMutatingWebhook(CODEFLARE_NAMES.mutatingConfiguration, { name: 'mappwrapper.kb.io', path: '/mutate-workload-codeflare-dev-v1beta2-appwrapper', rules: awRules(['CREATE']) });
      w.addValidatingWebhook(CODEFLARE_NAMES.validatingConfiguration, { name: 'vappwrapper.kb.io', path: '/validate-workload-codeflare-dev-v1beta2-appwrapper', rules: awRules(['CREATE', 'UPDATE']) });
      new AppWrapperUserRoles(this, 'AppWrapperRoles', {
        editorRoleName: 'codeflare-operator-appwrapper-editor-role',
        viewerRoleName: 'codeflare-operator-viewer-role',
        labels,
      });
    }
  }

  /** Two AppWrapper controllers (this one and another component's) would fight over every AppWrapper. */
  private checkSingleAppWrapperController(): string[] {
    const name = crdName(appWrapperCrd);
    const others = this.platform.components.filter((c) => c !== this && c.crds.some((d) => d.name === name));
    return others.map((o) =>
      `${this.node.path}: appWrapper is on, and component '${o.componentName}' (${o.constructor.name}) also runs an AppWrapper controller: ` +
      'two controllers would reconcile every AppWrapper; set appWrapper: false here or remove the other component');
  }
}
