import { jobCrd, replicaSpecs, runPolicy } from './common';
import { s } from '../../../lib/schema/dsl';

/** kubeflow.org/v1 TFJob: TensorFlow training with Chief, PS, Worker and Evaluator roles. */
export const tfJobCrd = jobCrd('TFJob', s.object({
  runPolicy,
  tfReplicaSpecs: replicaSpecs(),
  successPolicy: s.string().describe('Default (chief or worker 0 succeeds) or AllWorkers.'),
  enableDynamicWorker: s.boolean().describe('Whether workers may join and leave during training.'),
}).named('TFJobSpec'));
