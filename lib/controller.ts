import { ApiObject, Lazy } from 'cdk8s';
import { k8s, ServiceAccount } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Component } from './component';
import { CrdDefinition } from './crd';
import { checkRules, normalizeRules, PolicyRule, Rbac, ResourceRef } from './rbac';

export interface ControllerPorts {
  /** Metrics endpoint port (served by the manager). @default - no metrics Service */
  readonly metrics?: number;
  /** Name of the metrics container port. @default metrics */
  readonly metricsName?: string;
  /** Health probe port (/healthz, /readyz). @default 8081 */
  readonly health?: number;
  /** Webhook server port (container port named webhook-server). @default - no webhook server */
  readonly webhook?: number;
}

/** HTTP health probes of the manager container, on its health port. */
export interface ControllerProbes {
  /** @default /healthz */
  readonly livenessPath?: string;
  /** @default /readyz */
  readonly readinessPath?: string;
}

export interface ControllerResources {
  readonly requests?: Record<string, string>;
  readonly limits?: Record<string, string>;
}

export interface ControllerProps {
  /** Name of the Deployment and its ServiceAccount, e.g. kserve-controller-manager. */
  readonly name: string;
  /** The resolved image reference (from the component's versions table). */
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  /** Extra environment (POD_NAMESPACE is always set). */
  readonly env?: Array<Record<string, unknown>>;
  /** Selector labels (immutable: keep versions out of them). */
  readonly selectorLabels: Record<string, string>;
  /** Extra labels on the Deployment and pods. */
  readonly labels?: Record<string, string>;
  readonly ports?: ControllerPorts;
  /** @default 1 */
  readonly replicas?: number;
  /** @default requests 100m/200Mi, limits 500m/512Mi */
  readonly resources?: ControllerResources;
  /** Lease name for leader election; adds the leases Role in the controller namespace. */
  readonly leaderElectionId?: string;
  /** CRDs it reconciles: full control plus status and finalizers. */
  readonly owns?: CrdDefinition[];
  /**
   * Resources it watches (get, list, watch), e.g. kinds other components provide. Checked
   * against its RBAC at synth (MLP030): grant them through `rules`.
   */
  readonly watches?: ResourceRef[];
  /** Other cluster-wide permissions, as intent (Rbac.read / Rbac.manage / Rbac.verbs). */
  readonly rules?: PolicyRule[];
  /** Permissions only in the controller's own namespace. */
  readonly namespacedRules?: PolicyRule[];
  readonly volumes?: Array<Record<string, unknown>>;
  readonly volumeMounts?: Array<Record<string, unknown>>;
  /** @default 10 */
  readonly terminationGracePeriodSeconds?: number;
  /** Extra pod template annotations. */
  readonly podAnnotations?: Record<string, string>;
  /** Name of its ServiceAccount, where upstream names it apart from the Deployment. @default name */
  readonly serviceAccountName?: string;
  /**
   * The process only serves requests (e.g. an admission webhook server) and reconciles
   * nothing: several replicas need no leader election.
   * @default false
   */
  readonly stateless?: boolean;
  /** Name of the manager container. @default manager */
  readonly containerName?: string;
  /**
   * Health probes on the health port; `false` for a server that has no health endpoint
   * (then no health port is declared either).
   * @default { livenessPath: '/healthz', readinessPath: '/readyz' }
   */
  readonly probes?: ControllerProbes | false;
  /** Name of the webhook container port (the webhook Service targets it). @default webhook-server */
  readonly webhookPortName?: string;
  /** runAsUser of the manager container, where upstream pins one. @default - the image's user */
  readonly runAsUser?: number;
  /**
   * Other containers of the pod (e.g. an API server next to the manager), complete with
   * their ports, probes and a restricted security context; they share the ServiceAccount.
   */
  readonly sidecars?: Array<Record<string, unknown>>;
}

const DEFAULT_RESOURCES: ControllerResources = {
  requests: { cpu: '100m', memory: '200Mi' },
  limits: { cpu: '500m', memory: '512Mi' },
};

/**
 * A controller manager: ServiceAccount, Deployment that passes Pod Security "restricted",
 * least-privilege RBAC derived from what it owns and manages, leader election Role, and
 * a metrics Service.
 */
export class Controller extends Construct {
  public readonly name: string;
  /** Name of its ServiceAccount. */
  public readonly serviceAccountName: string;
  public readonly namespace: string;
  public readonly selectorLabels: Record<string, string>;
  public readonly serviceAccount: ServiceAccount;
  public readonly deployment: ApiObject;
  public readonly metricsService?: ApiObject;
  public readonly webhookPort?: number;
  /** Name of the webhook container port. */
  public readonly webhookPortName: string;
  /** Cluster-wide rules of this controller (owns + rules), normalized. */
  public readonly clusterRules: PolicyRule[];
  public readonly namespacedRules: PolicyRule[];
  /** CRDs it reconciles. */
  public readonly owns: CrdDefinition[];
  /** Resources it watches. */
  public readonly watches: ResourceRef[];
  private readonly extraVolumes: Array<Record<string, unknown>> = [];
  private readonly extraMounts: Array<Record<string, unknown>> = [];

  constructor(scope: Component, id: string, props: ControllerProps) {
    super(scope, id);
    const ns = scope.namespaceName;
    this.name = props.name;
    this.serviceAccountName = props.serviceAccountName ?? props.name;
    const sa = this.serviceAccountName;
    this.namespace = ns;
    this.selectorLabels = props.selectorLabels;
    this.owns = props.owns ?? [];
    this.watches = props.watches ?? [];
    this.webhookPort = props.ports?.webhook;
    this.webhookPortName = props.webhookPortName ?? 'webhook-server';
    if (!Object.keys(props.selectorLabels).length) throw new Error(`${this.node.path}: selectorLabels must not be empty (a Service and the Deployment select pods by them)`);
    for (const [k, v] of Object.entries(props.labels ?? {})) if (k in props.selectorLabels && props.selectorLabels[k] !== v) throw new Error(`${this.node.path}: label ${k}=${v} conflicts with selector label ${k}=${props.selectorLabels[k]}; the pod labels must match the selector (drop it from labels)`);
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 0)) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 0`);
    }
    if ((props.replicas ?? 1) > 1 && !props.leaderElectionId && !props.stateless) {
      throw new Error(`${this.node.path}: replicas ${props.replicas} without leaderElectionId: several managers would reconcile at once; set leaderElectionId or replicas: 1`);
    }

    this.clusterRules = normalizeRules([...this.owns.flatMap((d) => Rbac.own(d.group, d.plural)), ...(props.rules ?? [])]);
    const leaseRules: PolicyRule[] = props.leaderElectionId
      ? [
        Rbac.manage('coordination.k8s.io', 'leases'),
        Rbac.verbs('', ['events'], ['create', 'patch']),
      ]
      : [];
    this.namespacedRules = normalizeRules([...leaseRules, ...(props.namespacedRules ?? [])]);
    checkRules(this.node.path, [...this.clusterRules, ...this.namespacedRules]);

    const labels = { ...props.selectorLabels, ...(props.labels ?? {}) };
    this.serviceAccount = new ServiceAccount(this, 'ServiceAccount', {
      metadata: { name: sa, namespace: ns, labels },
      automountToken: true,
    });

    if (this.clusterRules.length) {
      new k8s.KubeClusterRole(this, 'ClusterRole', { metadata: { name: `${props.name}-role`, labels }, rules: this.clusterRules as any });
      new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
        metadata: { name: `${props.name}-rolebinding`, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${props.name}-role` },
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
      });
    }
    if (this.namespacedRules.length) {
      new k8s.KubeRole(this, 'Role', { metadata: { name: `${props.name}-role`, namespace: ns, labels }, rules: this.namespacedRules as any });
      new k8s.KubeRoleBinding(this, 'RoleBinding', {
        metadata: { name: `${props.name}-rolebinding`, namespace: ns, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${props.name}-role` },
        subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
      });
    }

    const health = props.ports?.health ?? 8081;
    const probes = props.probes === false ? undefined : { livenessPath: '/healthz', readinessPath: '/readyz', ...(props.probes ?? {}) };
    const ports: Array<Record<string, unknown>> = probes ? [{ name: 'health', containerPort: health, protocol: 'TCP' }] : [];
    if (props.ports?.metrics) ports.push({ name: props.ports.metricsName ?? 'metrics', containerPort: props.ports.metrics, protocol: 'TCP' });
    if (props.ports?.webhook) ports.push({ name: this.webhookPortName, containerPort: props.ports.webhook, protocol: 'TCP' });
    const resources = props.resources ?? DEFAULT_RESOURCES;
    const env = [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, ...(props.env ?? [])];
    this.extraVolumes.push(...(props.volumes ?? []));
    this.extraMounts.push(...(props.volumeMounts ?? []));

    // L1 binding on purpose: cdk8s-plus's Deployment adds a construct-path selector label
    // (selectors are immutable, so a rename would break upgrades) and pod defaults we do
    // not want; here every field is ours.
    this.deployment = new ApiObject(this, 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: props.name, namespace: ns, labels },
      spec: {
        replicas: props.replicas ?? 1,
        selector: { matchLabels: props.selectorLabels },
        template: {
          metadata: { labels, annotations: props.podAnnotations && Object.keys(props.podAnnotations).length ? props.podAnnotations : undefined },
          spec: {
            serviceAccountName: sa,
            automountServiceAccountToken: true,
            terminationGracePeriodSeconds: props.terminationGracePeriodSeconds ?? 10,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: props.containerName ?? 'manager',
                image: props.image,
                imagePullPolicy: 'IfNotPresent',
                command: props.command,
                args: props.args,
                env,
                ports,
                livenessProbe: probes && { httpGet: { path: probes.livenessPath, port: 'health' }, initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 5 },
                readinessProbe: probes && { httpGet: { path: probes.readinessPath, port: 'health' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 5 },
                resources,
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ['ALL'] },
                  privileged: false,
                  readOnlyRootFilesystem: true,
                  runAsNonRoot: true,
                  runAsUser: props.runAsUser,
                },
                volumeMounts: Lazy.any({ produce: () => (this.extraMounts.length ? this.extraMounts : undefined) }),
              },
              ...(props.sidecars ?? []),
            ],
            volumes: Lazy.any({ produce: () => (this.extraVolumes.length ? this.extraVolumes : undefined) }),
          },
        },
      },
    });

    if (props.ports?.metrics) {
      this.metricsService = new k8s.KubeService(this, 'MetricsService', {
        metadata: { name: `${props.name}-metrics-service`, namespace: ns, labels },
        spec: {
          selector: props.selectorLabels,
          ports: [{ name: props.ports.metricsName ?? 'metrics', port: props.ports.metrics, targetPort: k8s.IntOrString.fromString(props.ports.metricsName ?? 'metrics'), protocol: 'TCP' }],
        },
      });
    }
  }

  /** Mounts a ConfigMap into the manager container, read-only (e.g. its configuration file). */
  public mountConfigMap(volumeName: string, configMapName: string, mountPath: string): void {
    this.extraVolumes.push({ name: volumeName, configMap: { name: configMapName } });
    this.extraMounts.push({ name: volumeName, mountPath, readOnly: true });
  }

  /** Mounts a Secret into the manager container (e.g. the webhook serving certificate). */
  public mountSecret(volumeName: string, secretName: string, mountPath: string): void {
    this.extraVolumes.push({ name: volumeName, secret: { secretName, defaultMode: 420 } });
    this.extraMounts.push({ name: volumeName, mountPath, readOnly: true });
  }
}
