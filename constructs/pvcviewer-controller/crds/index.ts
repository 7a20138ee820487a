import { pvcViewerCrd } from './pvcviewer';
import { CrdDefinition } from '../../../lib/crd';

export { pvcViewerCrd };

/** The CRD of the PVC viewer controller. */
export const CRDS: CrdDefinition[] = [pvcViewerCrd];
