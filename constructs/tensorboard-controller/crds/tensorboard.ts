/**
 * Tensorboard (tensorboard.kubeflow.org): a TensorBoard server on the logs at spec.logspath
 * (a path in a PersistentVolumeClaim, `pvc://<claim>/<path>`, or an object store URL), run
 * by the TensorBoard controller as a Deployment with a Service and an Istio VirtualService.
 * Fields from the Go types at kubeflow/notebooks v1.11.0 (components/tensorboard-controller/api/v1alpha1).
 */
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const tensorboardCondition = s.object({
  deploymentState: s.string().required().describe('The state of the server\'s Deployment: Available, Progressing or ReplicaFailure.'),
  lastProbeTime: s.dateTime().describe('When the controller last looked.'),
}).named('TensorboardCondition');

const schema = s.object({
  spec: s.object({
    logspath: s.string().required().describe('Where the logs are: pvc://<claim>/<path> for a volume, or an object store URL (gs://, s3://).'),
  }).named('TensorboardSpec'),
  status: s.object({
    conditions: s.array(tensorboardCondition).required().describe('The Deployment\'s states, newest last.'),
    readyReplicas: s.int32().required().describe('Servers ready to serve (0 or 1).'),
  }).named('TensorboardStatus'),
});

export const tensorboardCrd: CrdDefinition = {
  group: 'tensorboard.kubeflow.org',
  kind: 'Tensorboard',
  plural: 'tensorboards',
  singular: 'tensorboard',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', served: true, storage: true, subresources: { status: true }, schema }],
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' },
};
