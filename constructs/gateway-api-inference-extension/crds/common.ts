import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

/** The GIE release whose CRDs these schemas model. */
export const BUNDLE_VERSION = 'v1.4.0';
export const BUNDLE_VERSION_ANNOTATION = 'inference.networking.k8s.io/bundle-version';

export const GROUP = 'inference.networking.k8s.io';
export const X_GROUP = 'inference.networking.x-k8s.io';

/** Gateway API style patterns (Group, Kind, Namespace, GatewayController). */
export const GROUP_PATTERN = '^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
export const KIND_PATTERN = '^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$';
export const NAMESPACE_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const CONTROLLER_NAME_PATTERN =
  "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$";

export const group = (dflt: string, o: { minLength?: number } = {}) =>
  s.string({ minLength: o.minLength, maxLength: 253, pattern: GROUP_PATTERN }).default(dflt);
export const kind = (dflt: string) => s.string({ minLength: 1, maxLength: 63, pattern: KIND_PATTERN }).default(dflt);
export const objectName = () => s.string({ minLength: 1, maxLength: 253 });
export const portNumber = () => s.int32({ minimum: 1, maximum: 65535 });
export const controllerName = () => s.string({ minLength: 1, maxLength: 253, pattern: CONTROLLER_NAME_PATTERN });

/** The condition a controller has not yet written: what the API server defaults status to. */
export function pendingCondition(type: string) {
  return {
    lastTransitionTime: '1970-01-01T00:00:00Z',
    message: 'Waiting for controller',
    reason: 'Pending',
    status: 'Unknown',
    type,
  };
}

/** A reference to the InferencePool an objective or rewrite applies to (same namespace). */
export const poolObjectReference = s.object({
  group: group(GROUP),
  kind: kind('InferencePool'),
  name: objectName().required(),
}).named('PoolObjectReference');

/** The Gateway (or other parent) a pool's status entry belongs to. */
export function parentReference(o: { groupMinLength?: number } = {}) {
  return s.object({
    group: group('gateway.networking.k8s.io', { minLength: o.groupMinLength }),
    kind: kind('Gateway'),
    name: objectName().required(),
    namespace: s.string({ minLength: 1, maxLength: 63, pattern: NAMESPACE_PATTERN }),
  });
}

/** The status of an InferencePool (or import) as seen by one parent (inference.networking.k8s.io/v1 form). */
export const parentStatus = s.object({
  conditions: metav1Conditions({ maxItems: 8 }),
  controllerName: controllerName(),
  parentRef: parentReference({ groupMinLength: 0 }).named('ParentReference').required(),
}).named('ParentStatus');
