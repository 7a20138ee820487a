import { TRAINER_GROUP, trainingRuntimeSchema } from './runtime-spec';
import { CrdDefinition, CrdScope } from '../../../lib/crd';

/**
 * trainer.kubeflow.org/v1alpha1 ClusterTrainingRuntime (Trainer v2.3.0): the
 * cluster-wide runtime any TrainJob may reference; same spec as TrainingRuntime.
 */
export const clusterTrainingRuntimeCrd: CrdDefinition = {
  group: TRAINER_GROUP,
  kind: 'ClusterTrainingRuntime',
  plural: 'clustertrainingruntimes',
  scope: CrdScope.CLUSTER,
  versions: [{ name: 'v1alpha1', storage: true, schema: trainingRuntimeSchema }],
};
