export * from './tensorboard-controller';
export * from './versions';
export * as tensorboardCrds from './crds';
