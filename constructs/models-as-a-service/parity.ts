import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, networkPolicyDeviation, rbacItems } from '../../lib/parity-items';

const MANAGER = 'Deployment/maas-controller';

/** Models-as-a-Service's differences from upstream's v0.2.1 install (maas-controller/default), on purpose. */
export const MAAS_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  networkPolicyDeviation('maas-controller-allow-monitoring', 'missing', DeviationCategory.PLATFORM_INTEGRATION,
    'upstream admits the plain-HTTP metrics port from redhat-ods-monitoring; the platform\'s metrics fence (lib/controller.ts, maas-controller-metrics-fence) admits it from the platform\'s monitoring namespace instead.'),
  {
    fact: { kind: FactKind.PORT, object: `${MANAGER} container manager`, item: '9443/TCP', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'the webhook server port (controller-runtime\'s default 9443, which v0.2.1\'s webhooks are served on), declared so that the webhook Service and network policy refer to a named port.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'extra' }, rbacItems('cert-manager.io', ['certificates'], ['create', 'delete', 'get', 'list', 'patch', 'watch']), DeviationCategory.NEWER_UPSTREAM_FIX,
    'upstream\'s install deploys the odh-stable image, built from branch stable, whose tenant controller manages cert-manager Certificates (its kubebuilder marker there); v0.2.1\'s generated role predates it.'),
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'maas.opendatahub.io|maastenantconfigs/finalizers|update', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'lib/controller.ts grants update on the finalizers of a CRD the controller owns (check MLP030), which lets it set owner references that block deletion.',
  },
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'maas.opendatahub.io|configs|get', status: 'differs', actual: 'cluster names default' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'Config is a singleton: v0.2.1\'s CRD admits only the name default (ConfigInstanceName) and the controller gets and creates only that one; list and watch stay cluster-wide for its informer.',
  },
];
