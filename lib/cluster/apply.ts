/**
 * `mlplatform apply`: brings a platform onto a cluster the way the cold-apply proof orders it.
 *
 * 1. Prerequisites first: every API the platform leaves to something already installed
 *    (cert-manager, OpenShift, the ODH operator) must be served; if one is not, nothing is
 *    changed and the error names it.
 * 2. Server-side apply with one field manager, phase by phase, component by component, in
 *    output order. Whole manifests go to the server as written (large CRDs need nothing else).
 * 3. Between phases, waits for what the next needs: CRDs Established (then discovery is read
 *    again), Deployments Available, Certificates Ready...; and before a webhook configuration
 *    (or a custom resource of a CRD with a conversion webhook) a ready endpoint behind each
 *    webhook Service.
 * 4. Every object carries the platform's ApplySet label; with prune, the ApplySet's members
 *    that are no longer in the output are deleted: webhooks first, then in reverse phase
 *    order, never a CRD that still has custom resources (unless pruneCrds).
 */
import { Phase, PHASES } from '../phases';
import { APPLYSET_PART_OF, applySetId, ApplySetParent, applySetParent, groupKind, listMembers, readApplySet, withPartOf, writeApplySet } from './applyset';
import { ApiError, KubeClient } from './client';
import { DesiredObject, DesiredPlatform, describeRef, groupOf, Json, objectKey } from './desired';
import { fieldChanges, normalize } from './diff';
import { ClusterOptions, FIELD_MANAGER } from './options';
import { waitEndpoints, waitReady, WaitReporter, webhookServices } from './waits';
import { isBuiltinGroup } from '../validation/builtin-kinds';


export interface ApplyOptions extends ClusterOptions {
  /** Server-side dry run: validated and admitted, nothing stored, no waits. @default false */
  readonly dryRun?: boolean;
  /** Delete the ApplySet's members that are no longer in the output. @default false */
  readonly prune?: boolean;
  /** With prune, also delete CRDs that still have custom resources. @default false */
  readonly pruneCrds?: boolean;
}

export type ApplyAction = 'created' | 'configured' | 'unchanged' | 'pruned' | 'kept';

export interface ApplyOutcome {
  readonly ref: string;
  readonly component: string;
  readonly phase: string;
  readonly action: ApplyAction;
  /** Why a prune candidate was kept. */
  readonly note?: string;
}

export interface ApplyResult {
  readonly outcomes: ApplyOutcome[];
  /** Nothing was created, configured or pruned. */
  readonly unchanged: boolean;
}

/** A prerequisite the cluster lacks: apply stopped before changing anything. */
export class PrerequisiteError extends Error {}

/** Every prerequisite whose APIs the server does not serve, as one line each. */
export async function missingPrerequisites(client: KubeClient, desired: DesiredPlatform): Promise<string[]> {
  const missing: string[] = [];
  for (const p of desired.prerequisites) {
    const absent: string[] = [];
    for (const k of p.kinds) {
      const apiVersion = k.group ? `${k.group}/${k.version ?? ''}` : k.version ?? 'v1';
      try {
        // Any served version of the group, when none is named.
        if (!k.version) {
          if (!(await client.resolveKind(k.group, k.kind))) absent.push(`${k.group} ${k.kind} (any version)`);
          continue;
        }
        await client.resourceOf(apiVersion, k.kind);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) absent.push(`${apiVersion} ${k.kind}`);
        else throw e;
      }
    }
    if (absent.length) {
      missing.push(p.name === 'unknown'
        ? `the output uses kinds that neither it nor a declared prerequisite serves, and the server does not serve them: ${absent.join(', ')}`
        : `prerequisite ${p.name} is missing: the server does not serve ${absent.join(', ')}; install ${p.name} first (or include it in the platform as a component)`);
    }
  }
  return missing;
}

const isWebhookConfiguration = (kind: string) => kind === 'ValidatingWebhookConfiguration' || kind === 'MutatingWebhookConfiguration';

/** The CRDs of the output with a conversion webhook, by group/kind. */
function conversionCrds(objects: readonly DesiredObject[]): Map<string, Json> {
  return new Map(objects.filter((o) => o.json.kind === 'CustomResourceDefinition' && o.json.spec?.conversion?.webhook)
    .map((o) => [`${o.json.spec.group}/${o.json.spec.names.kind}`, o.json]));
}

/** Applies a platform. Throws PrerequisiteError before any change when a prerequisite is missing, and on a failed wait. */
export async function applyPlatform(client: KubeClient, desired: DesiredPlatform, options: ApplyOptions = {}): Promise<ApplyResult> {
  const fieldManager = options.fieldManager ?? FIELD_MANAGER;
  const reporter = options.reporter ?? { line: () => undefined, progress: () => undefined };
  const waitOptions = { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs, reporter };
  const dryRun = options.dryRun ?? false;

  const missing = await missingPrerequisites(client, desired);
  if (missing.length) throw new PrerequisiteError(`nothing was changed:\n${missing.map((m) => `  ${m}`).join('\n')}`);

  const parent = applySetParent(desired.name, options.applySetNamespace);
  const id = applySetId(parent);
  const before = await readApplySet(client, parent);
  const groupKinds = new Set(desired.objects.map((o) => groupKind(o.json)));
  const namespaces = new Set(desired.objects.map((o) => o.json.metadata.namespace).filter((n): n is string => !!n));
  const writeParent = (gks: Iterable<string>, nss: Iterable<string>) =>
    writeApplySet(client, parent, gks, nss, { fieldManager, version: options.version ?? '0.0.0', dryRun });
  const outcomes: ApplyOutcome[] = [];
  // The parent first names every kind and namespace the set may hold after this run (old and
  // new), so that an interrupted run still leaves every member findable.
  const superset = [new Set([...before.groupKinds, ...groupKinds]), new Set([...before.namespaces, ...namespaces])] as const;
  const parentChanges = !before.exists || superset[0].size !== before.groupKinds.length || superset[1].size !== before.namespaces.length;
  if (parentChanges && (await namespaceExists(client, parent.namespace))) await writeParent(...superset);

  const conversions = conversionCrds(desired.objects);
  const servicePhase = new Map(desired.objects.filter((o) => o.json.kind === 'Service' && o.json.apiVersion === 'v1')
    .map((o) => [`${o.json.metadata.namespace}/${o.json.metadata.name}`, PHASES.indexOf(o.phase as Phase)]));
  for (const phase of PHASES) {
    const inPhase = desired.objects.filter((o) => o.phase === phase);
    if (!inPhase.length) continue;
    reporter.line(`${phase}: ${inPhase.length} objects`);
    client.forgetDiscovery();
    // Before webhooks (and custom resources converted by a webhook) are used: their backends answer.
    if (!dryRun) {
      const services = new Map<string, { namespace: string; name: string }>();
      for (const o of inPhase) {
        const owner = isWebhookConfiguration(o.json.kind) ? o.json : conversions.get(`${groupOf(o.json.apiVersion)}/${o.json.kind}`);
        if (owner) for (const s of webhookServices(owner)) services.set(`${s.namespace}/${s.name}`, s);
      }
      for (const s of services.values()) {
        // A backend applied in this phase or later cannot be up yet: the cold-apply proof reports that wait as broken.
        const later = servicePhase.get(`${s.namespace}/${s.name}`);
        if (later !== undefined && later >= PHASES.indexOf(phase as Phase)) {
          reporter.line(`  not waiting for v1 Service ${s.namespace}/${s.name}: it is applied in ${PHASES[later]}, not before (see the cold-apply order in REPORT.md)`);
          continue;
        }
        await waitEndpoints(client, s.namespace, s.name, waitOptions);
      }
    }
    const components = [...new Set(inPhase.map((o) => o.component))];
    for (const component of components) {
      const counts: Record<string, number> = {};
      for (const o of inPhase.filter((x) => x.component === component)) {
        const action = await applyOne(client, o, id, fieldManager, dryRun);
        outcomes.push({ ref: describeRef(o.json), component, phase, action });
        counts[action] = (counts[action] ?? 0) + 1;
        if (action === 'configured') reporter.line(`    configured ${describeRef(o.json)}`);
      }
      reporter.line(`  ${component}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
    }
    if (!dryRun) {
      // CRDs first: the phases after need their kinds served (and discovery read again).
      for (const o of inPhase.filter((x) => x.json.kind === 'CustomResourceDefinition')) await waitReady(client, o.json, waitOptions);
      client.forgetDiscovery();
      for (const o of inPhase.filter((x) => x.json.kind !== 'CustomResourceDefinition')) await waitReady(client, o.json, waitOptions);
    }
  }
  if (!(await namespaceExists(client, parent.namespace))) {
    throw new Error(`the ApplySet parent's namespace '${parent.namespace}' does not exist: create it or choose another (--applyset-namespace)`);
  }
  if (parentChanges) await writeParent(...superset);

  if (options.prune) {
    const pruned = await prune(client, desired, parent, { ...before, groupKinds: [...superset[0]], namespaces: [...superset[1]] },
      { dryRun, pruneCrds: options.pruneCrds ?? false, reporter, before: before.groupKinds });
    outcomes.push(...pruned.outcomes);
    // The set now: the output, and what prune kept (so that a later prune still finds it).
    const final = [new Set([...groupKinds, ...pruned.kept.map(groupKind)]), new Set([...namespaces, ...pruned.kept.map((k) => k.metadata?.namespace).filter((n): n is string => !!n)])] as const;
    if (superset[0].size !== final[0].size || superset[1].size !== final[1].size) await writeParent(...final);
  }
  const unchanged = outcomes.every((o) => o.action === 'unchanged' || o.action === 'kept');
  reporter.line(summary(outcomes, dryRun));
  return { outcomes, unchanged };
}

async function namespaceExists(client: KubeClient, name: string): Promise<boolean> {
  return (await client.get('v1', 'Namespace', undefined, name)) !== undefined;
}

/**
 * Applies one object; says whether the server created, changed or kept it. An object that
 * exists is first applied as a dry run: when neither its fields nor this manager's field
 * ownership would change, nothing is written (the server would otherwise write a no-op
 * apply that only reorders managedFields or refreshes their time, a new resourceVersion
 * that watchers and GitOps tools see as a change).
 */
async function applyOne(client: KubeClient, o: DesiredObject, id: string, fieldManager: string, dryRun: boolean): Promise<ApplyAction> {
  const json = withPartOf(o.json, id);
  try {
    let live: Json | undefined;
    try {
      live = await client.get(json.apiVersion, json.kind, json.metadata.namespace, json.metadata.name);
    } catch (e) {
      // In a dry run, a custom resource whose CRD is not there yet cannot be checked by the server.
      if (dryRun && e instanceof ApiError && e.status === 404) return 'created';
      throw e;
    }
    if (!live) {
      try {
        await client.apply(json, { fieldManager, dryRun });
      } catch (e) {
        // In a dry run, an object in a Namespace this run would create first.
        if (dryRun && e instanceof ApiError && e.status === 404) return 'created';
        throw e;
      }
      return 'created';
    }
    const preview = await client.apply(json, { fieldManager, dryRun: true });
    if (!fieldChanges(normalize(live), normalize(preview)).length && sameOwnership(live, preview, fieldManager)) return 'unchanged';
    if (!dryRun) await client.apply(json, { fieldManager });
    return 'configured';
  } catch (e) {
    throw withObject(e, o);
  }
}

/** Whether a manager owns the same fields in both versions of an object. */
function sameOwnership(a: Json, b: Json, manager: string): boolean {
  const fields = (o: Json) => JSON.stringify((o.metadata?.managedFields ?? [])
    .filter((m: Json) => m.manager === manager && m.operation === 'Apply' && !m.subresource).map((m: Json) => [m.apiVersion, m.fieldsV1]));
  return fields(a) === fields(b);
}

function withObject(e: unknown, o: DesiredObject): Error {
  return new Error(`${describeRef(o.json)} (${o.component}, ${o.phase}): ${(e as Error).message}`);
}

/** Prune order: webhook configurations first, then reverse phase order (custom resources, controllers, CRDs, Namespaces last). */
export function pruneRank(o: Json): number {
  if (isWebhookConfiguration(o.kind)) return 0;
  if (o.kind === 'APIService') return 1;
  if (!isBuiltinGroup(o.apiVersion) && o.kind !== 'CustomResourceDefinition') return 2;
  if (o.kind === 'CustomResourceDefinition') return 4;
  if (o.kind === 'Namespace') return 5;
  return 3;
}

async function prune(client: KubeClient, desired: DesiredPlatform, parent: ApplySetParent, state: Parameters<typeof listMembers>[2],
  options: { dryRun: boolean; pruneCrds: boolean; reporter: WaitReporter; before: readonly string[] }): Promise<{ outcomes: ApplyOutcome[]; kept: Json[] }> {
  client.forgetDiscovery();
  const keep = new Set(desired.objects.map((o) => objectKey(o.json)));
  // In a dry run, kinds new in this run were not created: none of them can have members yet.
  const members = await listMembers(client, applySetId(parent), state, parent,
    { mayBeUnserved: options.dryRun ? new Set(state.groupKinds.filter((gk) => !options.before.includes(gk))) : undefined });
  const candidates = members.filter((m) => !keep.has(objectKey(m)) && m.metadata?.labels?.[APPLYSET_PART_OF] === applySetId(parent))
    .sort((a, b) => pruneRank(a) - pruneRank(b));
  const out: ApplyOutcome[] = [];
  const kept: Json[] = [];
  if (candidates.length) options.reporter.line(`prune: ${candidates.length} objects no longer in the output`);
  for (const m of candidates) {
    const ref = describeRef(m);
    if (m.kind === 'CustomResourceDefinition' && !options.pruneCrds) {
      const count = await customResourceCount(client, m);
      if (count > 0) {
        const note = `${count} custom resources of it remain; delete them, or pass --prune-crds to delete the CRD and them`;
        options.reporter.line(`  kept ${ref}: ${note}`);
        out.push({ ref, component: '-', phase: 'prune', action: 'kept', note });
        kept.push(m);
        continue;
      }
    }
    await client.delete(m.apiVersion, m.kind, m.metadata.namespace, m.metadata.name, { dryRun: options.dryRun, propagationPolicy: 'Background' });
    options.reporter.line(`  pruned ${ref}`);
    out.push({ ref, component: '-', phase: 'prune', action: 'pruned' });
  }
  return { outcomes: out, kept };
}

/** How many custom resources a CRD on the cluster still serves (all namespaces). */
async function customResourceCount(client: KubeClient, crd: Json): Promise<number> {
  const version = (crd.spec?.versions ?? []).find((v: Json) => v.served)?.name;
  if (!version) return 0;
  const path = `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}?limit=1`;
  try {
    const list = await client.request('GET', path);
    return (list.items?.length ?? 0) + (list.metadata?.remainingItemCount ?? 0);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return 0;
    throw e;
  }
}

function summary(outcomes: ApplyOutcome[], dryRun: boolean): string {
  const count = (a: ApplyAction) => outcomes.filter((o) => o.action === a).length;
  const changed = count('created') + count('configured') + count('pruned');
  const prefix = dryRun ? 'dry run (server): ' : '';
  if (!changed) return `${prefix}no changes: ${count('unchanged')} objects unchanged${count('kept') ? `, ${count('kept')} kept` : ''}`;
  return `${prefix}${count('created')} created, ${count('configured')} configured, ${count('unchanged')} unchanged, ${count('pruned')} pruned${count('kept') ? `, ${count('kept')} kept` : ''}`;
}
