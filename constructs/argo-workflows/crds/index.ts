import { artifact, artifactLocation, parameter } from './artifact';
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const ARGO_GROUP = 'argoproj.io';

/**
 * Argo Workflows v4.0.5 ships "minimal" CRDs, the ones Kubeflow Pipelines 2.17.0 installs:
 * the large kinds keep their spec and status as opaque atomic objects (the controller
 * validates them itself), the small ones keep a full schema.
 */
const opaque = () => s.object({}, { preserveUnknownFields: true, mapType: 'atomic' });

function argoCrd(kind: string, plural: string, shortNames: string[] | undefined, schema: ReturnType<typeof s.object>, extra: Partial<CrdDefinition> = {}, status = false): CrdDefinition {
  return {
    group: ARGO_GROUP,
    kind,
    plural,
    shortNames,
    scope: CrdScope.NAMESPACED,
    versions: [{ name: 'v1alpha1', storage: true, schema, subresources: status ? { status: true } : undefined, ...(extra.versions?.[0] ?? {}) }],
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'versions')),
  };
}

/** A run of a workflow: its spec and its status, both opaque to the API server. */
export const workflowCrd: CrdDefinition = {
  group: ARGO_GROUP,
  kind: 'Workflow',
  plural: 'workflows',
  shortNames: ['wf'],
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    schema: s.object({ spec: opaque().required(), status: opaque() }),
    printerColumns: [
      { name: 'Status', type: 'string', jsonPath: '.status.phase', description: 'Phase of the run.' },
      { name: 'Age', type: 'date', jsonPath: '.status.startedAt', description: 'Time since the run started.' },
      { name: 'Message', type: 'string', jsonPath: '.status.message', description: 'Why the run is in its phase.' },
    ],
  }],
};

export const workflowTemplateCrd = argoCrd('WorkflowTemplate', 'workflowtemplates', ['wftmpl'], s.object({ spec: opaque().required() }));

export const clusterWorkflowTemplateCrd: CrdDefinition = {
  ...argoCrd('ClusterWorkflowTemplate', 'clusterworkflowtemplates', ['clusterwftmpl', 'cwft'], s.object({ spec: opaque().required() })),
  scope: CrdScope.CLUSTER,
};

export const cronWorkflowCrd = argoCrd('CronWorkflow', 'cronworkflows', ['cwf', 'cronwf'], s.object({ spec: opaque().required(), status: opaque() }));

export const workflowTaskSetCrd = argoCrd('WorkflowTaskSet', 'workflowtasksets', ['wfts'], s.object({ spec: opaque().required(), status: opaque() }), {}, true);

/** The outputs of one task, written by the executor (argoexec) and read by the controller. */
export const workflowTaskResultCrd = argoCrd('WorkflowTaskResult', 'workflowtaskresults', undefined, s.object({
  message: s.string(),
  phase: s.string().describe('Phase of the node the result belongs to.'),
  progress: s.string().describe('Progress as N/M.'),
  outputs: s.object({
    parameters: s.array(parameter),
    artifacts: s.array(artifact),
    result: s.string().describe('The standard output of a script or container template.'),
    exitCode: s.string(),
  }).named('Outputs'),
}));

/** The artifacts of a workflow that the garbage collector pod deletes, and its results. */
export const workflowArtifactGCTaskCrd = argoCrd('WorkflowArtifactGCTask', 'workflowartifactgctasks', ['wfat'], s.object({
  spec: s.object({
    artifactsByNode: s.map(s.object({
      archiveLocation: artifactLocation,
      artifacts: s.map(artifact),
    }).named('ArtifactNodeSpec')),
  }).required().named('ArtifactGCSpec'),
  status: s.object({
    artifactResultsByNode: s.map(s.object({
      artifactResults: s.map(s.object({
        name: s.string().required(),
        success: s.boolean(),
        error: s.string(),
      }).named('ArtifactResult')),
    }).named('ArtifactResultNodeStatus')),
  }).named('ArtifactGCStatus'),
}), {}, true);

/** Submits a workflow from a template when an event matching its selector arrives. */
export const workflowEventBindingCrd = argoCrd('WorkflowEventBinding', 'workfloweventbindings', ['wfeb'], s.object({
  spec: s.object({
    event: s.object({ selector: s.string().required().describe('Expression over the event that must be true to submit.') }).required().named('Event'),
    submit: s.object({
      workflowTemplateRef: s.object({ name: s.string(), clusterScope: s.boolean() }).required().named('WorkflowTemplateRef'),
      metadata: s.object(),
      arguments: s.object({ parameters: s.array(parameter), artifacts: s.array(artifact) }).named('Arguments'),
    }).named('Submit'),
  }).required().named('WorkflowEventBindingSpec'),
}));

/** The eight argoproj.io CRDs of Argo Workflows v4.0.5 (minimal), in name order. */
export const CRDS: CrdDefinition[] = [
  clusterWorkflowTemplateCrd,
  cronWorkflowCrd,
  workflowArtifactGCTaskCrd,
  workflowEventBindingCrd,
  workflowCrd,
  workflowTaskResultCrd,
  workflowTaskSetCrd,
  workflowTemplateCrd,
];
