export * from './oauth2-proxy';
export * from './versions';
