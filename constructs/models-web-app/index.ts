export * from './models-web-app';
export * from './versions';
