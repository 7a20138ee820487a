import { katibCrd, STATUS, TYPE } from './common';

/** kubeflow.org/v1beta1 Trial: one run of the trial template with assigned parameters (created by the controller). */
export const trialCrd = katibCrd('Trial', [TYPE, STATUS]);
