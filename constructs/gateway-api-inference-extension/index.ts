export * from './versions';
export * from './endpoint-picker';
export * from './gateway-api-inference-extension';
export * as gieCrds from './crds';
