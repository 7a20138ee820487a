import { mlflowCrd } from './mlflow';
import { mlflowConfigCrd } from './mlflow-config';
import { mlflowOperatorCrd } from './mlflow-operator';
import { CrdDefinition } from '../../../lib/crd';

export * from './mlflow';
export * from './mlflow-config';
export * from './mlflow-operator';

/** The three CRDs of the MLflow operator. */
export const CRDS: CrdDefinition[] = [mlflowConfigCrd, mlflowOperatorCrd, mlflowCrd];
