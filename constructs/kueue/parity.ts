import { INTEGRATIONS, KueueIntegration, UPSTREAM_DEFAULT_INTEGRATIONS } from './integrations';
import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { valueDeviation } from '../../lib/parity-items';

/**
 * Kueue's differences from upstream's default install, for the enabled integrations:
 * upstream registers the webhooks and grants the manager's rules of every integration its
 * default configuration enables; here both follow the integrations enabled.
 */
export function kueueParityDeviations(enabled: readonly KueueIntegration[]): ParityDeviation[] {
  const config = valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: 'kueue-manager-config', item: 'controller_manager_config.yaml' },
    'sha256:e4474ef018ee11c11ed574abe0d9d8ab2f9c95d7ea2aaccd908d9dbfbe39038b', DeviationCategory.PLATFORM_INTEGRATION,
    'the configuration lists the enabled integrations (those of the platform\'s components) and states the namespace, the certificate settings and manageJobsWithoutQueueName that upstream leaves to defaults.');
  return [config, ...UPSTREAM_DEFAULT_INTEGRATIONS.filter((n) => !enabled.includes(n)).flatMap((n) => {
    const i = INTEGRATIONS[n];
    const reason = `integration ${n} is not enabled: Kueue's webhooks and manager rules follow the enabled integrations (enable it with integrations).`;
    const kind = i.kind.toLowerCase();
    return [
      { fact: { kind: FactKind.WEBHOOK, object: `mutating m${kind}.kb.io`, status: 'missing' as const }, category: DeviationCategory.NOT_INSTALLED, reason },
      { fact: { kind: FactKind.WEBHOOK, object: `validating v${kind}.kb.io`, status: 'missing' as const }, category: DeviationCategory.NOT_INSTALLED, reason },
      ...(i.managerRules.length
        ? [{ fact: { kind: FactKind.RBAC, object: 'Deployment/kueue-controller-manager', item: `${i.group}|${i.resource}*`, status: 'missing' as const }, category: DeviationCategory.NOT_INSTALLED, reason }]
        : []),
    ];
  })];
}
