/**
 * Shared JSON: subtrees of the objects a platform emits that appear in many of them and are
 * the same object each time, frozen (deep). CRDs embed the same schemas (a core PodSpec, a
 * container) in many places: opendatahub's 76 CRDs have ~155,000 schema nodes in ~12,000
 * distinct subtrees. lib/crd.ts renders each schema subtree of the DSL (lib/schema/dsl.ts)
 * once, frozen, and marks it here; the walks over every node of an object (the checks, the
 * YAML writer) then do the work of a marked subtree once, keyed by its identity: a frozen
 * subtree has the same content wherever it appears. Only what `shareJson` marked counts, and
 * only the marked node is keyed, never a subtree of it.
 */
const SHARED = new WeakSet<object>();

/** Marks a deeply frozen JSON subtree as shared; returns it. */
export function shareJson<T extends object>(frozen: T): T {
  SHARED.add(frozen);
  return frozen;
}

/** Whether a value is a shared (deeply frozen) JSON subtree. */
export function isSharedJson(v: unknown): v is object {
  return typeof v === 'object' && v !== null && SHARED.has(v);
}

/**
 * A per-walk memo keyed by shared subtrees: `get` and `set` of one value per subtree and
 * variant (the walk's state on entering the subtree, as a small string or number).
 */
export class SharedMemo<V> {
  private readonly byNode = new WeakMap<object, Map<string | number, V>>();

  public get(node: object, variant: string | number = 0): V | undefined {
    return this.byNode.get(node)?.get(variant);
  }

  public set(node: object, variant: string | number, value: V): void {
    let m = this.byNode.get(node);
    if (!m) this.byNode.set(node, m = new Map());
    m.set(variant, value);
  }
}
