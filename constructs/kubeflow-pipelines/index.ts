export * from './kubeflow-pipelines';
export * from './storage';
export * from './versions';
export { CRDS as KUBEFLOW_PIPELINES_CRDS, KUBEFLOW_GROUP, PIPELINES_GROUP, pipelineCrd, pipelineVersionCrd } from './crds';
export { METACONTROLLER_CRDS, METACONTROLLER_GROUP } from './crds/metacontroller';
export * from './metacontroller';
export * from './profile-hook';
export * from './profile-hook-script';
export { APPLICATION_GROUP, applicationCrd } from './crds/application';
