export * from './versions';
export * from './rbac';
export * from './model-registry-operator';
export * as modelRegistryCrds from './crds';
