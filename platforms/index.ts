export * from './serving';
export * from './training';
export * from './model-serving';
export * from './kubeflow';
export * from './opendatahub';

export * from './defaults';
export * from './opendatahub-dsc';
