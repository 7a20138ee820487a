import { accountCrd } from './account';
import { CrdDefinition } from '../../../lib/crd';

export * from './account';

/** The one CRD odh-model-controller ships: nim.opendatahub.io Account. */
export const CRDS: CrdDefinition[] = [accountCrd];
