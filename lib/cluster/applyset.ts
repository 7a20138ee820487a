/**
 * The ApplySet of a platform (KEP-3659, applyset.kubernetes.io): a parent Secret that names
 * the group-kinds and namespaces of its members, and a part-of label on every member, so
 * that `kubectl get -l applyset.kubernetes.io/part-of=<id>` shows what `mlplatform apply`
 * applied and pruning finds exactly this platform's objects.
 */
import { createHash } from 'crypto';
import { ApiError, KubeClient } from './client';
import { groupOf, Json } from './desired';


export const APPLYSET_PART_OF = 'applyset.kubernetes.io/part-of';
export const APPLYSET_ID = 'applyset.kubernetes.io/id';
export const APPLYSET_TOOLING = 'applyset.kubernetes.io/tooling';
export const APPLYSET_GROUP_KINDS = 'applyset.kubernetes.io/contains-group-kinds';
export const APPLYSET_NAMESPACES = 'applyset.kubernetes.io/additional-namespaces';

/** The tool name in the tooling annotation (`mlplatform/<version>`): other tools refuse to change our ApplySets. */
export const TOOL_NAME = 'mlplatform';

export interface ApplySetParent {
  readonly name: string;
  readonly namespace: string;
}

/** The parent Secret of a platform's ApplySet. */
export function applySetParent(platform: string, namespace?: string): ApplySetParent {
  return { name: `mlplatform-${platform}`, namespace: namespace ?? 'default' };
}

/** The ApplySet id: `applyset-` + base64url(sha256(<name>.<namespace>.<kind>.<group>)) + `-v1`, for a Secret parent. */
export function applySetId(parent: ApplySetParent): string {
  const hash = createHash('sha256').update(`${parent.name}.${parent.namespace}.Secret.`).digest('base64url');
  return `applyset-${hash}-v1`;
}

/** `Kind.group` (or `Kind` for the core group), as contains-group-kinds lists it. */
export function groupKind(o: Json): string {
  const g = groupOf(o.apiVersion);
  return g ? `${o.kind}.${g}` : o.kind;
}

/** The object with the part-of label added (a copy; the output is not changed). */
export function withPartOf<T extends Json>(json: T, id: string): T {
  return { ...json, metadata: { ...json.metadata, labels: { ...(json.metadata?.labels ?? {}), [APPLYSET_PART_OF]: id } } };
}

/** What the parent on the cluster says (empty when there is none yet). */
export interface ApplySetState {
  readonly exists: boolean;
  readonly groupKinds: string[];
  readonly namespaces: string[];
}

/** Reads the parent; refuses one that another tool manages or whose id label differs. */
export async function readApplySet(client: KubeClient, parent: ApplySetParent): Promise<ApplySetState> {
  let obj: Json | undefined;
  try {
    obj = await client.get('v1', 'Secret', parent.namespace, parent.name);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) obj = undefined; // the namespace does not exist yet
    else throw e;
  }
  if (!obj) return { exists: false, groupKinds: [], namespaces: [] };
  const annotations: Record<string, string> = obj.metadata?.annotations ?? {};
  const tooling = annotations[APPLYSET_TOOLING] ?? '';
  const ref = `Secret ${parent.namespace}/${parent.name}`;
  if (tooling.split('/')[0] !== TOOL_NAME) {
    throw new Error(`ApplySet parent ${ref} exists but is managed by '${tooling || 'no tool'}', not ${TOOL_NAME}: choose another namespace for it (--applyset-namespace) or remove it`);
  }
  const id = obj.metadata?.labels?.[APPLYSET_ID];
  if (id !== applySetId(parent)) throw new Error(`ApplySet parent ${ref} has label ${APPLYSET_ID}=${id}, expected ${applySetId(parent)}: it was not made for this parent; remove it`);
  const list = (s: string | undefined) => (s ? s.split(',').filter(Boolean) : []);
  return { exists: true, groupKinds: list(annotations[APPLYSET_GROUP_KINDS]), namespaces: list(annotations[APPLYSET_NAMESPACES]) };
}

/** Writes the parent with these members' group-kinds and namespaces (sorted, as kubectl writes them). */
export async function writeApplySet(client: KubeClient, parent: ApplySetParent, groupKinds: Iterable<string>, namespaces: Iterable<string>,
  options: { fieldManager: string; version: string; dryRun?: boolean }): Promise<void> {
  const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: parent.name,
      namespace: parent.namespace,
      labels: { [APPLYSET_ID]: applySetId(parent) },
      annotations: {
        [APPLYSET_TOOLING]: `${TOOL_NAME}/${options.version}`,
        [APPLYSET_GROUP_KINDS]: sorted(groupKinds).join(','),
        [APPLYSET_NAMESPACES]: sorted([...namespaces].filter((n) => n !== parent.namespace)).join(','),
      },
    },
    type: 'Opaque',
  };
  await client.apply(body, { fieldManager: options.fieldManager, dryRun: options.dryRun });
}

/** A group-kind of an ApplySet that the server serves in no version: its members cannot be found. */
export class UnresolvedKindError extends Error {}

/**
 * The members of an ApplySet on the cluster: objects of its group-kinds, in its namespaces
 * (and cluster-scoped), that carry its part-of label. Each kind is found in whichever version
 * of its group the server serves it (a group's preferred version need not serve every kind:
 * serving.kserve.io prefers v1beta1, ClusterServingRuntime is only in v1alpha1). A kind the
 * server serves in no version is an UnresolvedKindError: its members, if any, could not be
 * listed, so pruning without them would leave them behind unseen. Each member comes as its
 * apiVersion, kind and metadata only (a list of a platform's CRDs would otherwise be megabytes).
 */
export async function listMembers(client: KubeClient, id: string, state: ApplySetState, parent: ApplySetParent,
  options: { mayBeUnserved?: ReadonlySet<string> } = {}): Promise<Json[]> {
  const out: Json[] = [];
  const namespaces = [...new Set([parent.namespace, ...state.namespaces])];
  const unresolved: string[] = [];
  const selector = `${APPLYSET_PART_OF}=${id}`;
  for (const gk of state.groupKinds) {
    const dot = gk.indexOf('.');
    const kind = dot < 0 ? gk : gk.slice(0, dot);
    const group = dot < 0 ? '' : gk.slice(dot + 1);
    const found = await client.resolveKind(group, kind);
    if (!found) {
      // A kind a dry run would have added (its CRD was not created): it has no members yet.
      if (!options.mayBeUnserved?.has(gk)) unresolved.push(gk);
      continue;
    }
    const { apiVersion, info } = found;
    if (!info.namespaced) out.push(...await client.list(apiVersion, kind, { labelSelector: selector, metadataOnly: true }));
    else for (const ns of namespaces) out.push(...await client.list(apiVersion, kind, { namespace: ns, labelSelector: selector, metadataOnly: true }));
  }
  if (unresolved.length) {
    throw new UnresolvedKindError(`ApplySet ${parent.namespace}/${parent.name} lists ${unresolved.join(', ')} in ${APPLYSET_GROUP_KINDS}, ` +
      `but the server serves ${unresolved.length > 1 ? 'these kinds' : 'this kind'} in no version of ${unresolved.length > 1 ? 'their groups' : 'its group'}, so members of ${unresolved.length > 1 ? 'them' : 'it'} cannot be found and nothing was pruned. ` +
      'Install the CRD again (then prune), or, if its objects are gone with it, remove the kind from that annotation of the parent Secret');
  }
  return out;
}
