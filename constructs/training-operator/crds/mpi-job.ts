import { jobCrd, replicaSpecs, runPolicy } from './common';
import { s } from '../../../lib/schema/dsl';

/**
 * kubeflow.org/v1 MPIJob: MPI training with Launcher and Worker roles. This is the v1
 * MPIJob of training-operator; the standalone mpi-operator serves kubeflow.org/v2beta1
 * MPIJob (the version Kueue's MPIJob integration handles). Both share the CRD name
 * mpijobs.kubeflow.org: a platform carries one of them.
 */
export const mpiJobCrd = jobCrd('MPIJob', s.object({
  runPolicy,
  mpiReplicaSpecs: replicaSpecs(),
  slotsPerWorker: s.int32().describe('MPI slots per worker pod.'),
  cleanPodPolicy: s.string().describe('Deprecated: use runPolicy.cleanPodPolicy.'),
  mainContainer: s.string().describe('The container that runs mpirun (default mpi).'),
}).named('MPIJobSpec'), { ageFirst: true });
