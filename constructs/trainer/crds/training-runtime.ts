import { TRAINER_GROUP, trainingRuntimeSchema } from './runtime-spec';
import { CrdDefinition, CrdScope } from '../../../lib/crd';

/**
 * trainer.kubeflow.org/v1alpha1 TrainingRuntime (Trainer v2.3.0): a namespaced blueprint
 * for TrainJobs of its namespace. No status subresource, no printer columns.
 */
export const trainingRuntimeCrd: CrdDefinition = {
  group: TRAINER_GROUP,
  kind: 'TrainingRuntime',
  plural: 'trainingruntimes',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', storage: true, schema: trainingRuntimeSchema }],
};
