export * from './central-dashboard';
export * from './versions';
