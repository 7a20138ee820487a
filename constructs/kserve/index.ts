export * from './kserve';
export * from './versions';
export * from './config';
export * from './runtimes';
export * as kserveCrds from './crds';
