export * from './dex';
export * from './versions';
