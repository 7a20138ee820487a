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

/**
 * The members of an ApplySet on the cluster: objects of its group-kinds, in its namespaces
 * (and cluster-scoped), that carry its part-of label. Kinds the server no longer serves are skipped.
 */
export async function listMembers(client: KubeClient, id: string, state: ApplySetState, parent: ApplySetParent): Promise<Json[]> {
  const out: Json[] = [];
  const namespaces = [...new Set([parent.namespace, ...state.namespaces])];
  for (const gk of state.groupKinds) {
    const dot = gk.indexOf('.');
    const kind = dot < 0 ? gk : gk.slice(0, dot);
    const group = dot < 0 ? '' : gk.slice(dot + 1);
    const apiVersion = await preferredVersion(client, group);
    if (!apiVersion) continue;
    let info;
    try {
      info = await client.resourceOf(apiVersion, kind);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) continue;
      throw e;
    }
    const selector = `${APPLYSET_PART_OF}=${id}`;
    if (!info.namespaced) out.push(...await client.list(apiVersion, kind, { labelSelector: selector }));
    else for (const ns of namespaces) out.push(...await client.list(apiVersion, kind, { namespace: ns, labelSelector: selector }));
  }
  return out;
}

/** The preferred apiVersion of a group, from discovery; undefined when the group is not served. */
async function preferredVersion(client: KubeClient, group: string): Promise<string | undefined> {
  if (!group) return 'v1';
  try {
    const g = await client.request('GET', `/apis/${group}`);
    return g?.preferredVersion?.groupVersion;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}
