import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, group, kind, objectName, parentReference, pendingCondition, portNumber, X_GROUP } from './common';
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { labelValue, metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

const acceptedPending = [pendingCondition('Accepted')];

export const inferencePoolAlphaSpec = s.object({
  selector: s.map(labelValue()).required().describe('Labels of the model server pods in the pool.'),
  targetPortNumber: portNumber().required(),
  extensionRef: s.object({
    group: group(''),
    kind: kind('Service'),
    name: objectName().required(),
    portNumber: portNumber(),
    failureMode: s.enum('FailOpen', 'FailClose').default('FailClose'),
  }).named('V1alpha2Extension').required().describe('The endpoint picker extension of the pool.'),
}).named('V1alpha2InferencePoolSpec');

const poolParentStatus = s.object({
  conditions: metav1Conditions({ maxItems: 8 }).default(acceptedPending),
  parentRef: parentReference().named('V1alpha2ParentReference').required(),
}).named('V1alpha2PoolStatus');

/**
 * inference.networking.x-k8s.io/v1alpha2 InferencePool: the experimental pool, a distinct CRD
 * from the v1 one (no conversion). Present up to GIE v1.4.x.
 */
export const inferencePoolAlphaCrd: CrdDefinition = {
  group: X_GROUP,
  kind: 'InferencePool',
  plural: 'inferencepools',
  shortNames: ['xinfpool'],
  scope: CrdScope.NAMESPACED,
  annotations: {
    'api-approved.kubernetes.io': 'unapproved, experimental-only',
    [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION,
  },
  versions: [{
    name: 'v1alpha2',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: inferencePoolAlphaSpec,
      status: s.object({
        parent: s.array(poolParentStatus, { maxItems: 32 }),
      })
        .default({ parent: [{ conditions: acceptedPending, parentRef: { kind: 'Status', name: 'default' } }] })
        .named('V1alpha2InferencePoolStatus'),
    }),
  }],
};
