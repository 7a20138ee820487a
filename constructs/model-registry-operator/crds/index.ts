import { aiHubCrd } from './aihub';
import { catalogCrd } from './catalog';
import { modelRegistryCrd } from './model-registry';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './aihub';
export * from './catalog';
export * from './model-registry';

/** ModelRegistry, Catalog and AIHub. */
export const CRDS: CrdDefinition[] = [aiHubCrd, catalogCrd, modelRegistryCrd];
