/**
 * Whether a server-side apply would change an object, told without asking the server.
 *
 * apply sends each object that exists as a dry-run server-side apply first, and writes only
 * when the answer differs from the live object in its fields or in apply's field ownership.
 * For the server that dry run is the whole apply less the write: the object decoded, merged
 * with the live one (managedFields), defaulted, validated (a CRD's schema with its CEL rules
 * compiled), admitted and encoded again. A test API server spent about a fifth of its CPU on
 * such dry runs of unchanged objects (large CRDs most of all; docs/test-speed.md).
 *
 * What the dry run would answer is known beforehand when both hold:
 * 1. apply's field manager owns exactly the fields the object sets: its one `Apply` entry in
 *    managedFields (at the object's apiVersion) lists each field of the object and no other,
 *    so the apply neither takes a field over nor gives one up (which would remove it);
 * 2. each of those fields has the value the object sets: a field owned as a whole (a scalar,
 *    an atomic list or map) equal to it, a field owned member by member (a map, a list keyed
 *    by `k:` or a set by `v:`) member by member.
 * Then the merge keeps the live object as it is: a no-op apply, which apply does not write.
 * Anything this check does not recognise (two entries, another apiVersion, `i:` list
 * entries, a value the server normalised, a key field it defaulted) answers "not known", and
 * apply asks the server as before. It never answers "unchanged" for an apply that would change
 * something; what it does not see is only what a no-op apply would not change either
 * (fields of other managers, status, defaults), and admission: a webhook or policy of the
 * cluster is not called for an object whose fields are all as applied (apply still sends a
 * dry run of each object a webhook of the output guards: lib/cluster/apply.ts).
 */
import { DesiredObject, groupOf, Json, Manifest } from './desired';
import type { ObjectModel } from '../model';

/** Fields the server never records in managedFields (the field manager strips them). */
const UNTRACKED_TOP = new Set(['apiVersion', 'kind']);
const UNTRACKED_METADATA = new Set(['name', 'namespace']);
/** Fields an applied object does not set; when one does, the server is asked. */
const SERVER_METADATA = new Set(['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink']);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON equality (key order aside). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * True when a server-side apply of `applied` by `manager` would leave `live` as it is (see the
 * file's comment); false when it would not, or cannot be told here.
 */
export function applyKnownUnchanged(live: Json, applied: Json, manager: string): boolean {
  if (live.apiVersion !== applied.apiVersion || live.kind !== applied.kind) return false;
  if (live.metadata?.name !== applied.metadata?.name || (live.metadata?.namespace ?? '') !== (applied.metadata?.namespace ?? '')) return false;
  const entries = (live.metadata?.managedFields ?? []).filter((m: Json) => m.manager === manager && m.operation === 'Apply' && !m.subresource);
  if (entries.length !== 1) return false;
  const [entry] = entries;
  if (entry.apiVersion !== applied.apiVersion || (entry.fieldsType ?? 'FieldsV1') !== 'FieldsV1' || !isObject(entry.fieldsV1)) return false;

  // The applied object as the field manager records it: without apiVersion, kind, name, namespace.
  const tracked: Json = {};
  for (const [k, v] of Object.entries(applied)) {
    if (UNTRACKED_TOP.has(k)) continue;
    if (k === 'metadata') {
      if (!isObject(v)) return false;
      const meta: Json = {};
      for (const [mk, mv] of Object.entries(v)) {
        if (SERVER_METADATA.has(mk)) return false;
        if (!UNTRACKED_METADATA.has(mk)) meta[mk] = mv;
      }
      if (Object.keys(meta).length) tracked.metadata = meta;
      continue;
    }
    // The main resource's apply does not own status (the server resets it).
    if (k === 'status') return false;
    tracked[k] = v;
  }
  const others = (live.metadata.managedFields as Json[]).filter((m) => m !== entry && isObject(m.fieldsV1)).map((m) => m.fieldsV1 as Json);
  return sameFields(tracked, live, entry.fieldsV1, others, false);
}

/**
 * Whether the managed-fields node `owned` lists exactly the fields of `want`, each with the
 * value `have` has there. `others`: the other managers' nodes at the same place. `item`:
 * `want` is a member of a keyed list (its node may carry `.`).
 */
function sameFields(want: unknown, have: unknown, owned: Json, others: readonly Json[], item: boolean): boolean {
  const children = Object.keys(owned).filter((k) => k !== '.');
  if (Object.prototype.hasOwnProperty.call(owned, '.') && !item) return false;
  if (!item && !children.length) {
    // Owned as a whole: a scalar, an atomic list or map, or an empty one. A map or list owned
    // whole here while another manager owns fields inside it is not atomic: it was empty when
    // applied last, and applying members now would take them (or a share of them) over.
    const members = Array.isArray(want) ? want.length : isObject(want) ? Object.keys(want).length : 0;
    if (members && others.some((o) => Object.keys(o).some((k) => k !== '.'))) return false;
    return jsonEqual(want, have);
  }
  const below = (key: string) => others.map((o) => o[key]).filter(isObject);
  if (want === null) return false;
  if (isObject(want)) {
    if (!isObject(have)) return false;
    const keys = Object.keys(want);
    if (keys.length !== children.length) return false;
    return keys.every((k) => {
      const node = owned[`f:${k}`];
      return isObject(node) && Object.prototype.hasOwnProperty.call(have, k) && sameFields(want[k], have[k], node, below(`f:${k}`), false);
    });
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(have) || want.length !== children.length) return false;
    if (children.every((c) => c.startsWith('k:'))) {
      // A list keyed by some of its members' fields: each owned entry names exactly one member of both lists.
      // A key field the output leaves out was defaulted by the server (a Service port's
      // protocol): apply does not own it (were it owned, the output would set it, which the
      // count of fields below checks), and it names the member the output's member became.
      const keys: Array<{ c: string; fields: Array<[string, unknown]> }> = [];
      for (const c of children) {
        let key: unknown;
        try { key = JSON.parse(c.slice(2)); } catch { return false; }
        if (!isObject(key) || !Object.keys(key).length) return false;
        keys.push({ c, fields: Object.entries(key) });
      }
      const exact = (x: unknown, fields: Array<[string, unknown]>) => isObject(x) && fields.every(([f, v]) => jsonEqual(x[f], v));
      const loose = (x: unknown, fields: Array<[string, unknown]>) => isObject(x) && fields.every(([f, v]) => !Object.prototype.hasOwnProperty.call(x, f) || jsonEqual(x[f], v));
      // Members that set every key field first, then those that leave some out, among the members left.
      const member = new Map<string, number>();
      for (const match of [exact, loose]) {
        for (const k of keys.filter((x) => !member.has(x.c))) {
          const candidates = want.map((_, i) => i).filter((i) => ![...member.values()].includes(i) && match(want[i], k.fields));
          if (candidates.length > 1) return false;
          if (candidates.length === 1) member.set(k.c, candidates[0]);
        }
      }
      for (const k of keys) {
        const i = member.get(k.c);
        const live = have.filter((x) => exact(x, k.fields));
        const node = owned[k.c];
        if (i === undefined || live.length !== 1 || !isObject(node) || !sameFields(want[i], live[0], node, below(k.c), true)) return false;
      }
      return true;
    }
    if (children.every((c) => c.startsWith('v:'))) {
      // A set of scalars: the same members, each listed once.
      const values: unknown[] = [];
      for (const c of children) {
        try { values.push(JSON.parse(c.slice(2))); } catch { return false; }
        if (Object.keys(owned[c] ?? {}).length) return false;
      }
      const inBoth = (v: unknown) => want.filter((x) => jsonEqual(x, v)).length === 1 && have.filter((x) => jsonEqual(x, v)).length === 1;
      return values.every(inBoth);
    }
  }
  return false;
}

/**
 * Whether a webhook of the output sees an update of an object: an admission webhook whose
 * rules could match it (group, resource, UPDATE; any version, scope or selector, to be sure),
 * or the conversion webhook of its kind. Such an object is always sent as a dry run, even when
 * the live object shows that nothing would change: the dry run calls those webhooks, so that a
 * re-apply still finds a webhook that no longer answers (a Service without endpoints, a serving
 * certificate for other names) where the platform's own objects meet it (and diff, which does
 * the same, still reports it as an error).
 */
export function webhookGuard(model: ObjectModel<DesiredObject>): (m: Manifest, plural: string) => boolean {
  const anyOf = (list: unknown, ...values: string[]) => Array.isArray(list) && list.some((x) => values.includes(x));
  const rules = model.webhooks.filter((w) => w.type !== 'conversion').flatMap((w) => w.rules);
  const converted = new Set(model.webhooks.filter((w) => w.type === 'conversion').map((w) => `${w.owner.json.spec?.group}/${w.owner.json.spec?.names?.kind}`));
  return (m, plural) => {
    const group = groupOf(m.apiVersion);
    if (converted.has(`${group}/${m.kind}`)) return true;
    return rules.some((r) => anyOf(r?.apiGroups, '*', group) && anyOf(r?.resources, '*', '*/*', plural) && anyOf(r?.operations, '*', 'UPDATE'));
  };
}
