import { katibCrd, STATUS, TYPE } from './common';

/** kubeflow.org/v1beta1 Experiment: a tuning job (objective, search space, algorithm, trial template). */
export const experimentCrd = katibCrd('Experiment', [TYPE, STATUS]);
