import { clusterTrainingRuntimeCrd } from './cluster-training-runtime';
import { mlPolicy, podGroupPolicy, TRAINER_GROUP, trainingRuntimeSpec } from './runtime-spec';
import { MULTIKUEUE_CONTROLLER, TRAINJOB_CONTROLLER, trainJobCrd } from './train-job';
import { trainingRuntimeCrd } from './training-runtime';
import { CrdDefinition } from '../../../lib/crd';

export {
  clusterTrainingRuntimeCrd, trainingRuntimeCrd, trainJobCrd, trainingRuntimeSpec, mlPolicy, podGroupPolicy,
  TRAINER_GROUP, TRAINJOB_CONTROLLER, MULTIKUEUE_CONTROLLER,
};

/** The three trainer.kubeflow.org CRDs of Kubeflow Trainer v2.3.0. */
export const CRDS: CrdDefinition[] = [clusterTrainingRuntimeCrd, trainingRuntimeCrd, trainJobCrd];
