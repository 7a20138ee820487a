import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const KUBEFLOW_GROUP = 'kubeflow.org';

const opaque = () => s.object({}, { preserveUnknownFields: true, mapType: 'atomic' });

/**
 * A recurring run: the scheduled-workflow controller creates an Argo Workflow on each cron
 * or periodic trigger. Upstream's CRD is hand-written and schema-less (spec and status
 * opaque), v1beta1 only.
 */
export const scheduledWorkflowCrd: CrdDefinition = {
  group: KUBEFLOW_GROUP,
  kind: 'ScheduledWorkflow',
  plural: 'scheduledworkflows',
  shortNames: ['swf'],
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1beta1', storage: true, schema: s.object({ spec: opaque().required(), status: opaque().required() }) }],
};

/** A TensorBoard (or other) viewer the viewer controller runs as a Deployment and Service. */
export const viewerCrd: CrdDefinition = {
  group: KUBEFLOW_GROUP,
  kind: 'Viewer',
  plural: 'viewers',
  shortNames: ['vi'],
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1beta1', storage: true, schema: s.object({ spec: opaque().required() }) }],
};
