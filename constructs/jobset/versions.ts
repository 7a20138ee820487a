import { ImageSpec } from '../../lib/images';
import { KubernetesSupport } from '../../lib/kubernetes-version';

/** JobSet release modelled: v0.12.0, the release Kubeflow Trainer v2.3.0 bundles. */
export const JOBSET_VERSION = 'v0.12.0';

export type JobSetImageKey = 'controller';

export const JOBSET_IMAGES: Readonly<Record<JobSetImageKey, ImageSpec>> = Object.freeze({
  controller: { repository: 'registry.k8s.io/jobset/jobset', tag: JOBSET_VERSION },
});

/**
 * The Kubernetes versions JobSet v0.12.0 runs on. Its CRD's rule on volumeClaimPolicies
 * templates reads `metadata.namespace`, a property named with a CEL reserved word, without
 * the __namespace__ escape: API servers compile that in new CRD rules from 1.32
 * (kubernetes/kubernetes#126188, #126276); v1.28.7 rejects the CRD, as it rejects upstream's.
 */
export const JOBSET_KUBERNETES: KubernetesSupport = {
  min: '1.32',
  feature: "CEL access to a field named with a reserved word (templates' metadata.namespace) in the JobSet CRD",
  source: 'jobsets.jobset.x-k8s.io v0.12.0 (volumeClaimPolicies rule); kubernetes/kubernetes#126188',
  basis: 'crd-rules',
};
