import { profileCrd } from './profile';
import { CrdDefinition } from '../../../lib/crd';

export { profileCrd };

/** The CRD of the profile controller. */
export const CRDS: CrdDefinition[] = [profileCrd];
