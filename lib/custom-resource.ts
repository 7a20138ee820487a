import { ApiObject, ApiObjectMetadata, GroupVersionKind } from 'cdk8s';
import { Construct } from 'constructs';

/** The props of a custom resource: metadata, a typed spec and other top-level fields. */
export interface CustomResourceProps<Spec> {
  /** @default - cdk8s allocates a name from the construct path */
  readonly metadata?: ApiObjectMetadata;
  readonly spec: Spec;
  /** Top-level fields other than spec (never status), rendered next to it. */
  readonly extra?: { readonly [field: string]: unknown };
}

/**
 * A custom resource with a typed spec. The generated bindings in imports/ (see
 * lib/schema/typegen.ts) extend this with the spec type of one CRD version.
 */
export class CustomResource<Spec> extends ApiObject {
  public readonly spec: Spec;

  constructor(scope: Construct, id: string, gvk: GroupVersionKind, props: CustomResourceProps<Spec>) {
    super(scope, id, {
      ...(props.extra ?? {}),
      apiVersion: gvk.apiVersion,
      kind: gvk.kind,
      metadata: props.metadata,
      spec: props.spec,
    });
    this.spec = props.spec;
  }
}
