import { ImageSpec } from '../../lib/images';

/**
 * training-operator (Kubeflow Training Operator v1), branch release-1.9: the image tag
 * upstream's overlays pin on that branch (docker.io/kubeflow/training-operator).
 */
export const TRAINING_OPERATOR_VERSION = 'release-1.9';

export type TrainingOperatorImageKey = 'controller';

export const TRAINING_OPERATOR_IMAGES: Readonly<Record<TrainingOperatorImageKey, ImageSpec>> = Object.freeze({
  controller: { repository: 'kubeflow/training-operator', tag: 'v1-5170a36' },
});
