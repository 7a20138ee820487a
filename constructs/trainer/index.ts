export * from './trainer';
export * from './versions';
export * from './runtimes';
export * as trainerCrds from './crds';
