export * from './notebook-controller';
export * from './odh-notebook-controller';
export * from './workbench-image';
export * from './versions';
export * as notebookCrds from './crds';
