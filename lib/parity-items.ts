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

/** A whole NetworkPolicy of upstream's install we leave out (missing) or add (extra), by name. */
export function networkPolicyDeviation(name: string, status: 'missing' | 'extra', category: DeviationCategory, reason: string): ParityDeviation {
  return { fact: { kind: FactKind.NETWORK_POLICY, object: literalPattern(`NetworkPolicy/${name}`), status }, category, reason };
}

/**
 * Deviations for the NetworkPolicies a component adds where the platform isolates its
 * namespace (NetworkPolicyProps.namespaceIsolation): kubeflow/manifests' common/networkpolicies
 * ships them (the kubeflow-networkpolicies install compares them), the application's own install does not.
 */
export function isolationPolicyDeviations(names: readonly string[]): ParityDeviation[] {
  return names.map((n) => networkPolicyDeviation(n, 'extra', DeviationCategory.PLATFORM_INTEGRATION,
    `kubeflow/manifests v1.11.0's common/networkpolicies policy ${n}, emitted where the platform isolates the namespace (the kubeflow platform's networkPolicies); the application's own install has none.`));
}
