import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { bindingObject, PolicyRule, Rbac, roleObject } from '../../lib/rbac';

/** Ports of the reference endpoint picker. */
export const EPP_PORTS = { grpc: 9002, grpcHealth: 9003, metrics: 9090 } as const;

export interface EndpointPickerProps {
  /** Namespace of the pool, its model servers and this picker. */
  readonly namespace: string;
  /** Name of the InferencePool this picker serves (also names the picker: epp-<pool>). */
  readonly poolName: string;
  /** The resolved EPP image. */
  readonly image: string;
  /** API group of the pool it watches. @default inference.networking.k8s.io */
  readonly poolGroup?: string;
  /** @default 1 (more replicas turn on leader election) */
  readonly replicas?: number;
  /** @default requests 100m/256Mi, limits 1/1Gi */
  readonly resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  /** Extra command-line flags, e.g. { v: '3' } becomes --v 3. */
  readonly flags?: Record<string, string>;
  /** Kinds the picker reads besides pools and pods (by line: objectives and rewrites in v1.4). */
  readonly readsObjectives?: boolean;
}

/**
 * The endpoint picker (EPP) of one InferencePool: the ext-proc service a gateway calls to
 * choose a model server. Upstream ships it per pool (a Helm chart); here it is typed:
 * ServiceAccount, Role and RoleBinding, Deployment and Service.
 */
export class EndpointPicker extends Construct {
  public readonly name: string;
  public readonly namespace: string;
  public readonly service: ApiObject;
  public readonly deployment: ApiObject;

  constructor(scope: Construct, id: string, props: EndpointPickerProps) {
    super(scope, id);
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(props.poolName) || props.poolName.length > 59) {
      throw new Error(`${this.node.path}: poolName '${props.poolName}' must be a DNS label of at most 59 characters (the picker is named epp-<poolName>)`);
    }
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1`);
    this.name = `epp-${props.poolName}`;
    this.namespace = props.namespace;
    const poolGroup = props.poolGroup ?? 'inference.networking.k8s.io';
    const selector = { 'app.kubernetes.io/name': this.name, 'inference.networking.k8s.io/pool': props.poolName };
    const meta = { name: this.name, namespace: props.namespace, labels: selector };
    const leader = replicas > 1;

    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta });
    const rules: PolicyRule[] = [
      Rbac.read('', 'pods'),
      Rbac.read(poolGroup, 'inferencepools'),
      ...(props.readsObjectives ?? true ? [Rbac.read('inference.networking.x-k8s.io', 'inferenceobjectives', 'inferencemodelrewrites')] : []),
      ...(leader ? [Rbac.manage('coordination.k8s.io', 'leases'), Rbac.verbs('', ['events'], ['create', 'patch'])] : []),
    ];
    roleObject(this, 'Role', { name: this.name, namespace: props.namespace, labels: meta.labels, rules });
    bindingObject(this, 'RoleBinding', { name: this.name, namespace: props.namespace, labels: meta.labels, roleRef: { kind: 'Role', name: this.name }, serviceAccounts: [{ name: this.name, namespace: props.namespace }] });

    // The picker serves on its default ports (EPP_PORTS); with more than one replica,
    // pass the leader-election flag of the chosen release through `flags`.
    const args = ['--pool-name', props.poolName];
    if (poolGroup !== 'inference.networking.k8s.io') args.push('--pool-group', poolGroup);
    args.push('--zap-encoder', 'json');
    for (const [k, v] of Object.entries(props.flags ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) args.push(`--${k}`, v);
    const probeService = leader ? undefined : 'inference-extension';
    this.deployment = new ApiObject(this, 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
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
              image: props.image,
              imagePullPolicy: 'IfNotPresent',
              args,
              env: [{ name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
              ports: [
                { name: 'grpc', containerPort: EPP_PORTS.grpc, protocol: 'TCP' },
                { name: 'grpc-health', containerPort: EPP_PORTS.grpcHealth, protocol: 'TCP' },
                { name: 'metrics', containerPort: EPP_PORTS.metrics, protocol: 'TCP' },
              ],
              livenessProbe: { grpc: { port: EPP_PORTS.grpcHealth, service: probeService ?? 'liveness' }, initialDelaySeconds: 5, periodSeconds: 10 },
              readinessProbe: { grpc: { port: EPP_PORTS.grpcHealth, service: probeService ?? 'readiness' }, initialDelaySeconds: 5, periodSeconds: 10 },
              resources: props.resources ?? { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true },
            }],
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
