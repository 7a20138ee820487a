export * from './jobset';
export * from './versions';
export * as jobsetCrds from './crds';
