import { tensorboardCrd } from './tensorboard';
import { CrdDefinition } from '../../../lib/crd';

export { tensorboardCrd };

/** The CRD of the TensorBoard controller. */
export const CRDS: CrdDefinition[] = [tensorboardCrd];
