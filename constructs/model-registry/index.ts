export * from './database';
export * from './embedmd';
export * from './model-registry';
export * from './versions';
