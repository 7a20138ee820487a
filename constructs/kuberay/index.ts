export * from './versions';
export * from './kuberay';
export * as kuberayCrds from './crds';
