import { s } from './dsl';

/** metav1.Condition, as controller-gen renders it (patterns and limits of the Go type). */
export function metav1Condition() {
  return s.object({
    lastTransitionTime: s.dateTime().required(),
    message: s.string({ maxLength: 32768 }).required(),
    observedGeneration: s.int64({ minimum: 0 }),
    reason: s.string({ minLength: 1, maxLength: 1024, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }).required(),
    status: s.enum('True', 'False', 'Unknown').required(),
    type: s.string({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }).required(),
  }).named('Condition');
}

/** A list of metav1.Condition keyed by type. */
export function metav1Conditions(opts: { maxItems?: number } = {}) {
  return s.array(metav1Condition(), { listType: 'map', listMapKeys: ['type'], maxItems: opts.maxItems });
}

/**
 * metav1.ObjectMeta embedded in a template (a Job or pod template inside a custom
 * resource), as controller-gen renders it: only the fields a template may set.
 */
export function embeddedObjectMeta() {
  return s.object({
    annotations: s.stringMap(),
    finalizers: s.array(s.string()),
    labels: s.stringMap(),
    name: s.string(),
    namespace: s.string(),
  }).named('EmbeddedObjectMeta');
}

/** The syntax of a Kubernetes label value (empty, or at most 63 characters of [A-Za-z0-9-_.], alphanumeric at both ends), as upstream CRDs spell it. */
export const LABEL_VALUE_PATTERN = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';

/** A label value, validated as the API server validates labels. */
export function labelValue() {
  return s.string({ minLength: 0, maxLength: 63, pattern: LABEL_VALUE_PATTERN });
}
