import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import { bindingObject, PolicyRule, Rbac, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadCustomization, workloadObject, workloadTarget } from '../../lib/workload';

/** Ports every endpoint picker serves (the reference EPP and llm-d's scheduler alike). */
export const EPP_PORTS = { grpc: 9002, grpcHealth: 9003, metrics: 9090 } as const;

/** One plugin of an endpoint picker's plugin configuration (a filter, scorer, picker...). */
export interface EndpointPickerPlugin {
  /** The plugin type the picker binary registers, e.g. prefix-cache-scorer. */
  readonly type: string;
  /** The name profiles refer to it by. @default the type */
  readonly name?: string;
  /** Plugin parameters, passed through as given. */
  readonly parameters?: Record<string, unknown>;
}

/** A scheduling profile: the plugins (by name) that choose an endpoint, with weights for scorers. */
export interface SchedulingProfile {
  readonly name: string;
  readonly plugins: ReadonlyArray<{ readonly pluginRef: string; readonly weight?: number }>;
}

/**
 * The file-based plugin configuration of an endpoint picker (kind EndpointPickerConfig; not a
 * CRD): rendered into a ConfigMap and passed with --config-file.
 */
export interface EndpointPickerPluginConfig {
  /** llm-d.ai/v1alpha1 (llm-d router) or inference.networking.x-k8s.io/v1alpha1 (the extension's EPP). */
  readonly apiVersion: string;
  readonly plugins: readonly EndpointPickerPlugin[];
  readonly schedulingProfiles: readonly SchedulingProfile[];
}

/**
 * One implementation of the endpoint picker role: what the gateway calls (ext-proc) to choose
 * the model server of an InferencePool. The extension's reference EPP
 * (`GatewayApiInferenceExtension.referencePicker()`) and llm-d's scheduler
 * (`LlmDRouter.scheduler()`) are two of them; `addInferencePool` takes either.
 */
export interface EndpointPickerImplementation {
  /** What it is, for names in errors and reports, e.g. 'llm-d router scheduler v0.10.0'. */
  readonly description: string;
  /** The resolved image. */
  readonly image: string;
  /** Plugin configuration. @default - none: the picker's built-in default profile */
  readonly pluginConfig?: EndpointPickerPluginConfig;
  /**
   * Pass --pool-namespace and --pool-group even where they are the defaults (as llm-d's
   * charts do), rather than relying on the NAMESPACE variable. @default false
   */
  readonly explicitPoolFlags?: boolean;
  /** Flag that turns on leader election when the picker has several replicas. @default - none: one replica only */
  readonly leaderElectionFlag?: string;
  /** Extra flags, e.g. { v: '3' } becomes --v=3 (sorted by name). */
  readonly flags?: Readonly<Record<string, string>>;
  /** API groups whose InferenceObjectives and InferenceModelRewrites it reads. */
  readonly objectiveGroups: readonly string[];
  /** Container ports beyond grpc, grpc-health and metrics (e.g. llm-d's KV-cache event port). */
  readonly extraPorts?: ReadonlyArray<{ readonly name: string; readonly containerPort: number }>;
  /** @default requests 100m/256Mi, limits 1/1Gi */
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
}

export interface EndpointPickerProps {
  /** Namespace of the pool, its model servers and this picker. */
  readonly namespace: string;
  /** Name of the InferencePool this picker serves (also names the picker: epp-<pool>). */
  readonly poolName: string;
  /** Which endpoint picker runs, and how it is configured. */
  readonly implementation: EndpointPickerImplementation;
  /** API group of the pool it watches. @default inference.networking.k8s.io */
  readonly poolGroup?: string;
  /** @default 1 (more replicas need an implementation with leader election) */
  readonly replicas?: number;
}

const CONFIG_DIR = '/config';
const CONFIG_FILE = 'config.yaml';

/** Checks a plugin configuration; throws naming the construct path, the value and the fix. */
export function validatePluginConfig(path: string, config: EndpointPickerPluginConfig): void {
  const names = config.plugins.map((p) => p.name ?? p.type);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`${path}: pluginConfig: plugin name '${dup}' is used twice; give one of them another name`);
  if (!config.schedulingProfiles.length) throw new Error(`${path}: pluginConfig: no scheduling profile; add at least one (e.g. { name: 'default', plugins: [...] })`);
  for (const profile of config.schedulingProfiles) {
    for (const ref of profile.plugins) {
      if (!names.includes(ref.pluginRef)) {
        throw new Error(`${path}: pluginConfig: profile '${profile.name}' refers to plugin '${ref.pluginRef}', which is not in plugins (${names.join(', ') || 'none'}); add it to plugins or fix the name`);
      }
      if (ref.weight !== undefined && (!Number.isInteger(ref.weight) || ref.weight < 0)) {
        throw new Error(`${path}: pluginConfig: profile '${profile.name}' gives plugin '${ref.pluginRef}' weight ${ref.weight}; weights are whole numbers >= 0`);
      }
    }
  }
}

/**
 * The endpoint picker of one InferencePool: ServiceAccount, Role and RoleBinding, optional
 * plugin ConfigMap, Deployment and Service. Upstream ships it per pool (Helm charts); here it
 * is typed, and the implementation is a choice (EndpointPickerImplementation).
 */
export class EndpointPicker extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  public readonly implementation: EndpointPickerImplementation;
  public readonly service: ApiObject;
  public readonly deployment: ApiObject;
  public readonly configMap?: ApiObject;

  constructor(scope: Construct, id: string, props: EndpointPickerProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.poolName) || props.poolName.length > 59) {
      throw new Error(`${this.node.path}: poolName '${props.poolName}' must be a DNS label of at most 59 characters (the picker is named epp-<poolName>)`);
    }
    const impl = props.implementation;
    // The platform's customization (controllers['<component>/epp-<pool>']) wins, and leader election follows it.
    const customReplicas = workloadCustomization(this, `epp-${props.poolName}`).replicas;
    const replicas = customReplicas ?? props.replicas ?? 1;
    if (customReplicas === undefined && (!Number.isInteger(replicas) || replicas < 1)) throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1`);
    const leader = replicas > 1;
    if (leader && !impl.leaderElectionFlag) {
      const source = customReplicas === undefined ? 'replicas' : `customization controllers['${workloadTarget(this, `epp-${props.poolName}`)}'].replicas`;
      throw new Error(`${this.node.path}: ${source} ${replicas}: the ${impl.description} has no leader election here, so it runs one replica; set replicas: 1 or use an implementation with leaderElectionFlag`);
    }
    if (impl.pluginConfig) validatePluginConfig(this.node.path, impl.pluginConfig);
    const reserved = new Set<number>(Object.values(EPP_PORTS));
    for (const p of impl.extraPorts ?? []) {
      if (reserved.has(p.containerPort)) throw new Error(`${this.node.path}: extra port ${p.name} uses ${p.containerPort}, which the picker already serves; choose another port`);
    }
    this.name = `epp-${props.poolName}`;
    this.namespace = props.namespace;
    this.implementation = impl;
    const poolGroup = props.poolGroup ?? 'inference.networking.k8s.io';
    const selector = { 'app.kubernetes.io/name': this.name, 'inference.networking.k8s.io/pool': props.poolName };
    const meta = { name: this.name, namespace: props.namespace, labels: selector };

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta });
    const rules: PolicyRule[] = [
      Rbac.read('', 'pods'),
      Rbac.read(poolGroup, 'inferencepools'),
      ...impl.objectiveGroups.map((g) => Rbac.read(g, 'inferenceobjectives', 'inferencemodelrewrites')),
      ...(leader ? [Rbac.manage('coordination.k8s.io', 'leases'), Rbac.verbs('', ['events'], ['create', 'patch'])] : []),
    ];
    roleObject(this, 'Role', { name: this.name, namespace: props.namespace, labels: meta.labels, rules });
    bindingObject(this, 'RoleBinding', { name: this.name, namespace: props.namespace, labels: meta.labels, roleRef: { kind: 'Role', name: this.name }, serviceAccounts: [{ name: this.name, namespace: props.namespace }] });

    const args = ['--pool-name', props.poolName];
    if (impl.explicitPoolFlags) args.push('--pool-namespace', props.namespace);
    if (poolGroup !== 'inference.networking.k8s.io' || impl.explicitPoolFlags) args.push('--pool-group', poolGroup);
    args.push('--zap-encoder', 'json');
    if (impl.pluginConfig) args.push('--config-file', `${CONFIG_DIR}/${CONFIG_FILE}`);
    if (leader) args.push(`--${impl.leaderElectionFlag}`);
    // --name=value: the only form Go's flag package accepts for boolean flags.
    for (const [k, v] of Object.entries(impl.flags ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) args.push(`--${k}=${v}`);

    if (impl.pluginConfig) {
      const c = impl.pluginConfig;
      this.configMap = new k8s.KubeConfigMap(this, 'PluginConfig', {
        metadata: { ...meta, name: `${this.name}-config` },
        data: {
          [CONFIG_FILE]: stringify({
            apiVersion: c.apiVersion,
            kind: 'EndpointPickerConfig',
            plugins: c.plugins.map((p) => ({ type: p.type, ...(p.name ? { name: p.name } : {}), ...(p.parameters ? { parameters: p.parameters } : {}) })),
            schedulingProfiles: c.schedulingProfiles.map((s) => ({
              name: s.name,
              plugins: s.plugins.map((r) => ({ pluginRef: r.pluginRef, ...(r.weight !== undefined ? { weight: r.weight } : {}) })),
            })),
          }, { lineWidth: 0 }),
        },
      });
    }

    // With one replica the reference EPP answers the gRPC health service inference-extension;
    // with leader election, liveness and readiness are separate services.
    const probeService = leader ? undefined : 'inference-extension';
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: meta,
      spec: {
        replicas,
        selector: { matchLabels: selector },
        template: {
          metadata: { labels: selector },
          spec: {
            serviceAccountName: this.name,
            // Mirrors the longest grace period of the model servers behind the pool.
            terminationGracePeriodSeconds: 130,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'epp',
              image: impl.image,
              imagePullPolicy: 'IfNotPresent',
              args,
              env: [{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [
                { name: 'grpc', containerPort: EPP_PORTS.grpc, protocol: 'TCP' },
                { name: 'grpc-health', containerPort: EPP_PORTS.grpcHealth, protocol: 'TCP' },
                { name: 'metrics', containerPort: EPP_PORTS.metrics, protocol: 'TCP' },
                ...(impl.extraPorts ?? []).map((p) => ({ name: p.name, containerPort: p.containerPort, protocol: 'TCP' })),
              ],
              livenessProbe: { grpc: { port: EPP_PORTS.grpcHealth, service: probeService ?? 'liveness' }, initialDelaySeconds: 5, periodSeconds: 10 },
              readinessProbe: { grpc: { port: EPP_PORTS.grpcHealth, service: probeService ?? 'readiness' }, initialDelaySeconds: 5, periodSeconds: 10 },
              resources: impl.resources ?? { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } },
              // The root filesystem stays writable, as both upstream charts leave it (the
              // extension's epplib at v1.4.0, llm-d-router at v0.10.0): where the picker writes is not known.
              securityContext: restrictedContainerSecurityContext(),
              volumeMounts: impl.pluginConfig ? [{ name: 'plugin-config', mountPath: CONFIG_DIR, readOnly: true }] : undefined,
            }],
            volumes: impl.pluginConfig ? [{ name: 'plugin-config', configMap: { name: `${this.name}-config` } }] : undefined,
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: meta,
      spec: {
        selector,
        ports: [
          { name: 'grpc-ext-proc', port: EPP_PORTS.grpc, targetPort: k8s.IntOrString.fromString('grpc'), protocol: 'TCP', appProtocol: 'http2' },
          { name: 'http-metrics', port: EPP_PORTS.metrics, targetPort: k8s.IntOrString.fromString('metrics'), protocol: 'TCP' },
        ],
      },
    });
  }

  /** The endpointPickerRef of an inference.networking.k8s.io/v1 InferencePool. */
  public endpointPickerRef(failureMode: 'FailOpen' | 'FailClose' = 'FailClose') {
    return { group: '', kind: 'Service', name: this.name, port: { number: EPP_PORTS.grpc }, failureMode };
  }
}
