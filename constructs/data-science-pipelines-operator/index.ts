export * from './data-science-pipelines-operator';
export * from './versions';
export { CRDS as DSPO_CRDS, BUNDLED_CRDS as DSPO_BUNDLED_CRDS, DSPA_GROUP, dspaCrd } from './crds';
