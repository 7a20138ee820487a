export * from './crud-web-app';
export * from './jupyter-web-app';
export * from './volumes-web-app';
export * from './tensorboards-web-app';
export * from './versions';
