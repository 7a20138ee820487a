export * from './versions';
export * from './integrations';
export * from './config';
export * from './rbac';
export * from './visibility';
export * from './user-roles';
export * from './kueue';
export * from './parity';
export * as kueueCrds from './crds';
