import { ApiObject, Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct, IConstruct } from 'constructs';
import { Component } from './component';
import { ControllerCustomization } from './customization';
import { istioSidecarLabel } from './istio';
import { reportProblem } from './problems';
import { bindingObject, checkRules, normalizeRules, PolicyRule, RbacNeed, rbacNeeds, RbacNeedsProps, roleObject, RuntimeRole, wildcardReason } from './rbac';
import { checkPorts, ContainerResources, mergeResources, resourceProblems } from './resources';
import { declareSecurityExceptions, exceptionsFor, onlyChecks, POD_SECURITY_CHECKS, restrictedContainerSecurityContext, RootFilesystem, SecurityException } from './security';

/** A container probe: an HTTP GET, a TCP connect or a gRPC health check on a named or numbered port. */
export interface WorkloadProbe {
  readonly httpGet?: { readonly path: string; readonly port: string | number; readonly scheme?: 'HTTP' | 'HTTPS' };
  readonly tcpSocket?: { readonly port: string | number };
  readonly grpc?: { readonly port: number };
  readonly exec?: { readonly command: string[] };
  /** @default 5 */
  readonly initialDelaySeconds?: number;
  /** @default 10 */
  readonly periodSeconds?: number;
  /** @default 5 */
  readonly timeoutSeconds?: number;
  /** @default 3 */
  readonly failureThreshold?: number;
}

/** A PersistentVolumeClaim the workload creates and mounts. */
export interface WorkloadVolumeClaim {
  /** Claim name. */
  readonly name: string;
  /** Requested size, e.g. 20Gi. */
  readonly size: string;
  readonly mountPath: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

export interface WorkloadProps extends RbacNeedsProps {
  /** Name of the Deployment, its ServiceAccount and (by default) its Service. */
  readonly name: string;
  /** The resolved image (from the component's versions table). */
  readonly image: string;
  /** @default the workload's name */
  readonly containerName?: string;
  /** Name of its ServiceAccount (keep upstream's where other objects bind to it). @default the workload's name */
  readonly serviceAccountName?: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly env?: Array<Record<string, unknown>>;
  readonly envFrom?: Array<Record<string, unknown>>;
  /** Selector labels (immutable: keep versions out of them). */
  readonly selectorLabels: Record<string, string>;
  readonly labels?: Record<string, string>;
  /** Named container ports. */
  readonly ports?: Array<{ readonly name: string; readonly containerPort: number }>;
  /** Port it serves admission webhooks on, for a WebhookServer. @default - none */
  readonly webhookPort?: number;
  /** Name of that container port. @default webhook-server */
  readonly webhookPortName?: string;
  /**
   * The Service in front of the pods: name (default the workload's name) and ports, each
   * targeting a named container port. `false`: no Service.
   * @default - a Service with every container port
   */
  readonly service?: false | { readonly name?: string; readonly ports?: Array<{ readonly name: string; readonly port: number; readonly targetPort: string }> };
  readonly livenessProbe?: WorkloadProbe;
  readonly readinessProbe?: WorkloadProbe;
  /** Holds liveness and readiness back until it succeeds (slow or self-initializing servers). @default - none */
  readonly startupProbe?: WorkloadProbe;
  /** Command the kubelet runs in the container right after it starts (lifecycle.postStart.exec). @default - none */
  readonly postStart?: string[];
  /** PriorityClass of its pods (the class itself is the component's to emit). @default - the cluster's default */
  readonly priorityClassName?: string;
  /** @default 1 */
  readonly replicas?: number;
  /** @default requests 10m/64Mi, no limits */
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
  /** Cluster-wide permissions of its ServiceAccount (ClusterRole `<name>-role`). */
  readonly rules?: PolicyRule[];
  /** Permissions in its own namespace only (Role `<name>-role`). */
  readonly namespacedRules?: PolicyRule[];
  /** Whether its pods get an API token. @default true when it has rules, else false */
  readonly automountToken?: boolean;
  /** Numeric user and group the container runs as (restricted needs non-root). @default - the image's (must be non-root) */
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly fsGroup?: number;
  /**
   * The container's root filesystem and the writable emptyDirs it gets:
   * `RootFilesystem.readOnly([...paths])` where every path the program writes is known and
   * mounted, `RootFilesystem.asUpstream([...])` where upstream leaves the root writable.
   * @default RootFilesystem.asUpstream(): readOnlyRootFilesystem left out, no emptyDir
   */
  readonly rootFilesystem?: RootFilesystem;
  /** Claims to create and mount; the Deployment then uses the Recreate strategy. */
  readonly volumeClaims?: WorkloadVolumeClaim[];
  readonly volumes?: Array<Record<string, unknown>>;
  readonly volumeMounts?: Array<Record<string, unknown>>;
  readonly podAnnotations?: Record<string, string>;
  /**
   * Whether its pods ask for an Istio sidecar (`true`) or refuse one (`false`): the pod label
   * sidecar.istio.io/inject, as upstream's pod template carries it (lib/istio.ts).
   * @default - no label: the namespace decides
   */
  readonly istioSidecar?: boolean;
  /**
   * Safety rules this pod (Pod Security "restricted", MLP050) or its roles ('*' in RBAC,
   * MLP051) are excused from, each with upstream's reason; listed in REPORT.md.
   * @default - none: the pod passes "restricted" and the rules have no wildcards
   */
  readonly securityExceptions?: SecurityException[];
}

function renderProbe(p: WorkloadProbe | undefined): Record<string, unknown> | undefined {
  if (!p) return undefined;
  const handlers = [p.httpGet, p.tcpSocket, p.grpc, p.exec].filter((h) => h !== undefined).length;
  if (handlers !== 1) throw new Error(`a probe needs exactly one of httpGet, tcpSocket, grpc, exec (got ${handlers})`);
  return {
    httpGet: p.httpGet,
    tcpSocket: p.tcpSocket,
    grpc: p.grpc,
    exec: p.exec,
    initialDelaySeconds: p.initialDelaySeconds ?? 5,
    periodSeconds: p.periodSeconds ?? 10,
    timeoutSeconds: p.timeoutSeconds ?? 5,
    failureThreshold: p.failureThreshold ?? 3,
  };
}

/**
 * A long-running server or agent that is not a controller-runtime manager (a UI, an API
 * server, a database, an agent): Deployment that passes Pod Security "restricted",
 * ServiceAccount, optional Service, least-privilege RBAC as intent, probes of its own
 * kind, and PersistentVolumeClaims for stateful ones.
 */
export class Workload extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  public readonly selectorLabels: Record<string, string>;
  public readonly deployment: ApiObject;
  public readonly service?: ApiObject;
  /** The Service's name, when it has one. */
  public readonly serviceName?: string;
  /** Cluster-wide rules (rules + grants, clientCalls, accessReviews), normalized. */
  public readonly clusterRules: PolicyRule[];
  public readonly namespacedRules: PolicyRule[];
  public readonly serviceAccountName: string;
  /** Roles it creates at run time (their rules are part of clusterRules). */
  public readonly grants: RuntimeRole[];
  /** Permissions of its direct client calls (part of clusterRules). */
  public readonly clientCalls: RbacNeed[];
  /** Verbs checked on it by SubjectAccessReview (part of clusterRules). */
  public readonly accessReviews: RbacNeed[];
  public readonly webhookPort?: number;
  public readonly webhookPortName: string;
  private readonly volumes: Array<Record<string, unknown>>;
  private readonly mounts: Array<Record<string, unknown>>;

  constructor(scope: Component, id: string, props: WorkloadProps) {
    super(scope, id);
    const ns = scope.namespaceName;
    this.name = props.name;
    this.namespace = ns;
    this.selectorLabels = props.selectorLabels;
    this.serviceAccountName = props.serviceAccountName ?? props.name;
    const where = this.node.path;
    if (!Object.keys(props.selectorLabels).length) throw new Error(`${where}: selectorLabels must not be empty (the Service and the Deployment select pods by them)`);
    for (const [k, v] of Object.entries(props.labels ?? {})) {
      if (k in props.selectorLabels && props.selectorLabels[k] !== v) throw new Error(`${where}: label ${k}=${v} conflicts with selector label ${k}=${props.selectorLabels[k]}; drop it from labels`);
    }
    let ownReplicas = props.replicas;
    if (ownReplicas !== undefined && (!Number.isInteger(ownReplicas) || ownReplicas < 0)) {
      reportProblem(this, `replicas ${ownReplicas} must be a whole number >= 0 (0 stops the workload)`);
      ownReplicas = undefined;
    }
    // The platform's customization (controllers['<component>/<name>']) wins over the component's props.
    const target = `${scope.componentName}/${props.name}`;
    const custom = scope.platform.customization.controller(scope.componentName, props.name);
    const replicas = custom?.replicas ?? ownReplicas;
    const resources = mergeResources(props.resources ?? { requests: { cpu: '10m', memory: '64Mi' } }, custom?.resources)!;
    if (props.runAsUser === 0) throw new Error(`${where}: runAsUser 0 is root, which Pod Security "restricted" forbids; give a non-zero user id`);
    this.webhookPort = props.webhookPort;
    this.webhookPortName = props.webhookPortName ?? 'webhook-server';
    if (props.webhookPort !== undefined) checkPorts(where, [{ name: this.webhookPortName, containerPort: props.webhookPort }]);
    const ports = [...(props.ports ?? []), ...(props.webhookPort ? [{ name: this.webhookPortName, containerPort: props.webhookPort }] : [])];
    for (const p of ports) {
      if (!/^[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?$/.test(p.name)) throw new Error(`${where}: port name '${p.name}' must be a lower-case IANA service name of at most 15 characters`);
    }
    if (new Set(ports.map((p) => p.containerPort)).size !== ports.length) {
      throw new Error(`${where}: container ports ${ports.map((p) => `${p.name}=${p.containerPort}`).join(', ')} reuse a port number`);
    }
    checkPorts(where, ports);
    const resourceIssues = resourceProblems(resources, custom?.resources ? `customization controllers['${target}'].resources merged over the component's` : 'resources');
    if (resourceIssues.length) throw new Error(`${where}: ${resourceIssues.join('; ')}`);
    const claims = props.volumeClaims ?? [];
    if (claims.length && (replicas ?? 1) > 1) {
      throw new Error(`${where}: replicas ${replicas}${custom?.replicas !== undefined ? ` (customization controllers['${target}'].replicas)` : ''} with volume claims: ReadWriteOnce claims mount on one pod; use replicas: 1`);
    }

    const needs = rbacNeeds(where, props, props.rules);
    this.grants = needs.grants;
    this.clientCalls = needs.clientCalls;
    this.accessReviews = needs.accessReviews;
    this.clusterRules = normalizeRules([...(props.rules ?? []), ...needs.rules]);
    this.namespacedRules = normalizeRules(props.namespacedRules ?? []);
    onlyChecks(where, props.securityExceptions, [...POD_SECURITY_CHECKS, 'wildcardRbac']);
    const wildcards = wildcardReason(props.securityExceptions);
    checkRules(where, [...this.clusterRules, ...this.namespacedRules], wildcards);
    const labels = { ...props.selectorLabels, ...(props.labels ?? {}) };
    const hasRbac = this.clusterRules.length + this.namespacedRules.length > 0;
    const automount = props.automountToken ?? hasRbac;

    new k8s.KubeServiceAccount(this, 'ServiceAccount', {
      metadata: { name: this.serviceAccountName, namespace: ns, labels },
      automountServiceAccountToken: automount,
    });
    const self = [{ name: this.serviceAccountName, namespace: ns }];
    if (this.clusterRules.length) {
      roleObject(this, 'ClusterRole', { name: `${props.name}-role`, labels, rules: this.clusterRules, securityExceptions: exceptionsFor(props.securityExceptions, ['wildcardRbac']) });
      bindingObject(this, 'ClusterRoleBinding', { name: `${props.name}-rolebinding`, labels, roleRef: { kind: 'ClusterRole', name: `${props.name}-role` }, serviceAccounts: self });
    }
    if (this.namespacedRules.length) {
      roleObject(this, 'Role', { name: `${props.name}-role`, namespace: ns, labels, rules: this.namespacedRules, securityExceptions: exceptionsFor(props.securityExceptions, ['wildcardRbac']) });
      bindingObject(this, 'RoleBinding', { name: `${props.name}-rolebinding`, namespace: ns, labels, roleRef: { kind: 'Role', name: `${props.name}-role` }, serviceAccounts: self });
    }

    for (const c of claims) {
      new k8s.KubePersistentVolumeClaim(this, `Claim-${c.name}`, {
        metadata: { name: c.name, namespace: ns, labels },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: c.storageClassName,
          resources: { requests: { storage: k8s.Quantity.fromString(c.size) } },
        },
      });
    }
    const rootFs = props.rootFilesystem ?? RootFilesystem.asUpstream();
    const volumes: Array<Record<string, unknown>> = this.volumes = [
      ...rootFs.volumes(where),
      ...claims.map((c) => ({ name: c.name, persistentVolumeClaim: { claimName: c.name } })),
      ...(props.volumes ?? []),
    ];
    const mounts: Array<Record<string, unknown>> = this.mounts = [
      ...rootFs.mounts(),
      ...claims.map((c) => ({ name: c.name, mountPath: c.mountPath })),
      ...(props.volumeMounts ?? []),
    ];

    let liveness: Record<string, unknown> | undefined;
    let readiness: Record<string, unknown> | undefined;
    let startup: Record<string, unknown> | undefined;
    try {
      liveness = renderProbe(props.livenessProbe);
      readiness = renderProbe(props.readinessProbe);
      startup = renderProbe(props.startupProbe);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }

    const podLabels = props.istioSidecar === undefined ? labels : { ...labels, ...istioSidecarLabel(props.istioSidecar) };
    this.deployment = new ApiObject(this, 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: props.name, namespace: ns, labels },
      spec: {
        replicas: replicas ?? 1,
        selector: { matchLabels: props.selectorLabels },
        strategy: claims.length ? { type: 'Recreate' } : undefined,
        template: {
          metadata: { labels: podLabels, annotations: props.podAnnotations && Object.keys(props.podAnnotations).length ? props.podAnnotations : undefined },
          spec: {
            serviceAccountName: this.serviceAccountName,
            automountServiceAccountToken: automount,
            priorityClassName: props.priorityClassName,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, fsGroup: props.fsGroup },
            containers: [
              {
                name: props.containerName ?? props.name,
                image: props.image,
                imagePullPolicy: 'IfNotPresent',
                command: props.command,
                args: props.args,
                env: props.env?.length ? props.env : undefined,
                envFrom: props.envFrom?.length ? props.envFrom : undefined,
                ports: ports.length ? ports.map((p) => ({ name: p.name, containerPort: p.containerPort, protocol: 'TCP' })) : undefined,
                livenessProbe: liveness,
                readinessProbe: readiness,
                startupProbe: startup,
                lifecycle: props.postStart ? { postStart: { exec: { command: props.postStart } } } : undefined,
                resources,
                securityContext: restrictedContainerSecurityContext({ rootFilesystem: rootFs, runAsUser: props.runAsUser, runAsGroup: props.runAsGroup }),
                volumeMounts: Lazy.any({ produce: () => (mounts.length ? mounts : undefined) }),
              },
            ],
            volumes: Lazy.any({ produce: () => (volumes.length ? volumes : undefined) }),
          },
        },
      },
    });
    declareSecurityExceptions(this.deployment, exceptionsFor(props.securityExceptions, POD_SECURITY_CHECKS));

    if (props.service !== false) {
      const servicePorts = props.service?.ports ?? ports.map((p) => ({ name: p.name, port: p.containerPort, targetPort: p.name }));
      for (const sp of servicePorts) {
        if (!ports.some((p) => p.name === sp.targetPort)) {
          throw new Error(`${where}: Service port ${sp.name} targets '${sp.targetPort}', which is not a container port (have ${ports.map((p) => p.name).join(', ') || 'none'})`);
        }
      }
      if (servicePorts.length) {
        this.serviceName = props.service?.name ?? props.name;
        this.service = new k8s.KubeService(this, 'Service', {
          metadata: { name: this.serviceName, namespace: ns, labels },
          spec: {
            selector: props.selectorLabels,
            ports: servicePorts.map((sp) => ({ name: sp.name, port: sp.port, targetPort: k8s.IntOrString.fromString(sp.targetPort), protocol: 'TCP' })),
          },
        });
      }
    }
  }

  /** Mounts a Secret into the container (e.g. a webhook serving certificate). */
  public mountSecret(volumeName: string, secretName: string, mountPath: string): void {
    this.volumes.push({ name: volumeName, secret: { secretName, defaultMode: 420 } });
    this.mounts.push({ name: volumeName, mountPath, readOnly: true });
  }

  /** Mounts a writable emptyDir into the container. */
  public mountEmptyDir(volumeName: string, mountPath: string): void {
    this.volumes.push({ name: volumeName, emptyDir: {} });
    this.mounts.push({ name: volumeName, mountPath });
  }
}

/** The pod template spec of a workload object: its containers and anything else. */
export interface WorkloadPodSpec {
  readonly containers: Array<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** The spec of a Deployment, StatefulSet or DaemonSet a construct writes field by field. */
export interface WorkloadObjectSpec {
  readonly replicas?: number;
  readonly template: { readonly spec: WorkloadPodSpec; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

/** Options of `workloadObject`. */
export interface WorkloadObjectProps {
  /** @default Deployment */
  readonly kind?: 'Deployment' | 'StatefulSet' | 'DaemonSet';
  readonly metadata: { readonly name: string; readonly namespace: string; readonly labels?: Record<string, string> };
  readonly spec: WorkloadObjectSpec;
  /** The container that customization's resources apply to. @default the first container */
  readonly mainContainer?: string;
  /**
   * Why it must not run more than one pod (a ReadWriteOnce claim, no leader election):
   * customization that asks for more fails with this reason.
   * @default - it may run several
   */
  readonly singleReplica?: string;
}

/**
 * The platform's customization of a workload (`controllers['<component>/<name>']`), for
 * constructs whose other settings follow from it (e.g. leader election from replicas);
 * `workloadObject` applies it to the object itself.
 */
export function workloadCustomization(scope: IConstruct, name: string): ControllerCustomization {
  const component = componentOf(scope);
  return component.platform.customization.controller(component.componentName, name) ?? {};
}

/** The customization key of a workload: `<component>/<name>`. */
export function workloadTarget(scope: IConstruct, name: string): string {
  return `${componentOf(scope).componentName}/${name}`;
}

/** The component a construct belongs to (the nearest enclosing one). */
export function componentOf(c: IConstruct): Component {
  const found = [...c.node.scopes].reverse().find((s): s is Component => s instanceof Component);
  if (!found) throw new Error(`${c.node.path}: not inside a Component; a workload belongs to the component that runs it`);
  return found;
}

/**
 * A Deployment, StatefulSet or DaemonSet that a construct writes field by field (a UI, a database, a
 * server with upstream's own pod layout), under the same customization as Workload and
 * Controller: the platform's `controllers['<component>/<name>']` sets its replicas and
 * merges resources over its main container's. Without customization the object is exactly
 * `spec` as given.
 */
export function workloadObject(scope: Construct, id: string, props: WorkloadObjectProps): ApiObject {
  const where = `${scope.node.path}/${id}`;
  const component = componentOf(scope);
  const name = props.metadata.name;
  const target = `${component.componentName}/${name}`;
  const custom = component.platform.customization.controller(component.componentName, name);
  let spec = props.spec;
  if (custom?.replicas !== undefined) {
    if (props.kind === 'DaemonSet') throw new Error(`${where}: customization controllers['${target}'].replicas ${custom.replicas}: ${name} is a DaemonSet, which runs one pod per node; customize its resources only`);
    if (props.singleReplica && custom.replicas > 1) throw new Error(`${where}: customization controllers['${target}'].replicas ${custom.replicas}: ${props.singleReplica}; use replicas: 1 (or 0)`);
    spec = { ...spec, replicas: custom.replicas };
  }
  if (custom?.resources) {
    const containers = spec.template.spec.containers;
    const main = props.mainContainer === undefined ? 0 : containers.findIndex((c) => c.name === props.mainContainer);
    if (main < 0 || !containers.length) {
      throw new Error(`${where}: mainContainer '${props.mainContainer}' is not a container of ${name} (have ${containers.map((c) => String(c.name)).join(', ') || 'none'}); name one of them`);
    }
    const resources = mergeResources(containers[main].resources as ContainerResources | undefined, custom.resources)!;
    const issues = resourceProblems(resources, `customization controllers['${target}'].resources merged over the component's`);
    if (issues.length) throw new Error(`${where}: ${issues.join('; ')}`);
    spec = {
      ...spec,
      template: { ...spec.template, spec: { ...spec.template.spec, containers: containers.map((c, i) => (i === main ? { ...c, resources } : c)) } },
    };
  }
  return new ApiObject(scope, id, { apiVersion: 'apps/v1', kind: props.kind ?? 'Deployment', metadata: props.metadata, spec });
}
