/**
 * What `mlplatform apply` checks before its first write, so that a run that cannot finish
 * does not start: the server's Kubernetes version against every component's minimum, the
 * objects' owners (another platform's ApplySet, another declarative tool), and the caller's
 * permissions for every verb, resource and namespace the apply, its waits and its prune use
 * (SelfSubjectAccessReview, as `kubectl auth can-i` asks).
 */
import { APPLYSET_PART_OF } from './applyset';
import { ApiError, KubeClient } from './client';
import { describeRef, groupOf, Json, KubernetesNeed, Manifest } from './desired';

export type { KubernetesNeed } from './desired';
import { compareKubernetesVersions } from '../kubernetes-version';


/** Runs `fn` over `items`, at most `limit` at a time; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The server's Kubernetes version as MAJOR.MINOR ("1.28"; a provider's "28+" is read as 28). */
export async function serverVersion(client: KubeClient): Promise<string> {
  const v = await client.request('GET', '/version');
  return `${String(v?.major ?? '').replace(/\D.*$/, '')}.${String(v?.minor ?? '').replace(/\D.*$/, '')}`;
}

/** One line per component whose minimum Kubernetes version is newer than the server's. */
export function versionProblems(server: string, needs: readonly KubernetesNeed[]): string[] {
  return needs.filter((n) => compareKubernetesVersions(server, n.min) < 0)
    .map((n) => `component ${n.component} needs Kubernetes >= ${n.min} (${n.feature}); the server is ${server}: upgrade the cluster, or disable ${n.component}`);
}

/** A permission the run needs. */
export interface AccessNeed {
  readonly verb: string;
  /** '' for the core group. */
  readonly group: string;
  /** The plural resource name (deployments). */
  readonly resource: string;
  /** Undefined for cluster-scoped resources (and cluster-wide lists). */
  readonly namespace?: string;
}

/**
 * The needs the server denies, as lines grouped by resource and namespace
 * (`create, patch apps/deployments in namespace kserve`).
 */
export async function accessProblems(client: KubeClient, needs: readonly AccessNeed[]): Promise<string[]> {
  const unique = new Map<string, AccessNeed>();
  for (const n of needs) unique.set(`${n.verb}|${n.group}|${n.resource}|${n.namespace ?? ''}`, n);
  const all = [...unique.values()];
  const allowed = await mapLimit(all, 8, async (n) => {
    const review = await client.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: n.verb, group: n.group, resource: n.resource, ...(n.namespace ? { namespace: n.namespace } : {}) } },
    });
    return review?.status?.allowed === true;
  });
  const denied = new Map<string, string[]>();
  all.forEach((n, i) => {
    if (allowed[i]) return;
    const where = `${n.group || 'core'}/${n.resource} ${n.namespace ? `in namespace ${n.namespace}` : 'cluster-wide'}`;
    denied.set(where, [...(denied.get(where) ?? []), n.verb]);
  });
  return [...denied.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([where, verbs]) => `not allowed to ${verbs.join(', ')} ${where}`);
}

/** The plural and scope of a kind: from discovery, else from a CRD among `objects` (not created yet). */
export async function resourceFor(client: KubeClient, apiVersion: string, kind: string, objects: readonly Manifest[]): Promise<{ plural: string; namespaced: boolean } | undefined> {
  try {
    return await client.resourceOf(apiVersion, kind);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  const crd = objects.find((o) => o.kind === 'CustomResourceDefinition' && o.spec?.group === groupOf(apiVersion) && o.spec?.names?.kind === kind);
  return crd ? { plural: String(crd.spec.names.plural), namespaced: crd.spec.scope !== 'Cluster' } : undefined;
}

/**
 * Whether `--adopt` names an object: `all`, `Kind/name` or `Kind/namespace/name` (kind in any
 * case, optionally `Kind.group`).
 */
export function adoptMatches(o: Json, specs: readonly string[]): boolean {
  const group = groupOf(o.apiVersion);
  const kinds = [String(o.kind).toLowerCase(), group ? `${String(o.kind).toLowerCase()}.${group}` : ''].filter(Boolean);
  return specs.some((s) => {
    if (s === 'all') return true;
    const parts = s.split('/');
    const kind = parts[0].toLowerCase();
    if (!kinds.includes(kind)) return false;
    if (parts.length === 2) return parts[1] === o.metadata.name;
    return parts.length === 3 && parts[1] === (o.metadata.namespace ?? '') && parts[2] === o.metadata.name;
  });
}

/** An object on the cluster that this run would take from someone else. */
export interface OwnershipConflict {
  readonly ref: string;
  /** What owns it now, in words. */
  readonly owner: string;
  /** --adopt names it. */
  readonly adopted: boolean;
}

/** Field managers that own an object through server-side apply (not status writers), but `ours`. */
export function applyManagers(live: Json, ours: readonly string[]): string[] {
  return [...new Set((live.metadata?.managedFields ?? [])
    .filter((m: Json) => m.operation === 'Apply' && !m.subresource && !ours.includes(m.manager))
    .map((m: Json) => String(m.manager)))].sort() as string[];
}

/**
 * The objects of the output that exist on the cluster and belong to another ApplySet (a
 * part-of label with another id), or that no ApplySet claims but another tool applies
 * (a server-side-apply manager other than ours). `parents` names the parent Secrets of the
 * other ApplySets, where they could be found.
 */
export function ownershipConflicts(objects: readonly Manifest[], live: ReadonlyMap<Manifest, Json | undefined>, id: string, ours: readonly string[],
  adopt: readonly string[], parents: ReadonlyMap<string, string>): OwnershipConflict[] {
  const out: OwnershipConflict[] = [];
  for (const o of objects) {
    const l = live.get(o);
    if (!l) continue;
    const partOf: string | undefined = l.metadata?.labels?.[APPLYSET_PART_OF];
    if (partOf === id) continue;
    const managers = applyManagers(l, ours);
    let owner: string | undefined;
    if (partOf) {
      owner = `ApplySet ${partOf}${parents.has(partOf) ? ` (parent ${parents.get(partOf)})` : ''}${managers.length ? `, field manager ${managers.join(', ')}` : ''}`;
    } else if (managers.length) {
      owner = `field manager ${managers.join(', ')} (server-side apply, no ApplySet)`;
    }
    if (owner) out.push({ ref: describeRef(o), owner, adopted: adoptMatches(o, adopt) });
  }
  return out;
}

/** The parent Secrets of ApplySets by id (`namespace/name`), for messages; ids whose parent cannot be listed are left out. */
export async function applySetParents(client: KubeClient, ids: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of new Set(ids)) {
    try {
      const list = await client.request('GET', `/api/v1/secrets?${new URLSearchParams({ labelSelector: `applyset.kubernetes.io/id=${id}` })}`);
      const s = list?.items?.[0];
      if (s) out.set(id, `Secret ${s.metadata.namespace}/${s.metadata.name}`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e; // not allowed to list Secrets: the id alone
    }
  }
  return out;
}
