export * from './crds';
export * from './cert-manager';
export * from './versions';
