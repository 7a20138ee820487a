import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

const OPERATOR = 'Deployment/kuberay-operator';
const CONTAINER = `${OPERATOR} container kuberay-operator`;
const GATES_REASON = 'RayCronJob (alpha, off by default at v1.7.0) is turned on so that the RayCronJob CRD the component installs is reconciled; RayClusterStatusConditions stays on as upstream sets it.';

/** KubeRay's differences from upstream's default install (v1.7.0 ray-operator/config/default), on purpose. */
export const KUBERAY_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  ...['liveness', 'readiness'].map((type) => valueDeviation({ kind: FactKind.PROBE, object: CONTAINER, item: type }, 'httpGet HTTP :8080/metrics',
    DeviationCategory.PLATFORM_INTEGRATION, 'the Controller probes the operator\'s health endpoints (/healthz, /readyz on its health probe port 8082) rather than its metrics page, which answers while the manager is not ready.')),
  { fact: { kind: FactKind.ARG, object: CONTAINER, item: '--feature-gates=RayClusterStatusConditions=true', status: 'missing' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: GATES_REASON },
  { fact: { kind: FactKind.ARG, object: CONTAINER, item: '--feature-gates=RayClusterStatusConditions=true,RayCronJob=true', status: 'extra' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: GATES_REASON },
  ...itemDeviations({ kind: FactKind.ARG, object: CONTAINER, status: 'extra' }, ['--health-probe-bind-address=:8082', '--metrics-addr=:8080'], DeviationCategory.PLATFORM_INTEGRATION,
    'the flag states the value v1.7.0 defaults to (apis/config/v1alpha1 DefaultProbeAddr ":8082", DefaultMetricsAddr ":8080"), so that the probes and Service the construct emits visibly match what the operator serves.'),
  {
    fact: { kind: FactKind.PORT, object: CONTAINER, item: '8082/TCP', status: 'extra' },
    category: DeviationCategory.HARDENING,
    reason: 'the health probe port (8082, v1.7.0\'s default) is declared as a named container port, so that the probes and checks refer to a declared port.',
  },
  ...itemDeviations({ kind: FactKind.RBAC, object: OPERATOR, status: 'missing' }, rbacItems('', ['configmaps'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']), DeviationCategory.SCOPED_RBAC,
    'upstream\'s leader-election Role grants ConfigMaps, but v1.7.0 (controller-runtime v0.24) locks with Leases only, which the Controller grants in the operator\'s namespace.'),
];
