import { DSPA_GROUP, dspaCrd } from './dspa';
import { CrdDefinition } from '../../../lib/crd';
import { CRDS as ARGO_CRDS } from '../../argo-workflows/crds';
import { pipelineCrd, pipelineVersionCrd, scheduledWorkflowCrd, viewerCrd } from '../../kubeflow-pipelines/crds';

export { DSPA_GROUP, dspaCrd };

/** DSPO's own CRD, for the typed bindings in imports/. */
export const DSPA_CRDS: CrdDefinition[] = [dspaCrd];

/**
 * The CRDs DSPO installs: its DSPA plus the Kubeflow Pipelines kinds it shares with KFP
 * (the same definitions, so a platform with both emits each once).
 */
export const CRDS: CrdDefinition[] = [dspaCrd, pipelineCrd, pipelineVersionCrd, scheduledWorkflowCrd];

/** What config/argo bundles: the Argo Workflows CRDs (as ArgoWorkflows declares them) and the Viewer CRD. */
export const BUNDLED_CRDS: CrdDefinition[] = [...ARGO_CRDS, viewerCrd];

/** Every CRD in the outline of DSPO (own and bundled), for scripts/outline-diff.ts. */
export const ALL_CRDS: CrdDefinition[] = [...CRDS, ...BUNDLED_CRDS];
