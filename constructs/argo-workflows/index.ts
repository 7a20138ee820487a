export * from './argo-workflows';
export * from './versions';
export { CRDS as ARGO_WORKFLOWS_CRDS, ARGO_GROUP } from './crds';
