import { podDefaultCrd } from './pod-default';
import { CrdDefinition } from '../../../lib/crd';

export { podDefaultCrd };

/** The CRD of the PodDefault admission webhook. */
export const CRDS: CrdDefinition[] = [podDefaultCrd];
