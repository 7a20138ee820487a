export * from './crds';
export * from './katib';
export * from './katib-config';
export * from './db-manager';
export * from './mysql';
export * from './ui';
export * from './versions';
