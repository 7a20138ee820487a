import { ApiObject, Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { ServiceAccount } from 'cdk8s-plus-28/lib/service-account';
import { Construct } from 'constructs';
import { Component } from './component';
import { CrdDefinition } from './crd';
import { istioSidecarLabel } from './istio';
import { labelSelectorMatches, NetworkPeer, NetworkPolicy, NetworkPolicyIngressRule, NetworkPolicyPort, policyTargetsOf } from './network-policy';
import { reportProblem } from './problems';
import { bindingObject, checkRules, normalizeRules, PolicyRule, Rbac, RbacNeed, rbacNeeds, RbacNeedsProps, ResourceRef, roleObject, RuntimeRole, wildcardReason } from './rbac';
import { checkPorts, mergeResources, resourceProblems } from './resources';
import { declareSecurityExceptions, exceptionsFor, onlyChecks, POD_SECURITY_CHECKS, restrictedContainerSecurityContext, RootFilesystem, SecurityException } from './security';

/** How a controller's metrics endpoint is protected. */
export enum MetricsProtection {
  /** controller-runtime secure metrics: HTTPS, each scrape authenticated (TokenReview) and authorized (SubjectAccessReview). */
  SECURE = 'secure',
  /** A kube-rbac-proxy sidecar does the same in front of a manager bound to 127.0.0.1. */
  RBAC_PROXY = 'kube-rbac-proxy',
  /** Bound to localhost: not reachable from outside the pod, no Service. */
  LOCALHOST = 'localhost',
  /** Plain HTTP through a Service: an explicit opt-out with a reason. */
  INSECURE = 'insecure',
}

export interface MetricsOptions {
  /** Manager flags that configure the endpoint, appended to the manager's args (e.g. ['--metrics-bind-address=:8443']). */
  readonly args?: string[];
  /** Metrics Service name; keep upstream's where monitoring relies on it. @default `${name}-metrics-service` */
  readonly serviceName?: string;
  /** Container and Service port name. @default https (secure, kube-rbac-proxy) or metrics (insecure) */
  readonly portName?: string;
  /** Annotations of the metrics Service (e.g. prometheus.io/scrape). */
  readonly serviceAnnotations?: Record<string, string>;
}

export interface RbacProxyOptions extends MetricsOptions {
  /** The kube-rbac-proxy image (resolved from the component's versions table). */
  readonly image: string;
  /** HTTPS port the proxy serves. @default 8443 */
  readonly port?: number;
  /** Port the manager serves plain metrics on, bound to 127.0.0.1 (pass the flag in args). @default 8080 */
  readonly upstreamPort?: number;
}

/**
 * A controller's metrics endpoint. Metrics are served authenticated and authorized by
 * default; plain HTTP is an explicit, reasoned opt-out.
 */
export class ControllerMetrics {
  /** controller-runtime's secure metrics on `port` (HTTPS with authn/authz). */
  public static secure(port: number, options: MetricsOptions = {}): ControllerMetrics {
    return new ControllerMetrics(MetricsProtection.SECURE, port, options);
  }

  /** A kube-rbac-proxy sidecar serving HTTPS on `port` in front of the manager on 127.0.0.1:upstreamPort. */
  public static rbacProxy(options: RbacProxyOptions): ControllerMetrics {
    return new ControllerMetrics(MetricsProtection.RBAC_PROXY, options.port ?? 8443, options, undefined, options);
  }

  /** Bound to localhost: scraped by nothing outside the pod; no Service. */
  public static localhost(port: number, options: Pick<MetricsOptions, 'args'> = {}): ControllerMetrics {
    return new ControllerMetrics(MetricsProtection.LOCALHOST, port, options);
  }

  /** Plain HTTP metrics through a Service. `reason` says why (shown in the report). */
  public static insecure(port: number, reason: string, options: MetricsOptions = {}): ControllerMetrics {
    if (!reason.trim()) throw new Error('ControllerMetrics.insecure: give the reason metrics are served without authentication');
    return new ControllerMetrics(MetricsProtection.INSECURE, port, options, reason);
  }

  private constructor(
    public readonly protection: MetricsProtection,
    public readonly port: number,
    public readonly options: MetricsOptions,
    public readonly reason?: string,
    public readonly proxy?: RbacProxyOptions,
  ) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`ControllerMetrics: port ${port} must be a whole number from 1 to 65535`);
  }

  /** Whether scrapes are authenticated and authorized. */
  public get authenticated(): boolean {
    return this.protection === MetricsProtection.SECURE || this.protection === MetricsProtection.RBAC_PROXY;
  }

  public get portName(): string {
    return this.options.portName ?? (this.protection === MetricsProtection.INSECURE ? 'metrics' : 'https');
  }
}

/** A ServiceMonitor for a controller's metrics (Controller.addServiceMonitor). */
export interface ControllerServiceMonitorOptions {
  readonly name: string;
  /** Labels of the metrics Service it selects (upstream's selector). */
  readonly selector: Record<string, string>;
  /** Labels of the ServiceMonitor itself (e.g. the `release` a Prometheus selects monitors by). @default none */
  readonly labels?: Record<string, string>;
  /** @default /metrics */
  readonly path?: string;
  /** Scrape interval. @default the Prometheus's */
  readonly interval?: string;
  /** Select Services in the controller's namespace only (namespaceSelector). @default false: the ServiceMonitor's own namespace, as the operator does */
  readonly ownNamespaceOnly?: boolean;
}

export interface ControllerPorts {
  /** Health probe port (/healthz, /readyz). @default 8081 */
  readonly health?: number;
  /** Webhook server port (container port named webhook-server). @default - no webhook server */
  readonly webhook?: number;
  /**
   * Other endpoints the manager serves (e.g. an aggregated API server, a gRPC port), as
   * named container ports that Services can target.
   * @default - none
   */
  readonly extra?: Array<{ readonly name: string; readonly containerPort: number }>;
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

export interface ControllerProps extends RbacNeedsProps {
  /** Name of the Deployment and its ServiceAccount, e.g. kserve-controller-manager. */
  readonly name: string;
  /** The resolved image reference (from the component's versions table). */
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  /** Extra environment (POD_NAMESPACE is always set). */
  readonly env?: Array<Record<string, unknown>>;
  /** Environment from whole ConfigMaps or Secrets (e.g. `[{ configMapRef: { name: 'x-config' } }]`), where the program reads its settings by name. @default none */
  readonly envFrom?: Array<Record<string, unknown>>;
  /** Selector labels (immutable: keep versions out of them). */
  readonly selectorLabels: Record<string, string>;
  /** Extra labels on the Deployment and pods. */
  readonly labels?: Record<string, string>;
  readonly ports?: ControllerPorts;
  /** The metrics endpoint and how it is protected. @default - no metrics endpoint */
  readonly metrics?: ControllerMetrics;
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
  /**
   * The manager container's root filesystem and the writable emptyDirs it gets:
   * `RootFilesystem.readOnly([...paths])` where every path the program writes is known and
   * mounted (upstream sets readOnlyRootFilesystem), `RootFilesystem.asUpstream([...])` where
   * upstream leaves the root writable.
   * @default RootFilesystem.asUpstream(): readOnlyRootFilesystem left out, no emptyDir
   */
  readonly rootFilesystem?: RootFilesystem;
  /** @default 10 */
  readonly terminationGracePeriodSeconds?: number;
  /** Extra pod template annotations. */
  readonly podAnnotations?: Record<string, string>;
  /**
   * Whether its pods ask for an Istio sidecar (`true`) or refuse one (`false`): the pod label
   * sidecar.istio.io/inject, as upstream's pod template carries it (lib/istio.ts).
   * @default - no label: the namespace decides
   */
  readonly istioSidecar?: boolean;
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
  /**
   * Safety rules this pod (Pod Security "restricted", MLP050) or its roles ('*' in RBAC,
   * MLP051) are excused from, each with upstream's reason; listed in REPORT.md.
   * @default - none: the pod passes "restricted" and the rules have no wildcards
   */
  readonly securityExceptions?: SecurityException[];
}

/** The kube-rbac-proxy sidecar: HTTPS with authn/authz in front of the manager's plain metrics on localhost. */
function rbacProxyContainer(p: RbacProxyOptions, portName: string): Record<string, unknown> {
  const port = p.port ?? 8443;
  return {
    name: 'kube-rbac-proxy',
    image: p.image,
    imagePullPolicy: 'IfNotPresent',
    args: [`--secure-listen-address=0.0.0.0:${port}`, `--upstream=http://127.0.0.1:${p.upstreamPort ?? 8080}/`, '--logtostderr=true', '--v=0'],
    ports: [{ name: portName, containerPort: port, protocol: 'TCP' }],
    resources: { requests: { cpu: '5m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
    securityContext: restrictedContainerSecurityContext({ rootFilesystem: RootFilesystem.readOnly() }),
  };
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
  public readonly metrics?: ControllerMetrics;
  /**
   * The NetworkPolicy that admits plain-HTTP metrics only from the platform's monitoring
   * namespace (insecure metrics with the platform's metricsFence on).
   */
  public readonly metricsFence?: NetworkPolicy;
  public readonly webhookPort?: number;
  /** Name of the webhook container port. */
  public readonly webhookPortName: string;
  /** Cluster-wide rules of this controller (owns + rules + grants, clientCalls, accessReviews), normalized. */
  public readonly clusterRules: PolicyRule[];
  public readonly namespacedRules: PolicyRule[];
  /** CRDs it reconciles. */
  public readonly owns: CrdDefinition[];
  /** Resources it watches. */
  public readonly watches: ResourceRef[];
  /** Roles it creates at run time (their rules are part of clusterRules). */
  public readonly grants: RuntimeRole[];
  /** Permissions of its direct client calls (part of clusterRules). */
  public readonly clientCalls: RbacNeed[];
  /** Verbs checked on it by SubjectAccessReview (part of clusterRules). */
  public readonly accessReviews: RbacNeed[];
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
    const needs = rbacNeeds(this.node.path, props, [...this.owns.flatMap((d) => Rbac.own(d.group, d.plural)), ...(props.rules ?? [])]);
    this.grants = needs.grants;
    this.clientCalls = needs.clientCalls;
    this.accessReviews = needs.accessReviews;
    this.webhookPort = props.ports?.webhook;
    this.webhookPortName = props.webhookPortName ?? 'webhook-server';
    if (!Object.keys(props.selectorLabels).length) throw new Error(`${this.node.path}: selectorLabels must not be empty (a Service and the Deployment select pods by them)`);
    for (const [k, v] of Object.entries(props.labels ?? {})) if (k in props.selectorLabels && props.selectorLabels[k] !== v) throw new Error(`${this.node.path}: label ${k}=${v} conflicts with selector label ${k}=${props.selectorLabels[k]}; the pod labels must match the selector (drop it from labels)`);
    let ownReplicas = props.replicas;
    if (ownReplicas !== undefined && (!Number.isInteger(ownReplicas) || ownReplicas < 0)) {
      reportProblem(this, `replicas ${ownReplicas} must be a whole number >= 0 (0 stops the controller)`);
      ownReplicas = undefined;
    }
    // The platform's customization (controllers['<component>/<name>']) wins over the component's props.
    const target = `${scope.componentName}/${props.name}`;
    const custom = scope.platform.customization.controller(scope.componentName, props.name);
    const replicas = custom?.replicas ?? ownReplicas;
    if ((replicas ?? 1) > 1 && !props.leaderElectionId && !props.stateless) {
      reportProblem(this, custom?.replicas !== undefined
        ? `customization controllers['${target}'].replicas ${replicas}: the controller has no leader election, so several managers would reconcile at once; use replicas: 1 (or 0)`
        : `replicas ${props.replicas} without leaderElectionId: several managers would reconcile at once; set leaderElectionId or replicas: 1`);
    }

    this.metrics = props.metrics;
    // Authenticated metrics check each scrape's token and its permission on /metrics.
    const metricsRules = props.metrics?.authenticated
      ? [Rbac.verbs('authentication.k8s.io', ['tokenreviews'], ['create']), Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create'])]
      : [];
    // What it grants, calls directly and is reviewed for is held cluster-wide (rbacNeeds).
    this.clusterRules = normalizeRules([...this.owns.flatMap((d) => Rbac.own(d.group, d.plural)), ...metricsRules, ...(props.rules ?? []), ...needs.rules]);
    const leaseRules: PolicyRule[] = props.leaderElectionId
      ? [
        Rbac.manage('coordination.k8s.io', 'leases'),
        Rbac.verbs('', ['events'], ['create', 'patch']),
      ]
      : [];
    this.namespacedRules = normalizeRules([...leaseRules, ...(props.namespacedRules ?? [])]);
    onlyChecks(this.node.path, props.securityExceptions, [...POD_SECURITY_CHECKS, 'wildcardRbac']);
    const wildcards = wildcardReason(props.securityExceptions);
    checkRules(this.node.path, [...this.clusterRules, ...this.namespacedRules], wildcards);

    const labels = { ...props.selectorLabels, ...(props.labels ?? {}) };
    this.serviceAccount = new ServiceAccount(this, 'ServiceAccount', {
      metadata: { name: sa, namespace: ns, labels },
      automountToken: true,
    });

    const self = [{ name: sa, namespace: ns }];
    if (this.clusterRules.length) {
      roleObject(this, 'ClusterRole', { name: `${props.name}-role`, labels, rules: this.clusterRules, securityExceptions: exceptionsFor(props.securityExceptions, ['wildcardRbac']) });
      bindingObject(this, 'ClusterRoleBinding', { name: `${props.name}-rolebinding`, labels, roleRef: { kind: 'ClusterRole', name: `${props.name}-role` }, serviceAccounts: self });
    }
    if (this.namespacedRules.length) {
      roleObject(this, 'Role', { name: `${props.name}-role`, namespace: ns, labels, rules: this.namespacedRules, securityExceptions: exceptionsFor(props.securityExceptions, ['wildcardRbac']) });
      bindingObject(this, 'RoleBinding', { name: `${props.name}-rolebinding`, namespace: ns, labels, roleRef: { kind: 'Role', name: `${props.name}-role` }, serviceAccounts: self });
    }
    if (props.metrics?.authenticated) {
      // What a scraper (e.g. Prometheus) is bound to, to be allowed through.
      roleObject(this, 'MetricsReaderClusterRole', { name: `${props.name}-metrics-reader`, labels, rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] });
    }

    const m = props.metrics;
    const health = props.ports?.health ?? 8081;
    const probes = props.probes === false ? undefined : { livenessPath: '/healthz', readinessPath: '/readyz', ...(props.probes ?? {}) };
    const ports: Array<Record<string, unknown>> = probes ? [{ name: 'health', containerPort: health, protocol: 'TCP' }] : [];
    if (m && m.protection !== MetricsProtection.LOCALHOST && m.protection !== MetricsProtection.RBAC_PROXY) {
      ports.push({ name: m.portName, containerPort: m.port, protocol: 'TCP' });
    }
    if (props.ports?.webhook !== undefined) checkPorts(this.node.path, [{ name: this.webhookPortName, containerPort: props.ports.webhook }]);
    if (props.ports?.webhook) ports.push({ name: this.webhookPortName, containerPort: props.ports.webhook, protocol: 'TCP' });
    for (const e of props.ports?.extra ?? []) ports.push({ name: e.name, containerPort: e.containerPort, protocol: 'TCP' });
    for (const p of ports) {
      if (!/^[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?$/.test(String(p.name))) throw new Error(`${this.node.path}: port name '${p.name}' must be a lower-case IANA service name of at most 15 characters`);
    }
    if (new Set(ports.map((p) => p.containerPort)).size !== ports.length) {
      throw new Error(`${this.node.path}: container ports ${ports.map((p) => `${p.name}=${p.containerPort}`).join(', ')} reuse a port number; give each endpoint its own port`);
    }
    checkPorts(this.node.path, ports as Array<{ name: unknown; containerPort: number }>);
    const resources = mergeResources(props.resources ?? DEFAULT_RESOURCES, custom?.resources)!;
    const resourceIssues = resourceProblems(resources, custom?.resources ? `customization controllers['${target}'].resources merged over the component's` : 'resources');
    if (resourceIssues.length) throw new Error(`${this.node.path}: ${resourceIssues.join('; ')}`);
    const env = [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, ...(props.env ?? [])];
    const rootFs = props.rootFilesystem ?? RootFilesystem.asUpstream();
    this.extraVolumes.push(...rootFs.volumes(this.node.path), ...(props.volumes ?? []));
    this.extraMounts.push(...rootFs.mounts(), ...(props.volumeMounts ?? []));

    // L1 binding on purpose: cdk8s-plus's Deployment adds a construct-path selector label
    // (selectors are immutable, so a rename would break upgrades) and pod defaults we do
    // not want; here every field is ours.
    const podLabels = props.istioSidecar === undefined ? labels : { ...labels, ...istioSidecarLabel(props.istioSidecar) };
    this.deployment = new ApiObject(this, 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: props.name, namespace: ns, labels },
      spec: {
        replicas: replicas ?? 1,
        selector: { matchLabels: props.selectorLabels },
        template: {
          metadata: { labels: podLabels, annotations: props.podAnnotations && Object.keys(props.podAnnotations).length ? props.podAnnotations : undefined },
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
                args: props.args || m?.options.args ? [...(props.args ?? []), ...(m?.options.args ?? [])] : undefined,
                env,
                envFrom: props.envFrom?.length ? props.envFrom : undefined,
                ports,
                livenessProbe: probes && { httpGet: { path: probes.livenessPath, port: 'health' }, initialDelaySeconds: 15, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 5 },
                readinessProbe: probes && { httpGet: { path: probes.readinessPath, port: 'health' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 5 },
                resources,
                securityContext: restrictedContainerSecurityContext({ rootFilesystem: rootFs, runAsUser: props.runAsUser }),
                volumeMounts: Lazy.any({ produce: () => (this.extraMounts.length ? this.extraMounts : undefined) }),
              },
              ...(m?.proxy ? [rbacProxyContainer(m.proxy, m.portName)] : []),
              ...(props.sidecars ?? []),
            ],
            volumes: Lazy.any({ produce: () => (this.extraVolumes.length ? this.extraVolumes : undefined) }),
          },
        },
      },
    });
    declareSecurityExceptions(this.deployment, exceptionsFor(props.securityExceptions, POD_SECURITY_CHECKS));

    if (m && m.protection !== MetricsProtection.LOCALHOST) {
      const annotations = m.options.serviceAnnotations;
      this.metricsService = new k8s.KubeService(this, 'MetricsService', {
        metadata: { name: m.options.serviceName ?? `${props.name}-metrics-service`, namespace: ns, labels, annotations: annotations && Object.keys(annotations).length ? annotations : undefined },
        spec: {
          selector: props.selectorLabels,
          ports: [{ name: m.portName, port: m.port, targetPort: k8s.IntOrString.fromString(m.portName), protocol: 'TCP' }],
        },
      });
    }

    const fence = scope.platform.metricsFence;
    if (m?.protection === MetricsProtection.INSECURE && fence.enabled) {
      this.metricsFence = new NetworkPolicy(this, 'MetricsFence', {
        name: `${props.name}-metrics-fence`,
        targets: [this],
        labels,
        ingress: () => this.fenceRules(m.port, fence.monitoringNamespace),
      });
    }
  }

  /**
   * A Prometheus Operator ServiceMonitor that scrapes this controller's metrics Service:
   * the port by name, https with the scraper's service account token where the metrics are
   * authenticated (the certificate is the controller's self-signed one, not verified),
   * plain HTTP otherwise. Emitted only where the platform serves the ServiceMonitor kind
   * (the PROMETHEUS_OPERATOR prerequisite, or a component that provides it).
   */
  public addServiceMonitor(options: ControllerServiceMonitorOptions): ApiObject {
    const m = this.metrics;
    if (!m || !this.metricsService) {
      throw new Error(`${this.node.path}: addServiceMonitor: controller '${this.name}' has no metrics Service to scrape; give it metrics (ControllerMetrics.secure, rbacProxy or insecure)`);
    }
    const endpoint: Record<string, unknown> = {
      path: options.path ?? '/metrics',
      port: m.portName,
      ...(m.authenticated ? { scheme: 'https' } : {}),
      ...(options.interval ? { interval: options.interval } : {}),
      ...(m.authenticated ? { bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', tlsConfig: { insecureSkipVerify: true } } : {}),
    };
    const monitor = new ApiObject(this, `ServiceMonitor-${options.name}`, {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { name: options.name, namespace: this.namespace, ...(options.labels ? { labels: options.labels } : {}) },
      spec: {
        endpoints: [endpoint],
        ...(options.ownNamespaceOnly ? { namespaceSelector: { matchNames: [this.namespace] } } : {}),
        selector: { matchLabels: { ...options.selector } },
      },
    });
    const component = this.node.scope as Component;
    component.omitUnless(monitor, () => component.platform.servesKind('monitoring.coreos.com', 'ServiceMonitor'));
    return monitor;
  }

  /**
   * The fence's ingress: the metrics port from the monitoring namespace only. A pod that a
   * NetworkPolicy selects is closed to everything no policy admits, so unless another policy
   * of the component selects this controller (and says what its other ports admit), the
   * fence keeps every other declared container port (webhooks, health, APIs) open as before.
   */
  private fenceRules(metricsPort: number, monitoringNamespace: string): NetworkPolicyIngressRule[] {
    const rules: NetworkPolicyIngressRule[] = [{ from: [NetworkPeer.namespace(monitoringNamespace)], ports: [metricsPort] }];
    const component = this.node.scope as Component;
    const pod = this.deployment.toJson().spec.template;
    const others = component.node.findAll().some((c) => {
      if (c instanceof NetworkPolicy) return c !== this.metricsFence && c.emitted && c.targets.some((t) => !t.runtimePods && t.name === this.name);
      // A NetworkPolicy written as a plain object (not through lib/network-policy.ts).
      return c instanceof ApiObject && c.kind === 'NetworkPolicy' && !policyTargetsOf(c) && labelSelectorMatches(c.toJson().spec?.podSelector, pod.metadata?.labels ?? {});
    });
    if (others) return rules;
    const spec = pod.spec;
    const ports: NetworkPolicyPort[] = [];
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      for (const p of c.ports ?? []) {
        if (p.containerPort !== metricsPort && !ports.some((x) => x.port === p.containerPort && x.protocol === (p.protocol ?? 'TCP'))) ports.push({ port: p.containerPort, protocol: p.protocol ?? 'TCP' });
      }
    }
    ports.sort((a, b) => Number(a.port) - Number(b.port));
    return ports.length ? [...rules, { ports }] : rules;
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

  /** Mounts a writable emptyDir into the manager container (files the process writes itself). */
  public mountEmptyDir(volumeName: string, mountPath: string): void {
    this.extraVolumes.push({ name: volumeName, emptyDir: {} });
    this.extraMounts.push({ name: volumeName, mountPath });
  }
}
