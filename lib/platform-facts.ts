import type { Component } from './component';
import { Gvk, gvkKey } from './crd';
import { PlatformModel } from './platform';

/*
 * Facts about a resolved platform that both the report (report.ts) and the architecture
 * (architecture.ts) read. They live below both so that neither imports the other's values.
 */

/** CRDs that several components declare: name, the component that emits it, the others. */
export function sharedCrds(m: PlatformModel): Array<[string, Component, Component[]]> {
  const out: Array<[string, Component, Component[]]> = [];
  for (const [crd, owner] of [...m.crdOwners.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const users = m.components.filter((c) => c !== owner && c.crds.some((d) => d.name === crd));
    if (users.length) out.push([crd, owner, users]);
  }
  return out;
}

const kindOwners = new WeakMap<PlatformModel, Map<string, Component>>();

/**
 * The component whose provided CRDs serve a group/kind: the first such owner in
 * `m.crdOwners` order. One map per model, instead of a scan of every owner's CRDs per
 * requirement.
 */
export function kindOwner(m: PlatformModel, gvk: Gvk): Component | undefined {
  let owners = kindOwners.get(m);
  if (!owners) {
    owners = new Map();
    for (const o of new Set(m.crdOwners.values())) {
      for (const d of o.providedCrds) if (!owners.has(gvkKey(d))) owners.set(gvkKey(d), o);
    }
    kindOwners.set(m, owners);
  }
  return owners.get(gvkKey(gvk));
}

/** Object counts by kind, sorted by kind. */
export function objectCounts(m: PlatformModel): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of m.objects) counts[o.json.kind] = (counts[o.json.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
