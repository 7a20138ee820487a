export * from './training-operator';
export * from './versions';
export * as trainingOperatorCrds from './crds';
