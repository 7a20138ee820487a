import { predictorCrd } from './predictor';
import { CrdDefinition } from '../../../lib/crd';

export * from './predictor';

/**
 * The CRD only ModelMesh ships. ModelMesh also ships copies of KServe's InferenceService,
 * ServingRuntime and ClusterServingRuntime (see ModelMeshServing: it uses KServe's).
 */
export const CRDS: CrdDefinition[] = [predictorCrd];
