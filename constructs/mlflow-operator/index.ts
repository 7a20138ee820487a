export * from './versions';
export * from './mlflow-operator';
export * as mlflowCrds from './crds';
