export * from './versions';
export * from './workload-variant-autoscaler';
export * as wvaCrds from './crds';
