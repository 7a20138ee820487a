import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

const MANAGER = 'Deployment/workload-variant-autoscaler-controller-manager';
const CONFIG = 'workload-variant-autoscaler-wva-variantautoscaling-config';

/** The workload-variant-autoscaler's differences from upstream's v0.5.1 install, on purpose. */
export const WVA_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  valueDeviation({ kind: FactKind.CONFIGMAP_KEY, object: CONFIG, item: 'PROMETHEUS_BASE_URL' }, 'https://kube-prometheus-stack-prometheus.workload-variant-autoscaler-monitoring.svc.cluster.local:9090',
    DeviationCategory.PLATFORM_INTEGRATION, 'the Prometheus the autoscaler queries is the platform\'s (prop prometheusUrl), not the kube-prometheus-stack release upstream\'s quickstart installs.'),
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'extra' }, rbacItems('inference.networking.k8s.io', ['inferencepools'], ['get', 'list', 'watch']), DeviationCategory.SCOPED_RBAC,
    'v0.5.1\'s cmd/main.go always starts an InferencePool reconciler that gets and watches the pools of POOL_GROUP; the release\'s Helm chart grants this read, its kustomize role (the facts) omits it.'),
];
