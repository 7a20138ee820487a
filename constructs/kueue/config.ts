/**
 * Kueue's manager configuration (config.kueue.x-k8s.io/v1beta2 Configuration), the
 * controller_manager_config.yaml of the kueue-manager-config ConfigMap, as typed props.
 * Rendered with a fixed key order so that output is byte-for-byte stable.
 */
import { stringify } from 'yaml';
import { INTEGRATIONS, KUEUE_INTEGRATIONS, KueueIntegration } from './integrations';
import { LabelSelector } from '../../lib/webhook-server';

/** What a platform team sets; everything else follows from the component. */
export interface KueueManagerConfigProps {
  /**
   * Rate limits of the manager's API client.
   * @default { qps: 300, burst: 500 } (upstream's default configuration)
   */
  readonly clientConnection?: { readonly qps?: number; readonly burst?: number };
  /**
   * Manage jobs that name no LocalQueue (they are held until one is set).
   * @default false
   */
  readonly manageJobsWithoutQueueName?: boolean;
  /**
   * Namespaces whose jobs Kueue manages.
   * @default - Kueue's built-in default (every namespace but kube-system and Kueue's own)
   */
  readonly managedJobsNamespaceSelector?: LabelSelector;
  /**
   * All-or-nothing scheduling: an admitted workload whose pods are not all ready within
   * `timeout` is evicted and requeued.
   * @default - off
   */
  readonly waitForPodsReady?: WaitForPodsReadyProps;
  /**
   * Fair sharing between the ClusterQueues of a cohort: the preemption strategies, in order.
   * @default - off
   */
  readonly fairSharing?: { readonly preemptionStrategies: Array<'LessThanOrEqualToFinalShare' | 'LessThanInitialShare'> };
  /**
   * Further top-level Configuration fields (e.g. multiKueue, resources,
   * objectRetentionPolicies), rendered as given after the fields above. Keys the component
   * sets itself are refused.
   * @default - none
   */
  readonly extra?: Record<string, unknown>;
}

export interface WaitForPodsReadyProps {
  /** How long an admitted workload may take to have all pods ready, e.g. '5m'. */
  readonly timeout: string;
  /** Hold other admissions in the ClusterQueue until the workload's pods are ready. @default false */
  readonly blockAdmission?: boolean;
  /** How long a running workload may stay not ready before it is evicted. @default the timeout */
  readonly recoveryTimeout?: string;
  readonly requeuingStrategy?: {
    /** @default Eviction */
    readonly timestamp?: 'Eviction' | 'Creation';
    /** Requeues before the workload is deactivated. @default - no limit */
    readonly backoffLimitCount?: number;
    /** @default 60 */
    readonly backoffBaseSeconds?: number;
    /** @default 3600 */
    readonly backoffMaxSeconds?: number;
  };
}

/** Everything the Configuration is rendered from. */
export interface KueueManagerConfig {
  readonly namespace: string;
  readonly integrations: readonly KueueIntegration[];
  readonly internalCertManagement: boolean;
  readonly webhookServiceName: string;
  readonly webhookSecretName: string;
  readonly leaderElectionId: string;
  readonly healthPort: number;
  readonly metricsPort: number;
  readonly webhookPort: number;
  readonly props: KueueManagerConfigProps;
}

/** The top-level keys the component renders itself. */
export const MANAGED_CONFIG_KEYS = [
  'apiVersion', 'kind', 'namespace', 'health', 'metrics', 'webhook', 'leaderElection', 'clientConnection',
  'internalCertManagement', 'manageJobsWithoutQueueName', 'managedJobsNamespaceSelector', 'waitForPodsReady', 'fairSharing', 'integrations',
] as const;

/** A Go duration as metav1.Duration parses it, e.g. 5m, 1h30m, 90s. */
const DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

/** Checks the integrations and the config props; returns one message per problem (prop, value, fix). */
export function validateManagerConfig(integrations: readonly string[], props: KueueManagerConfigProps): string[] {
  const problems: string[] = [];
  if (!integrations.length) problems.push('integrations: the list is empty; enable at least one job integration (e.g. \'batch/job\')');
  for (const name of integrations) {
    if (!(KUEUE_INTEGRATIONS as readonly string[]).includes(name)) {
      problems.push(`integrations: '${name}' is not a job integration of Kueue v0.19.2; choose from ${KUEUE_INTEGRATIONS.join(', ')}`);
    }
  }
  const dup = integrations.filter((n, i) => integrations.indexOf(n) !== i);
  if (dup.length) problems.push(`integrations: '${dup[0]}' is listed twice; list each integration once`);
  for (const name of integrations) {
    for (const dep of INTEGRATIONS[name as KueueIntegration]?.dependsOn ?? []) {
      if (!integrations.includes(dep)) problems.push(`integrations: '${name}' needs '${dep}' enabled as well (Kueue manages its pods through the pod integration); add '${dep}'`);
    }
  }
  const cc = props.clientConnection ?? {};
  for (const [field, v] of [['qps', cc.qps], ['burst', cc.burst]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v <= 0)) problems.push(`config.clientConnection.${field}: ${v} must be a whole number > 0`);
  }
  const qps = cc.qps ?? 300;
  const burst = cc.burst ?? 500;
  if (Number.isInteger(qps) && Number.isInteger(burst) && burst < qps) {
    problems.push(`config.clientConnection.burst: ${burst} is below qps ${qps}; burst must be at least qps`);
  }
  const w = props.waitForPodsReady;
  if (w) {
    for (const [field, v] of [['timeout', w.timeout], ['recoveryTimeout', w.recoveryTimeout]] as const) {
      if (v !== undefined && !DURATION.test(v)) problems.push(`config.waitForPodsReady.${field}: '${v}' is not a duration; write it like 5m, 1h30m or 90s`);
    }
    const rs = w.requeuingStrategy ?? {};
    for (const [field, v] of [['backoffLimitCount', rs.backoffLimitCount], ['backoffBaseSeconds', rs.backoffBaseSeconds], ['backoffMaxSeconds', rs.backoffMaxSeconds]] as const) {
      if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > 2 ** 31 - 1)) problems.push(`config.waitForPodsReady.requeuingStrategy.${field}: ${v} must be a whole number >= 0`);
    }
  }
  const strategies = props.fairSharing?.preemptionStrategies;
  if (strategies && (!strategies.length || new Set(strategies).size !== strategies.length)) {
    problems.push(`config.fairSharing.preemptionStrategies: [${strategies.join(', ')}] must list one or both of LessThanOrEqualToFinalShare, LessThanInitialShare, each once`);
  }
  for (const key of Object.keys(props.extra ?? {}).sort()) {
    if ((MANAGED_CONFIG_KEYS as readonly string[]).includes(key)) {
      problems.push(`config.extra.${key}: the component sets '${key}' itself; use the typed prop (or the component's props) instead`);
    }
  }
  return problems;
}

/** Reconcile workers per kind, as upstream's manager configuration sets them. */
export const GROUP_KIND_CONCURRENCY: Readonly<Record<string, number>> = Object.freeze({
  'Job.batch': 5,
  'Pod': 5,
  'Workload.kueue.x-k8s.io': 10,
  'LocalQueue.kueue.x-k8s.io': 5,
  'Cohort.kueue.x-k8s.io': 1,
  'ClusterQueue.kueue.x-k8s.io': 5,
  'ResourceFlavor.kueue.x-k8s.io': 1,
});

/** The Configuration object, fields in a fixed order. */
export function managerConfiguration(c: KueueManagerConfig): Record<string, unknown> {
  const p = c.props;
  const out: Record<string, unknown> = {
    apiVersion: 'config.kueue.x-k8s.io/v1beta2',
    kind: 'Configuration',
    namespace: c.namespace,
    health: { healthProbeBindAddress: `:${c.healthPort}` },
    metrics: { bindAddress: `:${c.metricsPort}` },
    webhook: { port: c.webhookPort },
    leaderElection: { leaderElect: true, resourceName: c.leaderElectionId },
    // Upstream's reconcile concurrency per kind (config/components/manager at v0.19.2); without
    // it every controller reconciles one object at a time.
    controller: { groupKindConcurrency: { ...GROUP_KIND_CONCURRENCY } },
    clientConnection: { qps: p.clientConnection?.qps ?? 300, burst: p.clientConnection?.burst ?? 500 },
    internalCertManagement: c.internalCertManagement
      ? { enable: true, webhookServiceName: c.webhookServiceName, webhookSecretName: c.webhookSecretName }
      : { enable: false },
    manageJobsWithoutQueueName: p.manageJobsWithoutQueueName ?? false,
  };
  if (p.managedJobsNamespaceSelector) out.managedJobsNamespaceSelector = p.managedJobsNamespaceSelector;
  if (p.waitForPodsReady) {
    const w = p.waitForPodsReady;
    const rs = w.requeuingStrategy;
    out.waitForPodsReady = dropUndefined({
      timeout: w.timeout,
      blockAdmission: w.blockAdmission,
      recoveryTimeout: w.recoveryTimeout,
      requeuingStrategy: rs
        ? dropUndefined({ timestamp: rs.timestamp, backoffLimitCount: rs.backoffLimitCount, backoffBaseSeconds: rs.backoffBaseSeconds, backoffMaxSeconds: rs.backoffMaxSeconds })
        : undefined,
    });
  }
  if (p.fairSharing) out.fairSharing = { preemptionStrategies: [...p.fairSharing.preemptionStrategies] };
  // Upstream's order, so that the rendered list reads like upstream's file.
  out.integrations = { frameworks: KUEUE_INTEGRATIONS.filter((n) => c.integrations.includes(n)) };
  for (const key of Object.keys(p.extra ?? {}).sort()) out[key] = p.extra![key];
  return out;
}

/** controller_manager_config.yaml */
export function renderManagerConfig(c: KueueManagerConfig): string {
  return stringify(managerConfiguration(c), { lineWidth: 0, sortMapEntries: false });
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
