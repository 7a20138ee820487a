import { KUBEFLOW_GROUP } from './common';
import { jaxJobCrd } from './jax-job';
import { mpiJobCrd } from './mpi-job';
import { paddleJobCrd } from './paddle-job';
import { pyTorchJobCrd } from './pytorch-job';
import { tfJobCrd } from './tf-job';
import { xgboostJobCrd } from './xgboost-job';
import { CrdDefinition } from '../../../lib/crd';

export { KUBEFLOW_GROUP, jaxJobCrd, mpiJobCrd, paddleJobCrd, pyTorchJobCrd, tfJobCrd, xgboostJobCrd };

/** The six kubeflow.org/v1 job CRDs of training-operator release-1.9. */
export const CRDS: CrdDefinition[] = [jaxJobCrd, mpiJobCrd, paddleJobCrd, pyTorchJobCrd, tfJobCrd, xgboostJobCrd];
