export * from './versions';
export * from './spark-job-namespace';
export * from './spark-operator';
export * as sparkOperatorCrds from './crds';
