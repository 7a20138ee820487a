import { DeviationCategory, DifferencePattern, FactKind, literalPattern, ParityDeviation } from './parity';

/**
 * One deviation per listed item (the one shape every constructs/<component>/parity.ts lists
 * repeated differences in), each matching that item exactly (a `*` in an item, e.g. an RBAC
 * wildcard, is literal): a construct declares the exact differences it makes, so that a new
 * difference of the same kind and object is not hidden by a broad pattern. With
 * `{ patterns: true }` a `*` in an item matches anything (e.g. every verb upstream grants on
 * a resource the construct leaves out).
 */
export function itemDeviations(
  fact: Omit<DifferencePattern, 'item'>, items: readonly string[], category: DeviationCategory, reason: string, options: { readonly patterns?: boolean } = {},
): ParityDeviation[] {
  return items.map((item) => ({ fact: { ...fact, item: options.patterns ? item : literalPattern(item) }, category, reason }));
}

/** RBAC fact items (`group|resource|verb`) for each resource and verb. */
export function rbacItems(group: string, resources: readonly string[], verbs: readonly string[]): string[] {
  return resources.flatMap((r) => verbs.map((v) => `${group}|${r}|${v}`));
}

/**
 * A deviation for one value we set otherwise: the fact's kind, object and item, upstream's
 * value it replaces (exactly, as the facts hold it: a long text as its sha256 digest), why.
 * When upstream's value changes, the deviation matches nothing and the parity test fails.
 */
export function valueDeviation(
  fact: { readonly kind: FactKind; readonly object: string; readonly item?: string }, upstream: string, category: DeviationCategory, reason: string,
): ParityDeviation {
  return {
    fact: { kind: fact.kind, object: literalPattern(fact.object), ...(fact.item !== undefined ? { item: literalPattern(fact.item) } : {}), status: 'differs', upstream: literalPattern(upstream) },
    category,
    reason,
  };
}
