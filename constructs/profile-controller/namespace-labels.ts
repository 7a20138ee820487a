/**
 * The label the profile controller sets on every profile namespace. Components that act
 * only in tenant namespaces select it (the PodDefault webhook's namespaceSelector).
 */
export const PROFILE_NAMESPACE_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'app.kubernetes.io/part-of': 'kubeflow-profile' });

/**
 * The labels the profile controller puts on profile namespaces by default (its
 * namespace-labels.yaml): the profile label, and the opt-ins of Katib's metrics collector
 * injection, KServe and Pipelines. An empty value removes a label.
 */
export const DEFAULT_NAMESPACE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'katib.kubeflow.org/metrics-collector-injection': 'enabled',
  'serving.kubeflow.org/inferenceservice': 'enabled',
  'pipelines.kubeflow.org/enabled': 'true',
  ...PROFILE_NAMESPACE_LABEL,
});

/** The label the controller sets for Istio sidecar injection (sidecar mode). */
export const ISTIO_INJECTION_LABEL: Readonly<Record<string, string>> = Object.freeze({ 'istio-injection': 'enabled' });
