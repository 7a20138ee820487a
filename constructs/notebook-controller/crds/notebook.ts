/**
 * Notebook (kubeflow.org): a workbench, run by the notebook controller as a StatefulSet of
 * one pod with a Service (and an Istio VirtualService when Istio is on).
 *
 * Upstream serves v1 (storage), v1beta1 and v1alpha1 with one schema and conversion None.
 * Its install patches the generated CRD (kustomize JSON6902, all three versions): the pod
 * template needs at least one container, each with a name and an image. We render the
 * schema as installed, with that patch applied.
 */
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** The pod spec of a Notebook: a core PodSpec whose containers must name an image. */
const notebookPodSpec = core('V1PodSpec').extend({
  containers: s.array(core('V1Container').extend({ image: s.string().required() }), { minItems: 1 })
    .required()
    .describe('The workbench container first, then any sidecars; at least one, each with a name and an image.'),
});

const notebookSpec = s.object({
  template: s.object({
    spec: notebookPodSpec,
  }).named('NotebookTemplateSpec').describe('The pod the controller runs for this notebook.'),
}).named('NotebookSpec');

const notebookCondition = s.object({
  lastProbeTime: s.dateTime().describe('When the condition was last probed.'),
  lastTransitionTime: s.dateTime().describe('When the condition last changed status.'),
  message: s.string(),
  reason: s.string(),
  status: s.string().required(),
  type: s.string().required(),
}).named('NotebookCondition');

const notebookStatus = s.object({
  conditions: s.array(notebookCondition).required().describe('Conditions copied from the notebook pod.'),
  containerState: core('V1ContainerState').required().describe('State of the workbench container.'),
  readyReplicas: s.int32().required().describe('Ready replicas of the StatefulSet (0 or 1).'),
}).named('NotebookStatus');

const schema = s.object({ spec: notebookSpec, status: notebookStatus });

const version = (name: string, storage: boolean): CrdVersion => ({
  name,
  served: true,
  storage,
  subresources: { status: true },
  schema,
});

export const notebookCrd: CrdDefinition = {
  group: 'kubeflow.org',
  kind: 'Notebook',
  plural: 'notebooks',
  singular: 'notebook',
  scope: CrdScope.NAMESPACED,
  versions: [version('v1', true), version('v1alpha1', false), version('v1beta1', false)],
  conversion: { strategy: 'None' },
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' },
};
