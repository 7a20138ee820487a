import { Duration } from 'cdk8s';
import { stringify } from 'yaml';
import { checkDnsSubdomain } from '../../lib/validation/names';

/**
 * How the AppWrapper controller retries and cleans up (the `appwrapper.faultTolerance`
 * section of its configuration). Unset fields keep the controller's defaults.
 */
export interface AppWrapperFaultTolerance {
  /** How long pods may stay unscheduled after admission before the AppWrapper is reset. @default 1 minute */
  readonly admissionGracePeriod?: Duration;
  /** How long after deployment failures are tolerated while pods start. @default 5 minutes */
  readonly warmupGracePeriod?: Duration;
  /** How long a failure may last before the AppWrapper is reset. @default 1 minute */
  readonly failureGracePeriod?: Duration;
  /** Pause between deleting the resources of a failed attempt and the next one (upstream key `resetPause`). @default 90 seconds */
  readonly retryPausePeriod?: Duration;
  /** How many resets before the AppWrapper fails for good. @default 3 */
  readonly retryLimit?: number;
  /** How long to wait for a graceful delete before deleting forcefully. @default 10 minutes */
  readonly deletionGracePeriod?: Duration;
  /** Upper bound of every grace period above (users may lower them by annotation). @default 24 hours */
  readonly gracePeriodCeiling?: Duration;
  /** Upper bound of how long a succeeded AppWrapper is kept (upstream key `successTTLCeiling`). @default 7 days */
  readonly successTtlCeiling?: Duration;
}

/** What a platform team sets in the AppWrapper controller's configuration. */
export interface AppWrapperConfigProps {
  /**
   * Kueue integration: new AppWrappers are suspended until Kueue admits them. Kueue's own
   * AppWrapper integration must then be enabled in the platform.
   * @default true
   */
  readonly kueueIntegration?: boolean;
  /** LocalQueue given to AppWrappers that name none. @default - none */
  readonly defaultQueueName?: string;
  /** LocalQueue used for AppWrappers that tolerate degraded (tainted) nodes. @default - none */
  readonly slackQueueName?: string;
  /** schedulerName set on the pods of wrapped components. @default - the default scheduler */
  readonly schedulerName?: string;
  /**
   * The admission webhook checks with a SubjectAccessReview that the user may create every
   * wrapped object.
   * @default true
   */
  readonly userRbacAdmissionCheck?: boolean;
  /** Watch node health (Autopilot labels and taints) and move workloads off bad nodes. @default true */
  readonly monitorNodes?: boolean;
  readonly faultTolerance?: AppWrapperFaultTolerance;
}

/** The controller-manager part of the configuration, fixed by the component. */
export interface AppWrapperManagerSettings {
  readonly healthPort: number;
  readonly metricsPort: number;
  readonly leaderElection: boolean;
}

const DEFAULT_FAULT_TOLERANCE = {
  admissionGracePeriod: Duration.minutes(1),
  warmupGracePeriod: Duration.minutes(5),
  failureGracePeriod: Duration.minutes(1),
  retryPausePeriod: Duration.seconds(90),
  deletionGracePeriod: Duration.minutes(10),
  gracePeriodCeiling: Duration.hours(24),
  successTtlCeiling: Duration.days(7),
};

/** Upstream's JSON keys of the fault tolerance durations. */
const FAULT_TOLERANCE_KEYS: Record<keyof typeof DEFAULT_FAULT_TOLERANCE, string> = {
  admissionGracePeriod: 'admissionGracePeriod',
  warmupGracePeriod: 'warmupGracePeriod',
  failureGracePeriod: 'failureGracePeriod',
  retryPausePeriod: 'resetPause',
  deletionGracePeriod: 'deletionGracePeriod',
  gracePeriodCeiling: 'gracePeriodCeiling',
  successTtlCeiling: 'successTTLCeiling',
};

/** A Go time.Duration in JSON: integer nanoseconds (a string like "1m" does not parse). */
const nanos = (d: Duration): number => d.toMilliseconds() * 1e6;

/**
 * Checks the configuration as the controller does at start (an invalid one makes it exit,
 * so the pod crash-loops); `where` prefixes each message (the construct path).
 */
export function validateAppWrapperConfig(where: string, props: AppWrapperConfigProps): void {
  for (const [prop, value] of [['defaultQueueName', props.defaultQueueName], ['slackQueueName', props.slackQueueName]] as const) {
    if (value === undefined) continue;
    const problem = checkDnsSubdomain(value);
    if (problem) throw new Error(`${where}: ${prop} '${value}' must name a LocalQueue: ${problem}`);
  }
  const ft = props.faultTolerance ?? {};
  if (ft.retryLimit !== undefined && (!Number.isInteger(ft.retryLimit) || ft.retryLimit < 0)) {
    throw new Error(`${where}: faultTolerance.retryLimit ${ft.retryLimit} must be a whole number >= 0`);
  }
  const eff = { ...DEFAULT_FAULT_TOLERANCE, ...Object.fromEntries(Object.entries(ft).filter(([k, v]) => k !== 'retryLimit' && v !== undefined)) } as typeof DEFAULT_FAULT_TOLERANCE;
  const show = (k: keyof typeof DEFAULT_FAULT_TOLERANCE) => `faultTolerance.${k} (${eff[k].toHumanString()})`;
  for (const k of ['deletionGracePeriod', 'retryPausePeriod', 'failureGracePeriod', 'admissionGracePeriod', 'warmupGracePeriod'] as const) {
    if (nanos(eff[k]) > nanos(eff.gracePeriodCeiling)) {
      throw new Error(`${where}: ${show(k)} exceeds ${show('gracePeriodCeiling')}; the controller rejects this configuration and exits: lower ${k} or raise gracePeriodCeiling`);
    }
  }
  if (nanos(eff.admissionGracePeriod) > nanos(eff.warmupGracePeriod)) {
    throw new Error(`${where}: ${show('admissionGracePeriod')} exceeds ${show('warmupGracePeriod')}; the controller rejects this configuration and exits: lower admissionGracePeriod or raise warmupGracePeriod`);
  }
  if (nanos(eff.successTtlCeiling) <= 0) {
    throw new Error(`${where}: faultTolerance.successTtlCeiling (${eff.successTtlCeiling.toHumanString()}) must be a positive duration`);
  }
}

/**
 * The controller's configuration file (config.yaml of its ConfigMap): upstream's default
 * install settings plus what the props set. The controller fills in its defaults for
 * every field left out.
 */
export function appWrapperConfigDocument(props: AppWrapperConfigProps, manager: AppWrapperManagerSettings): Record<string, unknown> {
  const appwrapper: Record<string, unknown> = { enableKueueIntegrations: props.kueueIntegration ?? true };
  if (props.defaultQueueName !== undefined) appwrapper.defaultQueueName = props.defaultQueueName;
  if (props.slackQueueName !== undefined) appwrapper.slackQueueName = props.slackQueueName;
  if (props.schedulerName !== undefined) appwrapper.schedulerName = props.schedulerName;
  if (props.userRbacAdmissionCheck !== undefined) appwrapper.userRBACAdmissionCheck = props.userRbacAdmissionCheck;
  if (props.monitorNodes !== undefined) appwrapper.autopilot = { monitorNodes: props.monitorNodes };
  const ft = props.faultTolerance;
  if (ft) {
    const out: Record<string, number> = {};
    for (const [k, key] of Object.entries(FAULT_TOLERANCE_KEYS)) {
      const d = (ft as Record<string, Duration | undefined>)[k];
      if (d !== undefined) out[key] = nanos(d);
    }
    if (ft.retryLimit !== undefined) out.retryLimit = ft.retryLimit;
    if (Object.keys(out).length) appwrapper.faultTolerance = out;
  }
  return {
    appwrapper,
    controllerManager: {
      health: { bindAddress: `:${manager.healthPort}` },
      metrics: { bindAddress: `:${manager.metricsPort}` },
      leaderElection: manager.leaderElection,
    },
  };
}

/** The document as the ConfigMap's config.yaml. */
export function renderAppWrapperConfig(doc: Record<string, unknown>): string {
  return stringify(doc, { lineWidth: 0 });
}
