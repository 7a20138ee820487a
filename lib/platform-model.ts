import type { Component } from './component';
import { ObjectModel } from './model';
import type { PlatformModel, PlatformObject } from './platform';

/*
 * The model of a resolved platform (lib/model.ts), with what its component graph adds: which
 * component serves each kind, which CRDs several components declare. Apart from lib/model.ts
 * so that the model of plain objects depends on no construct.
 */

/** The one model of a resolved platform: its objects' facts, plus what the component graph knows. */
export class PlatformFacts extends ObjectModel<PlatformObject> {
  private owners?: Map<string, Component>;
  private shared?: Array<[string, Component, Component[]]>;
  private counts?: Record<string, number>;

  constructor(public readonly platformModel: PlatformModel) {
    super(platformModel.objects, { runtimeChanges: platformModel.runtimeChanges });
  }

  /** The component that serves each group/kind (`gvkKey`): the owner of its CRD, the first in CRD name order. */
  public get kindOwners(): ReadonlyMap<string, Component> {
    if (this.owners) return this.owners;
    const out = new Map<string, Component>();
    for (const [crd, owner] of this.platformModel.crdOwners) {
      const def = owner.crds.find((d) => d.name === crd)?.definition;
      const key = def && `${def.group}/${def.kind}`;
      if (key && !out.has(key)) out.set(key, owner);
    }
    return this.owners = out;
  }

  /** CRDs that several components declare: name, the component that emits it, the others; by name. */
  public get sharedCrds(): ReadonlyArray<[string, Component, Component[]]> {
    if (this.shared) return this.shared;
    const out: Array<[string, Component, Component[]]> = [];
    const m = this.platformModel;
    for (const [crd, owner] of [...m.crdOwners.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const users = m.components.filter((c) => c !== owner && c.crds.some((d) => d.name === crd));
      if (users.length) out.push([crd, owner, users]);
    }
    return this.shared = out;
  }

  /** Object counts by kind, sorted by kind. */
  public get objectCounts(): Readonly<Record<string, number>> {
    if (this.counts) return this.counts;
    const counts: Record<string, number> = {};
    for (const o of this.objects) counts[o.json.kind] = (counts[o.json.kind] ?? 0) + 1;
    return this.counts = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}

const platformFacts = new WeakMap<PlatformModel, PlatformFacts>();

/** The model of a resolved platform: built once per PlatformModel, shared by every reader. */
export function modelOf(m: PlatformModel): PlatformFacts {
  let facts = platformFacts.get(m);
  if (!facts) platformFacts.set(m, facts = new PlatformFacts(m));
  return facts;
}
