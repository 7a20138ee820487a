import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations } from '../../lib/parity-items';

const MANAGER = 'Deployment/llama-stack-k8s-operator-controller-manager';
const METRICS_SERVICE = 'llama-stack-k8s-operator-controller-manager-metrics-service';
const PLAIN_METRICS = 'v0.9.0\'s main.go serves controller-runtime metrics over plain HTTP on :8080 (no secure serving, and the kube-rbac-proxy patch is not in its default install), so upstream\'s https 8443 Service port reaches nothing; ours targets the port the manager serves.';

/** The Llama Stack operator's differences from upstream's v0.9.0 install (config/default), on purpose. */
export const LLAMA_STACK_OPERATOR_PARITY_DEVIATIONS: readonly ParityDeviation[] = [
  {
    fact: { kind: FactKind.ARG, object: `${MANAGER} container manager`, item: '--health-probe-bind-address=:8081', status: 'extra' },
    category: DeviationCategory.PLATFORM_INTEGRATION,
    reason: 'states main.go\'s own default (:8081) so that the probes and the declared health port cannot drift apart.',
  },
  { fact: { kind: FactKind.PORT, object: `${MANAGER} container manager`, item: '8080/TCP', status: 'extra' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: PLAIN_METRICS },
  { fact: { kind: FactKind.SERVICE_PORT, object: METRICS_SERVICE, item: '8080/TCP', status: 'extra' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: PLAIN_METRICS },
  { fact: { kind: FactKind.SERVICE_PORT, object: METRICS_SERVICE, item: '8443/TCP', status: 'missing' }, category: DeviationCategory.PLATFORM_INTEGRATION, reason: PLAIN_METRICS },
  ...itemDeviations({ kind: FactKind.RBAC, object: MANAGER, status: 'missing' }, ['authentication.k8s.io|tokenreviews|create', 'authorization.k8s.io|subjectaccessreviews|create'], DeviationCategory.SCOPED_RBAC,
    'upstream grants these for authenticated metrics, which v0.9.0\'s manager does not serve (plain HTTP metrics, no kube-rbac-proxy in the default install): nothing reviews tokens.'),
  {
    fact: { kind: FactKind.RBAC, object: MANAGER, item: 'security.openshift.io|securitycontextconstraints|use', status: 'missing' },
    category: DeviationCategory.SCOPED_RBAC,
    reason: 'no code at v0.9.0 uses or binds a SecurityContextConstraints (the grant comes from a kubebuilder marker only); with openShift the construct grants use of anyuid alone, as upstream\'s named rule does.',
  },
  {
    fact: { kind: FactKind.CONFIGMAP, object: 'llama-stack-k8s-operator-manager-config', status: 'missing' },
    category: DeviationCategory.NOT_INSTALLED,
    reason: 'the scaffold ControllerManagerConfig file is mounted nowhere and main.go has no flag to read it (v0.9.0 takes its settings from flags); the operator creates the config ConfigMap it does read itself.',
  },
];
