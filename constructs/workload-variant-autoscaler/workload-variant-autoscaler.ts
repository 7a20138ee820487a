import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS } from './crds';
import { WVA_PARITY_DEVIATIONS } from './parity';
import { WVA_IMAGES, WVA_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { MANAGE_VERBS, Rbac, roleObject } from '../../lib/rbac';
import { GatewayApiInferenceExtension } from '../gateway-api-inference-extension/gateway-api-inference-extension';

export interface WorkloadVariantAutoscalerProps extends ComponentProps {
  /**
   * Where the autoscaler queries model server and EPP metrics (Prometheus or Thanos). https
   * only: v0.5.1 exits at start on any other scheme, so the Prometheus must serve TLS (a
   * stock prometheus-operator Prometheus serves plain HTTP until given `web.tlsConfig`).
   */
  readonly prometheusUrl: string;
  /**
   * Skip verification of the Prometheus certificate (upstream's install sets true, for its
   * self-signed in-cluster Prometheus).
   * @default false: verified against the system roots, or `prometheusCaCertPath`
   */
  readonly prometheusTlsInsecureSkipVerify?: boolean;
  /**
   * The CA that signed the Prometheus certificate, as a path in the controller's container
   * (PROMETHEUS_CA_CERT_PATH). The optional Secret `prometheus-client-cert` in the
   * controller's namespace is mounted at /etc/prometheus-certs, so its `ca.crt` is
   * `/etc/prometheus-certs/ca.crt`.
   * @default none: the system roots
   */
  readonly prometheusCaCertPath?: string;
  /** Let variants scale to zero replicas. @default false */
  readonly scaleToZero?: boolean;
  /**
   * Watch VariantAutoscalings in the controller's namespace only ('own', upstream's default)
   * or in every namespace ('all').
   * @default 'own'
   */
  readonly watchNamespaces?: 'own' | 'all';
  /** @default 2 (upstream's default; leader election keeps one active) */
  readonly replicas?: number;
  /** @default debug (upstream's default at v0.5) */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /**
   * The global saturation thresholds (the `default` entry of the saturation scaling
   * ConfigMap, which the controller reads at run time; without it no model is scaled).
   * @default upstream's: kvCacheThreshold 0.8, queueLengthThreshold 5, kvSpareTrigger 0.1, queueSpareTrigger 3, enableLimiter false
   */
  readonly saturation?: SaturationScalingProps;
}

/** Saturation thresholds of the V1 analyzer, as v0.5.1's SaturationScalingConfig reads them. */
export interface SaturationScalingProps {
  /** A replica is saturated at this KV cache utilization (0-1). @default 0.8 */
  readonly kvCacheThreshold?: number;
  /** A replica is saturated at this queue length (>= 0). @default 5 */
  readonly queueLengthThreshold?: number;
  /** Scale up when the average spare KV cache capacity falls below this (0-1, at most kvCacheThreshold). @default 0.1 */
  readonly kvSpareTrigger?: number;
  /** Scale up when the average spare queue capacity falls below this (>= 0). @default 3 */
  readonly queueSpareTrigger?: number;
  /** Limit scale-up by the GPUs available in the cluster. @default false */
  readonly enableLimiter?: boolean;
}

const NAME = 'workload-variant-autoscaler';
const SELECTOR = { 'app.kubernetes.io/name': NAME, 'control-plane': 'controller-manager' };
const CONFIG = `${NAME}-wva-variantautoscaling-config`;
/** Read at run time by name (SATURATION_CONFIG_MAP_NAME); each key is a model id or `default`, each value YAML. */
const SATURATION_CONFIG = `${NAME}-saturation-scaling-config`;

/** The saturation ConfigMap's `default` entry, checked as v0.5.1's SaturationScalingConfig.Validate checks it (an invalid entry is skipped at run time). */
function saturationDefault(where: string, p: SaturationScalingProps): string {
  const v = { kvCacheThreshold: 0.8, queueLengthThreshold: 5, kvSpareTrigger: 0.1, queueSpareTrigger: 3, enableLimiter: false, ...p };
  const problems: string[] = [];
  const fraction = (k: 'kvCacheThreshold' | 'kvSpareTrigger') => {
    if (!(Number.isFinite(v[k]) && v[k] >= 0 && v[k] <= 1)) problems.push(`saturation.${k} ${v[k]} must be from 0 to 1`);
  };
  const count = (k: 'queueLengthThreshold' | 'queueSpareTrigger') => {
    if (!(Number.isFinite(v[k]) && v[k] >= 0)) problems.push(`saturation.${k} ${v[k]} must be a number >= 0`);
  };
  fraction('kvCacheThreshold');
  fraction('kvSpareTrigger');
  count('queueLengthThreshold');
  count('queueSpareTrigger');
  if (!problems.length && v.kvCacheThreshold < v.kvSpareTrigger) problems.push(`saturation.kvCacheThreshold ${v.kvCacheThreshold} is below saturation.kvSpareTrigger ${v.kvSpareTrigger}; the controller skips such an entry: make kvCacheThreshold >= kvSpareTrigger`);
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
  return stringify(v);
}

/**
 * The Workload Variant Autoscaler v0.5.1 (llm-d): the llmd.ai VariantAutoscaling CRD and its
 * controller, which sizes model-server variants behind an InferencePool from Prometheus
 * metrics. No webhooks.
 */
export class WorkloadVariantAutoscaler extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return WVA_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = WVA_IMAGES;
  public readonly controller: Controller;

  constructor(scope: Platform, id: string, props: WorkloadVariantAutoscalerProps) {
    super(scope, id, props.namespace ?? `${NAME}-system`, props);
    if (!/^https:\/\/[^\s/]+(\/\S*)?$/.test(props.prometheusUrl ?? '')) {
      throw new Error(`${this.node.path}: prometheusUrl '${props.prometheusUrl}' is not an https URL (the autoscaler v0.5.1 exits on any other scheme); `
        + 'give the Prometheus or Thanos query endpoint served with TLS, e.g. https://thanos-querier.openshift-monitoring.svc:9091');
    }
    if (props.prometheusCaCertPath !== undefined && !/^\/\S+$/.test(props.prometheusCaCertPath)) {
      throw new Error(`${this.node.path}: prometheusCaCertPath '${props.prometheusCaCertPath}' is not an absolute path; give the CA file's path in the controller's container, e.g. /etc/prometheus-certs/ca.crt`);
    }
    const watch = props.watchNamespaces ?? 'own';
    if (watch !== 'own' && watch !== 'all') throw new Error(`${this.node.path}: watchNamespaces '${watch}' must be 'own' or 'all'`);
    this.addNamespace();
    this.declareParityDeviations(WVA_PARITY_DEVIATIONS);
    const ns = this.namespaceName;
    const [va] = CRDS.map((d) => this.addCrd(d));
    this.require({ group: 'inference.networking.k8s.io', kind: 'InferencePool', reason: 'it reads the pools whose variants it scales (POOL_GROUP)', providedBy: GatewayApiInferenceExtension });
    this.require({ group: 'monitoring.coreos.com', kind: 'ServiceMonitor', reason: 'it reads the ServiceMonitors of the model servers it scales' });

    new k8s.KubeConfigMap(this, 'Config', {
      metadata: { name: CONFIG, namespace: ns, labels: { 'app.kubernetes.io/name': NAME } },
      data: {
        PROMETHEUS_BASE_URL: props.prometheusUrl,
        PROMETHEUS_TLS_INSECURE_SKIP_VERIFY: String(props.prometheusTlsInsecureSkipVerify ?? false),
        ...(props.prometheusCaCertPath ? { PROMETHEUS_CA_CERT_PATH: props.prometheusCaCertPath } : {}),
        WVA_SCALE_TO_ZERO: String(props.scaleToZero ?? false),
        WVA_LIMITED_MODE: 'false',
        WVA_NODE_SELECTOR: '',
        // Read from this ConfigMap at run time (v0.5.1 internal/config); upstream's values.
        GLOBAL_OPT_INTERVAL: '60s',
        PROMETHEUS_METRICS_CACHE_ENABLED: 'true',
        PROMETHEUS_METRICS_CACHE_TTL: '30s',
        PROMETHEUS_METRICS_CACHE_CLEANUP_INTERVAL: '1m',
        PROMETHEUS_METRICS_CACHE_FETCH_INTERVAL: '30s',
        PROMETHEUS_METRICS_CACHE_FRESH_THRESHOLD: '1m',
        PROMETHEUS_METRICS_CACHE_STALE_THRESHOLD: '2m',
        PROMETHEUS_METRICS_CACHE_UNAVAILABLE_THRESHOLD: '5m',
        // In upstream's ConfigMap, though no code of v0.5.1 reads it.
        PROMETHEUS_METRICS_CACHE_MAX_SIZE: '0',
      },
    });
    // WVA-SATCFG: the saturation engine skips every model whose namespace has no `default`
    // entry here, so without this ConfigMap nothing is ever scaled.
    new k8s.KubeConfigMap(this, 'SaturationConfig', {
      metadata: { name: SATURATION_CONFIG, namespace: ns, labels: { 'app.kubernetes.io/name': NAME } },
      data: { default: saturationDefault(this.node.path, props.saturation ?? {}) },
    });
    const fromConfig = (key: string) => ({ name: key, valueFrom: { configMapKeyRef: { name: CONFIG, key } } });

    this.controller = new Controller(this, 'Controller', {
      name: `${NAME}-controller-manager`,
      image: this.image('controller'),
      command: ['/manager'],
      args: [
        '--leader-elect=true', '--health-probe-bind-address=:8081',
        ...(watch === 'own' ? ['--watch-namespace=$(POD_NAMESPACE)'] : []),
      ],
      env: [
        { name: 'LOG_LEVEL', value: props.logLevel ?? 'debug' },
        { name: 'CONFIG_MAP_NAME', value: CONFIG },
        fromConfig('PROMETHEUS_BASE_URL'),
        fromConfig('PROMETHEUS_TLS_INSECURE_SKIP_VERIFY'),
        // With PROMETHEUS_BASE_URL in its environment, v0.5.1 reads every Prometheus setting from there.
        ...(props.prometheusCaCertPath ? [fromConfig('PROMETHEUS_CA_CERT_PATH')] : []),
        { name: 'PROMETHEUS_TOKEN_PATH', value: '/var/run/secrets/kubernetes.io/serviceaccount/token' },
        fromConfig('WVA_SCALE_TO_ZERO'),
        fromConfig('WVA_LIMITED_MODE'),
        fromConfig('WVA_NODE_SELECTOR'),
        { name: 'SATURATION_CONFIG_MAP_NAME', value: SATURATION_CONFIG },
      ],
      selectorLabels: SELECTOR,
      ports: { health: 8081 },
      metrics: ControllerMetrics.secure(8443, {
        args: ['--metrics-bind-address=:8443', '--metrics-secure=true'],
        serviceName: `${NAME}-controller-manager-metrics-service`,
      }),
      replicas: props.replicas ?? 2,
      // The lease name is compiled into the manager (not in the inventory): this id only scopes the lease Role.
      leaderElectionId: 'workload-variant-autoscaler-leader-election',
      resources: { requests: { cpu: '10m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } },
      owns: [va.definition],
      rules: [
        Rbac.verbs('', ['configmaps'], ['get', 'list', 'update', 'watch']),
        Rbac.verbs('', ['configmaps/status', 'secrets'], ['get']),
        Rbac.verbs('', ['events'], ['create', 'patch']),
        Rbac.read('', 'namespaces', 'pods', 'services'),
        Rbac.verbs('', ['nodes', 'nodes/status'], ['get', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('apps', ['deployments'], ['get', 'list', 'patch', 'update', 'watch']),
        Rbac.read('apps', 'replicasets'),
        Rbac.read('monitoring.coreos.com', 'servicemonitors'),
        // From upstream's later RBAC (v0.5.1's role omits it although the controller reads pools).
        Rbac.read('inference.networking.k8s.io', 'inferencepools'),
      ],
      watches: [
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: 'configmaps' },
        { group: '', resource: 'pods' },
        { group: '', resource: 'nodes' },
        { group: 'inference.networking.k8s.io', resource: 'inferencepools' },
        { group: 'monitoring.coreos.com', resource: 'servicemonitors' },
      ],
      namespacedRules: [Rbac.manage('', 'configmaps')],
      volumes: [{
        name: 'prometheus-client-certs',
        secret: { secretName: 'prometheus-client-cert', optional: true, items: ['ca.crt', 'tls.crt', 'tls.key'].map((k) => ({ key: k, path: k })) },
      }],
      volumeMounts: [{ name: 'prometheus-client-certs', mountPath: '/etc/prometheus-certs', readOnly: true }],
    });

    // Upstream's ServiceMonitor: Prometheus scrapes the controller's metrics, among them the
    // desired replicas it computes, which the HPA or KEDA read back through Prometheus. With
    // the Prometheus Operator (PROMETHEUS_OPERATOR, or any provider of the kind) it is emitted;
    // without the kind the component's ServiceMonitor requirement above fails synth.
    this.controller.addServiceMonitor({
      name: `${NAME}-controller-manager-metrics-monitor`,
      labels: { ...SELECTOR, release: 'kube-prometheus-stack' },
      interval: '10s',
      ownNamespaceOnly: true,
      selector: SELECTOR,
    });

    // User roles, as upstream ships them (without aggregation labels), with the group and
    // resource spelled as the CRD serves them (upstream's files misspell both).
    const labels = { 'app.kubernetes.io/name': NAME };
    const roles: Array<[string, string[], string[]]> = [
      ['admin', [...MANAGE_VERBS, 'deletecollection'].sort(), ['get']],
      ['editor', MANAGE_VERBS, ['get']],
      ['viewer', ['get', 'list', 'watch'], ['get']],
    ];
    for (const [role, verbs, statusVerbs] of roles) {
      roleObject(this, `Role-${role}`, {
        name: `${NAME}-variantautoscaling-${role}-role`,
        labels,
        rules: [
          { apiGroups: ['llmd.ai'], resources: ['variantautoscalings'], verbs },
          { apiGroups: ['llmd.ai'], resources: ['variantautoscalings/status'], verbs: statusVerbs },
        ],
      });
    }
  }
}
