/**
 * PVCViewer (kubeflow.org): a viewer pod (by default a file browser) on one
 * PersistentVolumeClaim, run by the PVC viewer controller as a Deployment with a Service
 * and, with networking, an Istio VirtualService at <basePrefix>/<namespace>/<name>/. The
 * Volumes web app creates one when a user browses a volume.
 * Fields from the Go types at kubeflow/notebooks v1.11.0 (components/pvcviewer-controller/api/v1alpha1).
 */
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const networking = s.object({
  targetPort: s.intOrString().describe('The viewer container\'s port the Service and route lead to.'),
  basePrefix: s.string().describe('Path prefix of the route; the viewer is served at <basePrefix>/<namespace>/<name>/.'),
  rewrite: s.string().describe('What the route rewrites the prefix to (e.g. /); empty keeps the path.'),
  timeout: s.string().describe('Route timeout, as an Istio duration (e.g. 30s).'),
}).named('Networking').describe('How the viewer is reached through the Istio gateway; without it, no VirtualService.');

const spec = s.object({
  pvc: s.string().required().describe('The PersistentVolumeClaim to view, in the PVCViewer\'s namespace.'),
  podSpec: core('V1PodSpec').describe('The viewer pod; when empty the webhook fills it from the controller\'s default pod spec.'),
  networking,
  rwoScheduling: s.boolean().default(false).required().describe('For a ReadWriteOnce claim already mounted by a pod, run the viewer on that pod\'s node.'),
}).named('PVCViewerSpec');

const status = s.object({
  conditions: s.array(core('V1DeploymentCondition')).describe('The conditions of the viewer\'s Deployment.'),
  ready: s.boolean().default(false).required().describe('Whether the viewer serves.'),
  url: s.string().describe('Where the viewer is reached through the gateway, when networking is set.'),
}).named('PVCViewerStatus');

export const pvcViewerCrd: CrdDefinition = {
  group: 'kubeflow.org',
  kind: 'PVCViewer',
  plural: 'pvcviewers',
  singular: 'pvcviewer',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', served: true, storage: true, subresources: { status: true }, schema: s.object({ spec, status }) }],
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' },
};
