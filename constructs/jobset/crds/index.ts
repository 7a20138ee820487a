import { JOBSET_GROUP, jobSetCrd, jobSetSpec } from './jobset';
import { CrdDefinition } from '../../../lib/crd';

export { JOBSET_GROUP, jobSetCrd, jobSetSpec };

/** The CRD of JobSet v0.12.0. */
export const CRDS: CrdDefinition[] = [jobSetCrd];
