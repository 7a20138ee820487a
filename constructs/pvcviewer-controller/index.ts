export * from './pvcviewer-controller';
export * from './versions';
export * as pvcViewerCrds from './crds';
