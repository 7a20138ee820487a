import { CODEFLARE_APPWRAPPER_RULES, CODEFLARE_OAUTH_RULES, CODEFLARE_OPENSHIFT_RULES } from './rbac';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';
import { PolicyRule } from '../../lib/rbac';

const MANAGER = 'Deployment/codeflare-operator-manager';

/** The options that leave parts of upstream's install out. */
export interface CodeFlareParityOptions {
  readonly openShift: boolean;
  readonly oauth: boolean;
  readonly appWrapper: boolean;
  readonly leaderElection: boolean;
  /** The rules the operator is granted with these options. */
  readonly rules: readonly PolicyRule[];
}

const pairs = (rules: readonly PolicyRule[]) => rules.flatMap((r) => (r.apiGroups ?? []).flatMap((g) => (r.resources ?? []).map((res) => `${g}|${res}`)));

/**
 * The CodeFlare operator's differences from upstream's default install (v1.16.0
 * config/default): upstream grants the rules of every optional part (OpenShift Routes, the
 * OAuth proxy, the embedded AppWrapper controller); here they follow the options.
 */
export function codeFlareParityDeviations(o: CodeFlareParityOptions): ParityDeviation[] {
  const granted = new Set(pairs(o.rules));
  const off: Array<[boolean, readonly PolicyRule[], string]> = [
    [o.openShift, CODEFLARE_OPENSHIFT_RULES, 'openShift is false: Routes and the cluster Ingress configuration exist only on OpenShift, and the operator uses them only there (it creates Ingresses and takes the domain from ingressDomain).'],
    [o.oauth, CODEFLARE_OAUTH_RULES, 'rayDashboardOAuth is false: the operator binds the OAuth proxy\'s ClusterRoleBindings (and needs token and access reviews to grant system:auth-delegator) only when it deploys the proxy.'],
    [o.appWrapper, [...CODEFLARE_APPWRAPPER_RULES, { apiGroups: ['workload.codeflare.dev'], resources: ['appwrappers', 'appwrappers/status', 'appwrappers/finalizers'], verbs: ['*'] }],
      'appWrapper is false: AppWrappers are run by the AppWrapper component\'s own operator (one AppWrapper controller per cluster), so the embedded controller is not started and needs none of the kinds it wraps.'],
  ];
  const out: ParityDeviation[] = [];
  const seen = new Set<string>();
  for (const [on, rules, reason] of off) {
    if (on) continue;
    for (const p of pairs(rules)) {
      if (granted.has(p) || seen.has(p)) continue;
      seen.add(p);
      out.push({ fact: { kind: FactKind.RBAC, object: MANAGER, item: `${p}|*`, status: 'missing' }, category: DeviationCategory.NOT_INSTALLED, reason });
    }
  }
  if (!o.appWrapper) {
    const reason = off[2][2];
    out.push(
      { fact: { kind: FactKind.WEBHOOK, object: 'mutating mappwrapper.kb.io', status: 'missing' }, category: DeviationCategory.NOT_INSTALLED, reason },
      { fact: { kind: FactKind.WEBHOOK, object: 'validating vappwrapper.kb.io', status: 'missing' }, category: DeviationCategory.NOT_INSTALLED, reason },
    );
  }
  if (!o.leaderElection) {
    out.push({
      fact: { kind: FactKind.RBAC, object: MANAGER, item: 'coordination.k8s.io|leases|*', status: 'missing' },
      category: DeviationCategory.SCOPED_RBAC,
      reason: 'leaderElection is false, as in upstream\'s default configuration (v1.16.0 main.go leaves LeaderElect unset, i.e. off), so the leader-election Role upstream binds is never used.',
    });
  }
  out.push(
    ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, rbacItems('', ['configmaps'], ['delete', 'list', 'patch', 'update', 'watch']), DeviationCategory.SCOPED_RBAC,
      'the operator only gets its configuration ConfigMap and creates it when absent (v1.16.0 main.go loadIntoOrCreate); the other ConfigMap verbs come from upstream\'s leader-election Role, and leader election uses Leases.'),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'codeflare-operator-stack-config', status: 'missing' },
      category: DeviationCategory.NOT_INSTALLED,
      reason: 'upstream\'s stack-config ConfigMap is a kustomize replacement source for the manager image (config/manager/kustomization.yaml): no container mounts or reads it.',
    },
  );
  return out;
}
