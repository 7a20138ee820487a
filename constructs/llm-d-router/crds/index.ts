import { inferenceModelRewriteCrd } from './inference-model-rewrite';
import { inferenceObjectiveCrd } from './inference-objective';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './inference-objective';
export * from './inference-model-rewrite';

/** The two llm-d.ai CRDs of the llm-d router v0.10.0. */
export const CRDS: CrdDefinition[] = [inferenceObjectiveCrd, inferenceModelRewriteCrd];
