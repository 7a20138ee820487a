import { jobCrd, replicaSpecs, runPolicy, workerScale } from './common';
import { s } from '../../../lib/schema/dsl';

/** kubeflow.org/v1 JAXJob: multi-process JAX training with a Worker role. */
export const jaxJobCrd = jobCrd('JAXJob', s.object({
  runPolicy,
  jaxReplicaSpecs: replicaSpecs(),
}).named('JAXJobSpec'), { scale: workerScale('jaxReplicaSpecs') });
