import { elasticBase, jobCrd, replicaSpecs, runPolicy, workerScale } from './common';
import { s } from '../../../lib/schema/dsl';

/**
 * kubeflow.org/v1 PyTorchJob: torchrun training with Master and Worker roles, elastic
 * when elasticPolicy is set. Scales through its Worker role.
 * Scale paths: same as JAXJob and PaddleJob on release-1.9 (PyTorchJob's own marker not
 * confirmed at that version).
 */
export const pyTorchJobCrd = jobCrd('PyTorchJob', s.object({
  runPolicy,
  pytorchReplicaSpecs: replicaSpecs(),
  nprocPerNode: s.string().describe('Processes per node: auto, cpu, gpu or a number.'),
  elasticPolicy: s.object({
    ...elasticBase,
    rdzvBackend: s.string(),
    rdzvPort: s.int32(),
    rdzvHost: s.string(),
    rdzvId: s.string(),
    rdzvConf: s.array(s.object({ key: s.string(), value: s.string() }).named('RDZVConf')),
    standalone: s.boolean(),
    nProcPerNode: s.int32().describe('Deprecated: use spec.nprocPerNode.'),
  }).named('PyTorchElasticPolicy'),
}).named('PyTorchJobSpec'), { scale: workerScale('pytorchReplicaSpecs') });
