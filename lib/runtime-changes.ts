import { IConstruct } from 'constructs';

/**
 * A field of an emitted object that a controller changes at run time (a caBundle patched by
 * a self-rotating certificate, a Secret it fills). GitOps engines must ignore these fields
 * or they fight the controller; checks use them to know a CA arrives at run time.
 */
export interface RuntimeChange {
  /** API group of the object ('' for core). */
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** JSON pointers of the changed fields (`*` for every list item). */
  readonly jsonPointers: string[];
  /** Who changes them: the controller's Deployment name. */
  readonly by: string;
  readonly reason: string;
}

/** A construct that declares run-time changes to objects of the platform. */
export interface IRuntimeChanges extends IConstruct {
  runtimeChanges(): RuntimeChange[];
}

function isRuntimeChanges(c: IConstruct): c is IRuntimeChanges {
  return typeof (c as Partial<IRuntimeChanges>).runtimeChanges === 'function';
}

/** Every run-time change declared under `scope` (a platform), in construct order. */
export function runtimeChangesOf(scope: IConstruct): RuntimeChange[] {
  return scope.node.findAll().filter(isRuntimeChanges).flatMap((c) => c.runtimeChanges());
}

/** group/kind/namespace/name of a changed object, for lookups. */
export function runtimeChangeKey(c: Pick<RuntimeChange, 'group' | 'kind' | 'name' | 'namespace'>): string {
  return `${c.group}/${c.kind}/${c.namespace ?? ''}/${c.name}`;
}
