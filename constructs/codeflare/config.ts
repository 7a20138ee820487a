import { stringify } from 'yaml';

/** The settings of codeflare-operator-config that the component derives from its props. */
export interface CodeFlareConfigSettings {
  readonly metricsPort: number;
  readonly healthPort: number;
  readonly namespace: string;
  /** Lease name when leader election is on. */
  readonly leaderElectionId?: string;
  readonly rayDashboardOAuth: boolean;
  readonly mTls: boolean;
  /** '' lets the operator read the domain from OpenShift's cluster Ingress configuration. */
  readonly ingressDomain: string;
  readonly appWrapper: boolean;
  /** API client rate limits. */
  readonly qps: number;
  readonly burst: number;
}

/**
 * The operator's configuration file (config.yaml of codeflare-operator-config): the
 * controller-manager settings inline at the top level, `kuberay` for the RayCluster
 * extensions and `appwrapper` for the embedded AppWrapper controller.
 */
export function codeFlareConfigDocument(s: CodeFlareConfigSettings): Record<string, unknown> {
  return {
    clientConnection: { qps: s.qps, burst: s.burst },
    metrics: { bindAddress: `:${s.metricsPort}` },
    health: { bindAddress: `:${s.healthPort}`, readinessEndpointName: 'readyz', livenessEndpointName: 'healthz' },
    // component-base LeaderElectionConfiguration; the operator passes its durations to the
    // manager as they are, so they are spelled out when election is on.
    leaderElection: s.leaderElectionId
      ? {
        leaderElect: true,
        resourceLock: 'leases',
        resourceName: s.leaderElectionId,
        resourceNamespace: s.namespace,
        leaseDuration: '15s',
        renewDeadline: '10s',
        retryPeriod: '2s',
      }
      : { leaderElect: false },
    kuberay: { rayDashboardOAuthEnabled: s.rayDashboardOAuth, ingressDomain: s.ingressDomain, mTLSEnabled: s.mTls },
    appwrapper: { enabled: s.appWrapper },
  };
}

export function renderCodeFlareConfig(doc: Record<string, unknown>): string {
  return stringify(doc, { lineWidth: 0 });
}
