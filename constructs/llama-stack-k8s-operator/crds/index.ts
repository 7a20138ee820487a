import { llamaStackDistributionCrd } from './llama-stack-distribution';
import { CrdDefinition } from '../../../lib/crd';

export * from './llama-stack-distribution';

/** The CRD of the Llama Stack operator v0.9.0. */
export const CRDS: CrdDefinition[] = [llamaStackDistributionCrd];
