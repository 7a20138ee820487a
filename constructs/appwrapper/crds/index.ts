import { appWrapperCrd } from './appwrapper';
import { CrdDefinition } from '../../../lib/crd';

export * from './appwrapper';

/** The one CRD of AppWrapper v1.2.1. */
export const CRDS: CrdDefinition[] = [appWrapperCrd];
