export * from './versions';
export * from './rbac';
export * from './models-as-a-service';
export * as maasCrds from './crds';
