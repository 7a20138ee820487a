import { FactKind } from '../../../lib/parity';
import type { KnownDefect } from '../known-defects';

const F = FactKind;

/** Known differences from upstream's workload-variant-autoscaler install (see ../known-defects.ts). */
export const KNOWN_WORKLOAD_VARIANT_AUTOSCALER: readonly KnownDefect[] = [
  { install: 'workload-variant-autoscaler', defect: 'WVA-SATCFG', fact: { kind: F.CONFIGMAP, object: 'workload-variant-autoscaler-saturation-scaling-config', status: 'missing' }, note: 'the saturation scaling ConfigMap the controller reads is not shipped' },
  { install: 'workload-variant-autoscaler', defect: 'UNTRIAGED', fact: { kind: F.CONFIGMAP_KEY, object: 'workload-variant-autoscaler-wva-variantautoscaling-config', status: 'missing' }, items: ['GLOBAL_OPT_INTERVAL', 'PROMETHEUS_METRICS_CACHE_CLEANUP_INTERVAL', 'PROMETHEUS_METRICS_CACHE_ENABLED', 'PROMETHEUS_METRICS_CACHE_FETCH_INTERVAL', 'PROMETHEUS_METRICS_CACHE_FRESH_THRESHOLD', 'PROMETHEUS_METRICS_CACHE_MAX_SIZE', 'PROMETHEUS_METRICS_CACHE_STALE_THRESHOLD', 'PROMETHEUS_METRICS_CACHE_TTL', 'PROMETHEUS_METRICS_CACHE_UNAVAILABLE_THRESHOLD'], note: 'configmap-key upstream has, we lack' },
  { install: 'workload-variant-autoscaler', defect: 'UNTRIAGED', fact: { kind: F.RBAC, object: 'Deployment/workload-variant-autoscaler-controller-manager', status: 'extra' }, items: ['inference.networking.k8s.io|inferencepools|get', 'inference.networking.k8s.io|inferencepools|list', 'inference.networking.k8s.io|inferencepools|watch'], note: 'rbac we add, upstream has not' },
];
