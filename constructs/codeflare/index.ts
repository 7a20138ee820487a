export * from './versions';
export * from './config';
export * from './rbac';
export * from './codeflare-operator';
