export * from './profile-controller';
export * from './tenant';
export * from './kubeflow-roles';
export * from './namespace-labels';
export * from './versions';
export * as profileCrds from './crds';
