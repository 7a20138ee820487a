import { modelRegistryCrd } from './model-registry';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './model-registry';

/** ModelRegistry: the one CRD v0.3.8 installs (config/crd). */
export const CRDS: CrdDefinition[] = [modelRegistryCrd];
