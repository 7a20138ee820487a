import { ImageSpec } from '../../lib/images';

/** Argo Workflows release modelled: v4.0.5, the release Kubeflow Pipelines 2.17.0 installs. */
export const ARGO_WORKFLOWS_VERSION = 'v4.0.5';

export type ArgoWorkflowsImageKey = 'workflowController' | 'executor';

export const ARGO_WORKFLOWS_IMAGES: Readonly<Record<ArgoWorkflowsImageKey, ImageSpec>> = Object.freeze({
  workflowController: { repository: 'quay.io/argoproj/workflow-controller', tag: ARGO_WORKFLOWS_VERSION },
  /** The executor (argoexec) the controller injects into every workflow pod. */
  executor: { repository: 'quay.io/argoproj/argoexec', tag: ARGO_WORKFLOWS_VERSION },
});
