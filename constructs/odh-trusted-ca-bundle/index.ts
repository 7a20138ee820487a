export * from './odh-trusted-ca-bundle';
