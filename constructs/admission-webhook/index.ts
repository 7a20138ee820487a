export * from './pod-defaults-webhook';
export * from './versions';
export * as podDefaultCrds from './crds';
