/**
 * Kubernetes versions in the model: the oldest Kubernetes a platform must run on, and the
 * range each component's upstream release supports, with the feature behind its minimum.
 */

/** A Kubernetes minor version, written "1.30". */
export type KubernetesVersion = string;

/**
 * The oldest Kubernetes a platform targets unless it says otherwise. 1.32: JobSet v0.12 and
 * Kubeflow Trainer v2.3 (in the training, kubeflow and opendatahub platforms) ship CRD rules
 * that read a field named `namespace` without escaping it, which an API server compiles only
 * from 1.32 (see CEL_FEATURES). A default below that would make the default platforms fail.
 */
export const DEFAULT_KUBERNETES_VERSION: KubernetesVersion = '1.32';

/** The oldest Kubernetes this project models at all (the first with CEL in CRDs generally available is 1.25; 1.28 is the oldest we test against a real API server). */
export const OLDEST_KUBERNETES_VERSION: KubernetesVersion = '1.28';

/**
 * Annotations on the CRDs of a component that needs a newer Kubernetes than the oldest modelled:
 * the minimum and the feature behind it. They travel with the written output, so that
 * `mlplatform apply --dir` (which has no model) refuses an older server before any change,
 * as an apply from the platform's model does.
 */
export const MINIMUM_KUBERNETES_ANNOTATION = 'mlplatform/minimum-kubernetes';
export const MINIMUM_KUBERNETES_FEATURE_ANNOTATION = 'mlplatform/minimum-kubernetes-feature';

/** What a component's upstream release supports. */
export interface KubernetesSupport {
  /** The oldest Kubernetes minor version it runs on. */
  readonly min: KubernetesVersion;
  /** The newest it is known to support. @default - no upper bound known */
  readonly max?: KubernetesVersion;
  /** The feature that sets the minimum, e.g. "CEL field access to reserved-word names (namespace) in CRD rules". */
  readonly feature: string;
  /** Where the fact comes from (release notes, the CRD rule that needs it). */
  readonly source: string;
  /**
   * What the minimum rests on: a feature its CRD rules use (then they compile at the minimum
   * and not one minor earlier, which a test checks), or the release's own documentation.
   */
  readonly basis: 'crd-rules' | 'release-documentation';
}

/** What a component declares when it declares nothing: no feature beyond the oldest modelled version. */
export const BASELINE_KUBERNETES_SUPPORT: KubernetesSupport = {
  min: OLDEST_KUBERNETES_VERSION,
  feature: 'no feature newer than the oldest Kubernetes modelled here',
  source: 'its CRD rules compile for this version (checked at synth, MLP003)',
  basis: 'crd-rules',
};

const VERSION = /^v?(\d+)\.(\d+)(?:\.\d+)?$/;

/** [major, minor], or undefined when `v` is not a version such as 1.30, v1.30 or 1.30.2. */
export function parseKubernetesVersion(v: string): [number, number] | undefined {
  const m = VERSION.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** "1.30" from "v1.30.2"; throws a message naming `what` and the fix when `v` is not a version. */
export function normalizeKubernetesVersion(v: string, what: string): KubernetesVersion {
  const p = parseKubernetesVersion(v);
  if (!p) throw new Error(`${what}: '${v}' is not a Kubernetes version: write MAJOR.MINOR, e.g. '1.30'`);
  return `${p[0]}.${p[1]}`;
}

/** Negative when a < b, 0 when equal, positive when a > b (minor versions). */
export function compareKubernetesVersions(a: KubernetesVersion, b: KubernetesVersion): number {
  const [pa, pb] = [parseKubernetesVersion(a), parseKubernetesVersion(b)];
  if (!pa || !pb) throw new Error(`not a Kubernetes version: ${!pa ? a : b}`);
  return pa[0] - pb[0] || pa[1] - pb[1];
}

/** The range as text: ">= 1.32 (feature)" or "1.29 - 1.33". */
export function kubernetesRangeText(s: KubernetesSupport): string {
  return s.max ? `${s.min} - ${s.max}` : `>= ${s.min}`;
}
