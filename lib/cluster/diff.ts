/**
 * `mlplatform diff`: what `mlplatform apply` would change, per component and object.
 *
 * Each object is sent as a server-side dry-run apply with apply's field manager, so the
 * server's defaulting and our field ownership decide the result, exactly as apply would
 * store it; that is compared with the live object. Fields controllers change at run time
 * (the Argo CD ignoreDifferences list: injected caBundles, aggregated rules, rotated
 * Secrets) are left out. A change to a field another field manager set last is drift, and
 * names that manager. ApplySet members not in the output are the prune set.
 */
import { applySetId, applySetParent, listMembers, readApplySet, withPartOf } from './applyset';
import { ApiError, KubeClient } from './client';
import { DesiredPlatform, describeRef, groupOf, Json, objectKey } from './desired';
import { ClusterOptions, fieldManagerFor, hasLegacyManager, LEGACY_FIELD_MANAGER } from './options';
import { planSecrets } from './secrets';
import { applyKnownUnchanged, webhookGuard } from './unchanged';
import { IgnoredField } from '../gitops/ignore';
import { ObjectModel } from '../model';

export type FieldPath = ReadonlyArray<string | number>;

export interface FieldChange {
  readonly path: FieldPath;
  /** undefined: the field is added. */
  readonly from?: unknown;
  /** undefined: the field is removed. */
  readonly to?: unknown;
  /** Field managers other than apply's that set the live value (drift made by someone else). */
  readonly managers: string[];
}

export interface ObjectDiff {
  readonly ref: string;
  readonly component: string;
  readonly phase: string;
  readonly action: 'create' | 'update' | 'unchanged';
  readonly changes: FieldChange[];
  /** With showForeign: fields another manager added inside this object, that the output does not set. */
  readonly foreign?: ForeignField[];
}

/** A field of a live object that the output does not set and another field manager does. */
export interface ForeignField {
  readonly path: string;
  readonly manager: string;
}

/**
 * The fields other managers own in a live object that the desired object does not have
 * (topmost path only), from their managedFields entries; status writers and run-time fields
 * the server keeps for itself are left out.
 */
export function foreignFields(live: Json, desired: Json, ours: readonly string[]): ForeignField[] {
  const out: ForeignField[] = [];
  const skip = new Set(['metadata.managedFields', 'metadata.resourceVersion', 'metadata.uid', 'metadata.generation', 'metadata.creationTimestamp', 'status']);
  const walk = (fields: Json, want: unknown, at: string, manager: string) => {
    for (const [key, sub] of Object.entries(fields)) {
      if (key === '.') continue;
      let path: string;
      let next: unknown;
      if (key.startsWith('f:')) {
        const name = key.slice(2);
        path = at ? `${at}.${name}` : name;
        next = isObject(want) ? want[name] : undefined;
      } else if (key.startsWith('k:')) {
        let match: Json = {};
        try { match = JSON.parse(key.slice(2)); } catch { /* keep {} */ }
        path = `${at}[${Object.entries(match).map(([k, v]) => `${k}=${String(v)}`).join(',')}]`;
        next = Array.isArray(want) ? want.find((item) => isObject(item) && Object.entries(match).every(([k, v]) => item[k] === v)) : undefined;
      } else if (key.startsWith('v:')) {
        path = `${at}[${key.slice(2)}]`;
        let value: unknown;
        try { value = JSON.parse(key.slice(2)); } catch { value = undefined; }
        next = Array.isArray(want) && want.some((x) => JSON.stringify(x) === JSON.stringify(value)) ? value : undefined;
      } else {
        continue;
      }
      if (skip.has(path)) continue;
      const children = isObject(sub) ? Object.entries(sub).filter(([k]) => k !== '.') : [];
      // A flat map the output lacks (annotations, labels, data): its keys, one by one.
      const flat = children.length > 0 && children.every(([, v]) => !isObject(v) || Object.keys(v).every((k) => k === '.'));
      if (next === undefined && !flat) out.push({ path, manager });
      else if (next === undefined) walk(sub, {}, path, manager);
      else if (isObject(sub) && Object.keys(sub).some((k) => k !== '.')) walk(sub, next, path, manager);
    }
  };
  for (const entry of live.metadata?.managedFields ?? []) {
    if (ours.includes(entry.manager) || entry.subresource) continue;
    walk(entry.fieldsV1 ?? {}, desired, '', String(entry.manager));
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.manager.localeCompare(b.manager));
}

export interface DiffResult {
  readonly objects: ObjectDiff[];
  /** ApplySet members on the cluster that the output no longer has (what apply --prune deletes). */
  readonly prune: string[];
  /** Objects the server refused in the dry run, with its message. */
  readonly errors: string[];
  /** Referenced Secrets apply would generate (`v1 Secret ns/name (keys): purpose`). @default [] */
  readonly generate?: string[];
  /** Referenced Secrets that stop apply (a user-provided one missing, a key missing). @default [] */
  readonly secretProblems?: string[];
}

/** Whether anything would change. */
export const hasChanges = (d: DiffResult): boolean => d.prune.length > 0 || (d.generate?.length ?? 0) > 0 || d.objects.some((o) => o.action !== 'unchanged');

/** The object without what the server keeps for itself (managed fields, versions, timestamps, status). */
export function normalize(obj: Json): Json {
  const { managedFields: _m, resourceVersion: _r, generation: _g, creationTimestamp: _c, uid: _u, selfLink: _s, ...metadata } = obj.metadata ?? {};
  const { status: _status, ...rest } = obj;
  return { ...rest, metadata };
}

/** A path pattern (`*` for any list item) from a JSON pointer (`/webhooks/*\/clientConfig/caBundle`) or a jq path (`.webhooks[]?.clientConfig.caBundle`). */
export function ignorePatterns(fields: readonly IgnoredField[], obj: Json): string[][] {
  const mine = fields.filter((f) => f.group === groupOf(obj.apiVersion) && f.kind === obj.kind && f.name === obj.metadata?.name && (f.namespace ?? '') === (obj.metadata?.namespace ?? ''));
  return mine.flatMap((f) => [
    ...f.jsonPointers.map((p) => p.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))),
    ...f.jqPathExpressions.map(jqPath),
  ]);
}

function jqPath(jq: string): string[] {
  const out: string[] = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\[\]\??|\[("(?:[^"\\]|\\.)*")\]/g;
  for (let m = re.exec(jq); m; m = re.exec(jq)) out.push(m[1] ?? (m[2] ? String(JSON.parse(m[2])) : '*'));
  return out;
}

const ignored = (path: FieldPath, patterns: readonly string[][]) =>
  patterns.some((p) => p.length <= path.length && p.every((s, i) => s === '*' ? typeof path[i] === 'number' : s === String(path[i])));

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaf fields that differ between two objects (lists item by item; a list that changes length is one change). */
export function fieldChanges(from: unknown, to: unknown, patterns: readonly string[][] = [], path: Array<string | number> = []): Array<{ path: FieldPath; from?: unknown; to?: unknown }> {
  if (ignored(path, patterns)) return [];
  if (isObject(from) && isObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((k) => fieldChanges(from[k], to[k], patterns, [...path, k]));
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    return from.flatMap((x, i) => fieldChanges(x, to[i], patterns, [...path, i]));
  }
  if (JSON.stringify(from) === JSON.stringify(to)) return [];
  return [{ path, from, to }];
}

/**
 * The field managers (other than `self`) whose managed fields include the path in the live
 * object, or its list containing it.
 */
export function managersOf(live: Json, path: FieldPath, self: string): string[] {
  const out = new Set<string>();
  for (const entry of live.metadata?.managedFields ?? []) {
    if (entry.manager === self) continue;
    if (owns(entry.fieldsV1 ?? {}, live, path)) out.add(String(entry.manager));
  }
  return [...out].sort();
}

function owns(fields: Json, value: unknown, path: FieldPath): boolean {
  if (!path.length) return true;
  const [head, ...rest] = path;
  if (typeof head === 'string') {
    const next = fields[`f:${head}`];
    if (next === undefined) return false;
    return owns(next, isObject(value) ? value[head] : undefined, rest);
  }
  const item = Array.isArray(value) ? value[head] : undefined;
  for (const [key, next] of Object.entries(fields)) {
    if (key.startsWith('k:')) {
      const k = JSON.parse(key.slice(2)) as Json;
      if (isObject(item) && Object.entries(k).every(([f, v]) => JSON.stringify(item[f]) === JSON.stringify(v))) return owns(next as Json, item, rest);
    } else if (key.startsWith('v:')) {
      if (JSON.stringify(JSON.parse(key.slice(2))) === JSON.stringify(item)) return true;
    } else if (key === `i:${head}`) {
      return owns(next as Json, item, rest);
    }
  }
  // A list owned as a whole (atomic): whoever owns the list owns its items.
  return Object.keys(fields).length === 0 || '.' in fields;
}

/** `spec.template.spec.containers[0].image` */
export function formatPath(path: FieldPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(s) ? `${i ? '.' : ''}${s}` : `[${JSON.stringify(s)}]`)).join('');
}

/** Computes what apply would change. Errors of single objects are collected, not thrown. */
export async function diffPlatform(client: KubeClient, desired: DesiredPlatform, options: ClusterOptions & { readonly showForeign?: boolean } = {}): Promise<DiffResult> {
  const fieldManager = options.fieldManager ?? fieldManagerFor(desired.name);
  const parent = applySetParent(desired.name, options.applySetNamespace);
  const id = applySetId(parent);
  const objects: ObjectDiff[] = [];
  const errors: string[] = [];
  const guarded = webhookGuard(new ObjectModel(desired.objects));
  for (const o of desired.objects) {
    const json = withPartOf(o.json, id);
    const base = { ref: describeRef(o.json), component: o.component, phase: o.phase };
    let live: Json | undefined;
    try {
      live = await client.get(json.apiVersion, json.kind, json.metadata.namespace, json.metadata.name);
    } catch (e) {
      // Not served yet: its CRD (in this output) comes with the apply.
      if (e instanceof ApiError && e.status === 404) {
        objects.push({ ...base, action: 'create', changes: [] });
        continue;
      }
      throw e;
    }
    if (!live) {
      objects.push({ ...base, action: 'create', changes: [] });
      continue;
    }
    const foreign = options.showForeign ? foreignFields(live, json, [fieldManager, LEGACY_FIELD_MANAGER]) : undefined;
    // What apply knows without a dry run (lib/cluster/unchanged.ts), diff knows too: such an
    // object is unchanged, unless a webhook of the output guards it (its dry run calls them).
    const legacy = hasLegacyManager(live, fieldManager);
    if (!legacy && applyKnownUnchanged(live, json, fieldManager) && !guarded(json, (await client.resourceOf(json.apiVersion, json.kind)).plural)) {
      objects.push({ ...base, action: 'unchanged', changes: [], ...(foreign ? { foreign } : {}) });
      continue;
    }
    let dry: Json;
    try {
      dry = await client.apply(json, { fieldManager, dryRun: true });
    } catch (e) {
      errors.push(`${base.ref} (${o.component}): ${(e as Error).message}`);
      continue;
    }
    const patterns = ignorePatterns(desired.ignored, o.json);
    const changes = fieldChanges(normalize(live), normalize(dry), patterns).map((c) => ({ ...c, managers: managersOf(live!, c.path, fieldManager).filter((m) => m !== LEGACY_FIELD_MANAGER) }));
    objects.push({ ...base, action: changes.length ? 'update' : 'unchanged', changes, ...(foreign ? { foreign } : {}) });
  }
  const state = await readApplySet(client, parent);
  const keep = new Set(desired.objects.map((o) => objectKey(o.json)));
  const prune = (await listMembers(client, id, state, parent)).filter((m) => !keep.has(objectKey(m))).map((m) => describeRef(m));
  const secrets = await planSecrets(client, desired.secrets ?? []);
  const generate = secrets.create.map((s) => `v1 Secret ${s.namespace}/${s.name} (${s.keys.join(', ')}): ${s.purpose}`);
  return { objects, prune, errors, generate, secretProblems: [...secrets.problems] };
}

/** The diff as text: per component, each object to create or change with its fields, then the prune set. */
export function diffText(d: DiffResult): string {
  const lines: string[] = [];
  const show = (v: unknown) => (v === undefined ? '(none)' : JSON.stringify(v).slice(0, 120));
  let component = '';
  for (const o of d.objects.filter((x) => x.action !== 'unchanged')) {
    if (o.component !== component) {
      component = o.component;
      lines.push(`${o.component} (${o.phase}):`);
    }
    lines.push(`  ${o.action === 'create' ? '+' : '~'} ${o.ref}${o.action === 'create' ? ' (create)' : ''}`);
    for (const c of o.changes) {
      const by = c.managers.length ? `  [drift: set by ${c.managers.join(', ')}]` : '';
      lines.push(`      ${formatPath(c.path)}: ${show(c.from)} -> ${show(c.to)}${by}`);
    }
  }
  if (d.prune.length) {
    lines.push('prune (in the cluster, in this platform\'s ApplySet, not in the output):');
    for (const p of d.prune) lines.push(`  - ${p}`);
  }
  const foreign = d.objects.filter((o) => o.foreign?.length);
  if (foreign.length) {
    lines.push('fields other managers added inside objects we own (apply leaves them; not counted as changes):');
    for (const o of foreign) {
      lines.push(`  ${o.ref}`);
      for (const f of o.foreign!) lines.push(`      ${f.path}  [${f.manager}]`);
    }
  }
  if (d.generate?.length) {
    lines.push('Secrets apply would generate (missing; the workloads read them; values never shown):');
    for (const g of d.generate) lines.push(`  + ${g}`);
  }
  for (const p of d.secretProblems ?? []) lines.push(`apply would refuse: ${p}`);
  for (const e of d.errors) lines.push(`error: ${e}`);
  const n = (a: string) => d.objects.filter((o) => o.action === a).length;
  lines.push(hasChanges(d)
    ? `${n('create')} to create, ${n('update')} to change, ${d.prune.length} to prune, ${n('unchanged')} unchanged${d.generate?.length ? `, ${d.generate.length} Secrets to generate` : ''}`
    : `no changes: ${n('unchanged')} objects as in the output`);
  return lines.join('\n') + '\n';
}
