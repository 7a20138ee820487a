export * from './versions';
export * from './llama-stack-operator';
export * as llamaStackCrds from './crds';
