export * from './versions';
export * from './rbac';
export * from './model-serving-api';
export * from './odh-model-controller';
export * as odhModelControllerCrds from './crds';
