export * from './versions';
export * from './config';
export * from './rbac';
export * from './user-roles';
export * from './appwrapper-operator';
export * as appWrapperCrds from './crds';
