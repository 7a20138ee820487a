import { KATIB_GROUP } from './common';
import { experimentCrd } from './experiment';
import { suggestionCrd } from './suggestion';
import { trialCrd } from './trial';
import { CrdDefinition } from '../../../lib/crd';

export { KATIB_GROUP, experimentCrd, suggestionCrd, trialCrd };

/** Katib v0.19.0's three kubeflow.org/v1beta1 CRDs. */
export const CRDS: CrdDefinition[] = [experimentCrd, suggestionCrd, trialCrd];
