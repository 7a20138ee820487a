export * from './versions';
export * from './modelmesh-serving';
export * from './runtimes';
export * as modelmeshCrds from './crds';
