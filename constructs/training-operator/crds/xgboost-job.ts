import { jobCrd, replicaSpecs, runPolicy } from './common';
import { s } from '../../../lib/schema/dsl';

/** kubeflow.org/v1 XGBoostJob: distributed XGBoost with Master and Worker roles. */
export const xgboostJobCrd = jobCrd('XGBoostJob', s.object({
  runPolicy,
  xgbReplicaSpecs: replicaSpecs(),
}).named('XGBoostJobSpec'));
