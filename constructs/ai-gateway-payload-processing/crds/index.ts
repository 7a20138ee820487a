import { externalModelCrd } from './external-model';
import { externalProviderCrd } from './external-provider';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './external-model';
export * from './external-provider';

/** The two inference.opendatahub.io CRDs the payload processor owns. */
export const CRDS: CrdDefinition[] = [externalModelCrd, externalProviderCrd];
