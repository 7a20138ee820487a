import { inferenceModelRewriteCrd } from './inference-model-rewrite';
import { inferenceObjectiveCrd } from './inference-objective';
import { inferencePoolCrd } from './inference-pool';
import { inferencePoolAlphaCrd } from './inference-pool-alpha';
import { inferencePoolImportCrd } from './inference-pool-import';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './inference-pool';
export * from './inference-pool-alpha';
export * from './inference-objective';
export * from './inference-model-rewrite';
export * from './inference-pool-import';

/** The five CRDs of the Gateway API Inference Extension v1.4 line. */
export const CRDS: CrdDefinition[] = [
  inferencePoolCrd,
  inferencePoolAlphaCrd,
  inferenceObjectiveCrd,
  inferenceModelRewriteCrd,
  inferencePoolImportCrd,
];
