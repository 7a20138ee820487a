import { CRDS } from './crds';
import { KUBERAY_PARITY_DEVIATIONS } from './parity';
import { KUBERAY_OPERATOR_RULES, KUBERAY_RUNTIME_ROLES } from './rbac';
import { KUBERAY_IMAGES, KUBERAY_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { CustomResourceDefinition } from '../../lib/crd';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { RootFilesystem } from '../../lib/security';
import { UserRoles } from '../../lib/user-roles';
import { WebhookServer } from '../../lib/webhook-server';

/** Feature gates of the KubeRay operator (--feature-gates) this component knows about. */
export enum KubeRayFeatureGate {
  /** Conditions in RayCluster status (upstream's manifest turns it on). */
  RAY_CLUSTER_STATUS_CONDITIONS = 'RayClusterStatusConditions',
  /** The RayCronJob controller (new in v1.7). */
  RAY_CRON_JOB = 'RayCronJob',
  /** RayService upgrades through Gateway API routes (needs Gateway and HTTPRoute). */
  RAY_SERVICE_INCREMENTAL_UPGRADE = 'RayServiceIncrementalUpgrade',
  /** NetworkPolicies from RayCluster spec.networkPolicy. */
  RAY_CLUSTER_NETWORK_ISOLATION = 'RayClusterNetworkIsolation',
  /** Deletion rules in RayJob spec.deletionStrategy. */
  RAY_JOB_DELETION_POLICY = 'RayJobDeletionPolicy',
  /** mTLS between Ray nodes (RayCluster spec.tlsOptions), with certificates from cert-manager. */
  RAY_CLUSTER_MTLS = 'RayClusterMTLS',
}

export interface KubeRayProps extends ComponentProps {
  /**
   * Serve the validating webhooks for RayCluster, RayJob and RayService. Upstream ships
   * them only in its default-with-webhooks overlay; the default install and the Helm chart
   * leave them out.
   * @default false
   */
  readonly webhooks?: boolean;
  /**
   * Feature gates, merged over the defaults. Gates not in KubeRayFeatureGate are passed
   * through as given (KubeRay rejects unknown ones at start).
   * @default { RayClusterStatusConditions: true, RayCronJob: true }
   */
  readonly featureGates?: Partial<Record<KubeRayFeatureGate | string, boolean>>;
  /**
   * Namespaces whose Ray objects the operator reconciles (--watch-namespace).
   * @default - every namespace
   */
  readonly watchNamespaces?: string[];
  /** Operator replicas (leader election keeps one active). @default 1 */
  readonly replicas?: number;
  /** @default requests and limits 100m CPU, 512Mi memory (upstream's) */
  readonly resources?: ControllerResources;
}

/**
 * Upstream's manifest sets RayClusterStatusConditions. RayCronJob is on so that the CRD this
 * component installs is reconciled: v1.7.0 starts the RayCronJob controller only behind its
 * gate (whether the gate defaults on in v1.7.0 is not confirmed, so it is set explicitly).
 */
const DEFAULT_GATES: Record<string, boolean> = {
  [KubeRayFeatureGate.RAY_CLUSTER_STATUS_CONDITIONS]: true,
  [KubeRayFeatureGate.RAY_CRON_JOB]: true,
};

/** The --feature-gates value: gates sorted by name. */
function gateArg(gates: Record<string, boolean>): string {
  return Object.entries(gates).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(',');
}

const SELECTOR = { 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/component': 'kuberay-operator' };
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * KubeRay v1.7.0: the ray.io CRDs (RayCluster, RayJob and RayService at v1 with their
 * deprecated v1alpha1, and RayCronJob), the operator, its RBAC and user roles, and the
 * opt-in validating webhooks.
 */
export class KubeRay extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return KUBERAY_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = KUBERAY_IMAGES;
  public readonly operator: Controller;
  /** The webhook server, when `webhooks` is on. */
  public readonly webhookServer?: WebhookServer;
  /** The effective feature gates. */
  public readonly featureGates: Readonly<Record<string, boolean>>;

  constructor(scope: Platform, id: string, props: KubeRayProps = {}) {
    super(scope, id, props.namespace ?? 'ray-system', props);
    const gates: Record<string, boolean> = { ...DEFAULT_GATES };
    for (const [gate, on] of Object.entries(props.featureGates ?? {})) if (on !== undefined) gates[gate] = on;
    for (const [gate, on] of Object.entries(gates)) {
      if (!/^[A-Z][A-Za-z0-9]*$/.test(gate) || typeof on !== 'boolean') {
        throw new Error(`${this.node.path}: featureGates: '${gate}: ${on}' is not a feature gate; use UpperCamelCase names with true or false, e.g. { ${KubeRayFeatureGate.RAY_CRON_JOB}: true }`);
      }
    }
    this.featureGates = gates;
    this.declareParityDeviations(KUBERAY_PARITY_DEVIATIONS);
    for (const ns of props.watchNamespaces ?? []) {
      if (!DNS_LABEL.test(ns) || ns.length > 63) {
        throw new Error(`${this.node.path}: watchNamespaces: '${ns}' is not a namespace name; list namespace names, or leave watchNamespaces unset to watch every namespace`);
      }
    }
    if (props.watchNamespaces && !props.watchNamespaces.length) {
      throw new Error(`${this.node.path}: watchNamespaces is empty; leave it unset to watch every namespace, or list the namespaces`);
    }
    const webhooks = props.webhooks ?? false;
    this.addNamespace();

    const crds = new Map<string, CustomResourceDefinition>(CRDS.map((d) => [d.kind, this.addCrd(d)]));

    const args = [`--feature-gates=${gateArg(gates)}`, '--health-probe-bind-address=:8082'];
    if (props.watchNamespaces) args.push(`--watch-namespace=${props.watchNamespaces.join(',')}`);

    this.operator = new Controller(this, 'Operator', {
      // Upstream's manager runs with a read-only root filesystem and writes nowhere else.
      rootFilesystem: RootFilesystem.readOnly(),
      name: 'kuberay-operator',
      // Upstream's container name: kubectl logs -c and users' patches refer to it.
      containerName: 'kuberay-operator',
      image: this.image('operator'),
      command: ['/manager'],
      args,
      env: webhooks ? [{ name: 'ENABLE_WEBHOOKS', value: 'true' }] : [],
      selectorLabels: SELECTOR,
      ports: { health: 8082, webhook: webhooks ? 9443 : undefined },
      // KubeRay v1.7.0 binds controller-runtime's metrics server without secure serving and
      // offers no flag to turn it on; the Service keeps upstream's name and port name.
      metrics: ControllerMetrics.insecure(8080, 'KubeRay v1.7.0 serves its metrics over plain HTTP only (no secure-serving flag)', {
        args: ['--metrics-addr=:8080'],
        serviceName: 'kuberay-operator',
        portName: 'monitoring-port',
      }),
      replicas: props.replicas,
      leaderElectionId: 'ray-operator-leader',
      resources: props.resources ?? { requests: { cpu: '100m', memory: '512Mi' }, limits: { cpu: '100m', memory: '512Mi' } },
      owns: [...crds.values()].map((c) => c.definition),
      rules: KUBERAY_OPERATOR_RULES,
      grants: KUBERAY_RUNTIME_ROLES,
      watches: [
        { group: '', resource: 'pods' },
        { group: '', resource: 'services' },
        { group: '', resource: 'secrets' },
        { group: '', resource: 'serviceaccounts' },
        { group: 'batch', resource: 'jobs' },
        { group: 'networking.k8s.io', resource: 'ingresses' },
        { group: 'networking.k8s.io', resource: 'networkpolicies' },
        { group: 'rbac.authorization.k8s.io', resource: 'roles' },
        { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
        { group: 'discovery.k8s.io', resource: 'endpointslices' },
      ],
    });

    if (gates[KubeRayFeatureGate.RAY_SERVICE_INCREMENTAL_UPGRADE]) {
      for (const kind of ['Gateway', 'HTTPRoute']) {
        this.require({ group: 'gateway.networking.k8s.io', kind, reason: `RayService incremental upgrades create ${kind}s (feature gate ${KubeRayFeatureGate.RAY_SERVICE_INCREMENTAL_UPGRADE})` });
      }
    }

    if (gates[KubeRayFeatureGate.RAY_CLUSTER_MTLS]) {
      for (const kind of ['Certificate', 'Issuer']) {
        this.require({ group: 'cert-manager.io', kind, reason: `Ray cluster mTLS creates cert-manager ${kind}s (feature gate ${KubeRayFeatureGate.RAY_CLUSTER_MTLS})` });
      }
    }

    if (webhooks) {
      // Upstream's overlay names these webhook-service / webhook-server-cert /
      // validating-webhook-configuration, kubebuilder's defaults that other operators share
      // in one cluster; the kuberay- prefix is the one the Open Data Hub fork uses.
      // No `selfManaged`: KubeRay has no certificate rotator; it reads the pair a provider
      // writes (cert-manager upstream, OpenShift's service CA in the Open Data Hub fork).
      const server = new WebhookServer(this, 'WebhookServer', {
        controller: this.operator,
        serviceName: 'kuberay-webhook-service',
        secretName: 'kuberay-webhook-server-cert',
        certificateName: 'kuberay-serving-cert',
      });
      for (const [kind, plural] of [['raycluster', 'rayclusters'], ['rayjob', 'rayjobs'], ['rayservice', 'rayservices']]) {
        server.addValidatingWebhook('kuberay-validating-webhook-configuration', {
          name: `v${kind}.kb.io`,
          path: `/validate-ray-io-v1-${kind}`,
          rules: [{ apiGroups: ['ray.io'], apiVersions: ['v1'], resources: [plural], operations: ['CREATE', 'UPDATE'] }],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        });
      }
      this.webhookServer = server;
    }

    new UserRoles(this, 'UserRoles', { crds: ['RayJob', 'RayService', 'RayCronJob'].map((k) => crds.get(k)!.definition) });
  }
}
