import { PIPELINES_GROUP, pipelineCrd, pipelineVersionCrd } from './pipeline';
import { KUBEFLOW_GROUP, scheduledWorkflowCrd, viewerCrd } from './scheduled-workflow';
import { CrdDefinition } from '../../../lib/crd';

export { KUBEFLOW_GROUP, PIPELINES_GROUP, pipelineCrd, pipelineVersionCrd, scheduledWorkflowCrd, viewerCrd };

/** The four CRDs of Kubeflow Pipelines 2.17.0. */
export const CRDS: CrdDefinition[] = [scheduledWorkflowCrd, viewerCrd, pipelineCrd, pipelineVersionCrd];
