export * from './versions';
export * from './modelmesh-serving';
export * as modelmeshCrds from './crds';
