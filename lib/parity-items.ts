import { DeviationCategory, DifferencePattern, literalPattern, ParityDeviation } from './parity';

/**
 * One deviation per listed item, each matching that item exactly (a `*` in an item, e.g. an
 * RBAC wildcard, is literal): a construct declares the exact differences it makes, so that a
 * new difference of the same kind and object is not hidden by a broad pattern.
 */
export function itemDeviations(
  fact: Omit<DifferencePattern, 'item'>, items: readonly string[], category: DeviationCategory, reason: string,
): ParityDeviation[] {
  return items.map((item) => ({ fact: { ...fact, item: literalPattern(item) }, category, reason }));
}

/** RBAC fact items (`group|resource|verb`) for each resource and verb. */
export function rbacItems(group: string, resources: readonly string[], verbs: readonly string[]): string[] {
  return resources.flatMap((r) => verbs.map((v) => `${group}|${r}|${v}`));
}
