import { notebookCrd } from './notebook';
import { CrdDefinition } from '../../../lib/crd';

export { notebookCrd };

/** The CRD of the notebook controller. */
export const CRDS: CrdDefinition[] = [notebookCrd];
