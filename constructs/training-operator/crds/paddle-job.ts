import { elasticBase, jobCrd, replicaSpecs, runPolicy, workerScale } from './common';
import { s } from '../../../lib/schema/dsl';

/** kubeflow.org/v1 PaddleJob: PaddlePaddle training (collective or parameter server), elastic optionally. */
export const paddleJobCrd = jobCrd('PaddleJob', s.object({
  runPolicy,
  paddleReplicaSpecs: replicaSpecs(),
  elasticPolicy: s.object(elasticBase).named('PaddleElasticPolicy'),
}).named('PaddleJobSpec'), { scale: workerScale('paddleReplicaSpecs') });
