import { ImageSpec } from '../../lib/images';

/**
 * The MLflow operator as Open Data Hub ships it (overlay odh). Upstream publishes no release
 * tags for these images: `odh-stable` is the tag its manifests name (a moving tag; pin a
 * digest through the platform's image overrides for reproducible installs).
 */
export const MLFLOW_OPERATOR_IMAGES: Readonly<Record<'controller' | 'mlflow', ImageSpec>> = {
  controller: { repository: 'quay.io/opendatahub/mlflow-operator', tag: 'odh-stable' },
  // The MLflow server the operator deploys for each MLflow (MLFLOW_IMAGE).
  mlflow: { repository: 'quay.io/opendatahub/mlflow', tag: 'odh-stable' },
};
