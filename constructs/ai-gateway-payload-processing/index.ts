export * from './versions';
export * from './plugins';
export * from './payload-processor';
export * from './ai-gateway-payload-processing';
export * as payloadProcessingCrds from './crds';
