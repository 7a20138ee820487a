import { ImageSpec } from '../../lib/images';
import { KubernetesSupport } from '../../lib/kubernetes-version';

/**
 * Pinned images of the Kubeflow Trainer component: release v2.3.0.
 *
 * The controller image is the release tag of the inventory. Runtime images built by the
 * Trainer project (deepspeed, mlx, xgboost) are pinned to the same release tag, as the
 * release's runtimes kustomization does (the tag of those three is not confirmed from
 * the v2.3.0 tag itself). Third-party runtime images keep the tags upstream's runtime
 * manifests name.
 */
export const TRAINER_VERSION = 'v2.3.0';

export type TrainerImageKey =
  | 'controller'
  | 'torchRuntime'
  | 'deepspeedRuntime'
  | 'mlxRuntime'
  | 'jaxRuntime'
  | 'xgboostRuntime';

const trainer = (name: string): ImageSpec => ({ repository: `ghcr.io/kubeflow/trainer/${name}`, tag: TRAINER_VERSION });

export const TRAINER_IMAGES: Readonly<Record<TrainerImageKey, ImageSpec>> = Object.freeze({
  controller: trainer('trainer-controller-manager'),
  torchRuntime: { repository: 'pytorch/pytorch', tag: '2.7.1-cuda12.6-cudnn9-runtime' },
  deepspeedRuntime: trainer('deepspeed-runtime'),
  mlxRuntime: trainer('mlx-runtime'),
  jaxRuntime: { repository: 'nvcr.io/nvidia/jax', tag: '25.10-py3' },
  xgboostRuntime: trainer('xgboost-runtime'),
});

/**
 * The Kubernetes versions Kubeflow Trainer v2.3.0 runs on. Its runtime CRDs embed the JobSet
 * spec, with JobSet's rule on volumeClaimPolicies templates (`metadata.namespace`, a reserved
 * word, unescaped): new CRD rules compile it from Kubernetes 1.32 (see JOBSET_KUBERNETES).
 */
export const TRAINER_KUBERNETES: KubernetesSupport = {
  min: '1.32',
  feature: "CEL access to a field named with a reserved word (JobSet templates' metadata.namespace) in the (Cluster)TrainingRuntime CRDs",
  source: 'trainingruntimes/clustertrainingruntimes.trainer.kubeflow.org v2.3.0; kubernetes/kubernetes#126188',
  basis: 'crd-rules',
};
