// Apart from images.ts, which reads the versions table, so that versions.ts can use it
// without importing images.ts.

/** A container image as the versions table of a component records it. */
export interface ImageSpec {
  /** e.g. kserve/kserve-controller or quay.io/brancz/kube-rbac-proxy */
  readonly repository: string;
  /** A release tag; never `latest`. */
  readonly tag?: string;
  /** sha256:... ; when set it wins over the tag for pulling. */
  readonly digest?: string;
}
