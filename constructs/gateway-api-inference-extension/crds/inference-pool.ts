import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, group, GROUP, kind, objectName, parentStatus, portNumber } from './common';
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { labelValue } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

const port = s.object({ number: portNumber().required() }).named('Port');

/** The Endpoint Picker (EPP) service a gateway consults to pick an endpoint of the pool. */
export const endpointPickerRef = s.object({
  group: group('', { minLength: 0 }),
  kind: kind('Service'),
  name: objectName().required(),
  port: port.describe('Port of the EPP service; required when kind is Service.'),
  failureMode: s.enum('FailOpen', 'FailClose').default('FailClose').describe('What the gateway does when the EPP is unreachable.'),
})
  .rule("(has(self.kind) && self.kind != 'Service') || has(self.port)", 'port is required when kind is Service or unset')
  .named('EndpointPickerRef');

export const inferencePoolSpec = s.object({
  selector: s.object({
    // At least one label: an empty selector would put every pod of the namespace in the pool.
    matchLabels: s.map(labelValue(), { minProperties: 1, maxProperties: 64 }).required(),
  }).named('LabelSelector').required().describe('Labels of the model server pods in the pool.'),
  targetPorts: s.array(port, { minItems: 1, maxItems: 8, listType: 'atomic' })
    .rule('self.all(p1, self.exists_one(p2, p1.number == p2.number))', 'port numbers must be unique')
    .required()
    .describe('Ports the model servers listen on.'),
  appProtocol: s.enum('http', 'kubernetes.io/h2c').default('http').describe('Protocol the gateway speaks to the model servers.'),
  endpointPickerRef: endpointPickerRef.required(),
}).named('InferencePoolSpec');

/** inference.networking.k8s.io/v1 InferencePool: the GA pool of model server pods behind an EPP. */
export const inferencePoolCrd: CrdDefinition = {
  group: GROUP,
  kind: 'InferencePool',
  plural: 'inferencepools',
  shortNames: ['infpool'],
  scope: CrdScope.NAMESPACED,
  annotations: {
    'api-approved.kubernetes.io': 'https://github.com/kubernetes-sigs/gateway-api-inference-extension/pull/1173',
    [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION,
  },
  versions: [{
    name: 'v1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: inferencePoolSpec.required(),
      status: s.object({
        parents: s.array(parentStatus, { maxItems: 32, listType: 'atomic' }),
      }).named('InferencePoolStatus'),
    }),
  }],
};
