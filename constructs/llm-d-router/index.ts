export * from './versions';
export * from './llm-d-router';
export * as llmdCrds from './crds';
