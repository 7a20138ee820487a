/**
 * The label the profile controller sets on every profile namespace. Components that act
 * only in tenant namespaces select it (the PodDefault webhook's namespaceSelector).
 */
export const PROFILE_NAMESPACE_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'app.kubernetes.io/part-of': 'kubeflow-profile' });

/** Pod Security admission's level for profile namespaces (upstream's overlays/kubeflow-pss). */
export const POD_SECURITY_ENFORCE_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'pod-security.kubernetes.io/enforce': 'baseline' });

/**
 * The labels the profile controller puts on profile namespaces by default (its
 * namespace-labels.yaml, as kubeflow/dashboard v2.0.0's overlays/kubeflow-pss): the profile
 * label, the opt-ins of Katib's metrics collector injection, KServe and Pipelines, and Pod
 * Security "baseline" enforced. An empty value removes a label.
 */
export const DEFAULT_NAMESPACE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'katib.kubeflow.org/metrics-collector-injection': 'enabled',
  'serving.kubeflow.org/inferenceservice': 'enabled',
  'pipelines.kubeflow.org/enabled': 'true',
  ...PROFILE_NAMESPACE_LABEL,
  ...POD_SECURITY_ENFORCE_LABEL,
});

/** The label the controller sets for Istio sidecar injection (sidecar mode). */
export const ISTIO_INJECTION_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'istio-injection': 'enabled' });
