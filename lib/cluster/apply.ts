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
 *    webhook Service, and before a custom resource at a version its CRD converts, the CA
 *    bundle of that conversion webhook.
 * 4. Every object carries the platform's ApplySet label; with prune, the ApplySet's members
 *    that are no longer in the output are deleted: webhooks first, then in reverse phase
 *    order, never a CRD that still has custom resources (unless pruneCrds).
 */
import { ObjectModel } from '../model';
import { Phase, PHASES } from '../phases';
import { APPLYSET_PART_OF, applySetId, ApplySetParent, applySetParent, ApplySetState, groupKind, listMembers, readApplySet, UnresolvedKindError, withPartOf, writeApplySet } from './applyset';
import { ApiError, InterruptedError, KubeClient, UnreachableError } from './client';
import { DesiredObject, DesiredPlatform, describeRef, groupOf, Json, Manifest, objectKey } from './desired';
import { fieldChanges, normalize } from './diff';
import { ClusterOptions, fieldManagerFor, hasLegacyManager, LEGACY_FIELD_MANAGER } from './options';
import { AccessNeed, accessProblems, applySetParents, mapLimit, ownershipConflicts, resourceFor, serverVersion, versionProblems } from './preflight';
import { createSecret, generatedSecretObject, planSecrets, SecretsPlan, secretValues } from './secrets';
import { applyKnownUnchanged, webhookGuard } from './unchanged';
import { callersIn, waitConversionCaBundle, waitEndpoints, waitReady, WaitReporter, webhookServices } from './waits';
import { readCommand } from '../secrets';
import { isBuiltinGroup } from '../validation/builtin-kinds';


export interface ApplyOptions extends ClusterOptions {
  /** Server-side dry run: validated and admitted, nothing stored, no waits. @default false */
  readonly dryRun?: boolean;
  /** Delete the ApplySet's members that are no longer in the output. @default false */
  readonly prune?: boolean;
  /** With prune, also delete CRDs that still have custom resources. @default false */
  readonly pruneCrds?: boolean;
  /**
   * Objects of another ApplySet (or applied by another tool) this run may take over: `all`,
   * `Kind/name` or `Kind/namespace/name`. Without it such an object stops the run before any write.
   * @default []
   */
  readonly adopt?: readonly string[];
  /** Wait between phases (CRDs Established, Deployments Available, webhook endpoints). Off only for measurements. @default true */
  readonly waits?: boolean;
}

export type ApplyAction = 'created' | 'configured' | 'unchanged' | 'pruned' | 'kept';

export interface ApplyOutcome {
  readonly ref: string;
  readonly component: string;
  readonly phase: string;
  readonly action: ApplyAction;
  /** Why a prune candidate was kept. */
  readonly note?: string;
  /** Field managers whose fields this forced apply took over (`kubectl-edit: .data.level`). */
  readonly overrode?: readonly string[];
}

export interface ApplyResult {
  readonly outcomes: ApplyOutcome[];
  /** Nothing was created, configured or pruned. */
  readonly unchanged: boolean;
}

/**
 * What the checks before the first write found (a prerequisite not served, a server older
 * than a component needs, an object another ApplySet owns, a permission missing): apply
 * stopped before changing anything. The message lists every reason.
 */
export class PreflightError extends Error {}
/** The former name of PreflightError. */
export { PreflightError as PrerequisiteError };

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

/** The CRDs of the output with a conversion webhook, by group/kind (from the output's model, lib/model.ts). */
function conversionCrds(model: ObjectModel<DesiredObject>): Map<string, Json> {
  return new Map(model.webhooks.filter((w) => w.type === 'conversion').map((w) => [`${w.owner.json.spec.group}/${w.owner.json.spec.names.kind}`, w.owner.json]));
}

/** What the checks before the first write learned: the objects as they are on the cluster now, and the objects adopted. */
interface Preflight {
  readonly before: ApplySetState;
  readonly adopted: readonly { ref: string; owner: string }[];
  /** The referenced Secrets: which apply generates. */
  readonly secrets: SecretsPlan;
  /** The objects that existed, as read before the first write (apply uses them while their resourceVersion holds). */
  readonly live: ReadonlyMap<Manifest, Json | undefined>;
  /** The objects of another ApplySet or tool this run takes over (--adopt). */
  readonly adoptedObjects: ReadonlySet<Manifest>;
}

/**
 * Checks everything apply can know before its first write; throws a PreflightError that lists
 * every problem ("nothing was changed"). Permissions are checked for what this run does:
 * get and patch of every object (create for those that do not exist), the ApplySet parent,
 * the EndpointSlices its waits read, and with prune list of every member kind and delete of
 * every member that left the output.
 */
async function preflight(client: KubeClient, desired: DesiredPlatform, parent: ApplySetParent, fieldManager: string, options: ApplyOptions): Promise<Preflight> {
  const problems: string[] = [];
  const forbidden = (e: unknown) => e instanceof ApiError && (e.status === 401 || e.status === 403);
  problems.push(...await missingPrerequisites(client, desired));
  const version = await serverVersion(client);
  problems.push(...versionProblems(version, desired.kubernetes ?? []));

  const id = applySetId(parent);
  let before: ApplySetState = { exists: false, groupKinds: [], namespaces: [] };
  try {
    before = await readApplySet(client, parent);
  } catch (e) {
    if (!forbidden(e)) throw e; // the access review below names the permission
  }

  // The objects as they are now (404: not there, or its kind not served yet; 403: the review below says so).
  const manifests = desired.objects.map((o) => o.json);
  const live = new Map<Manifest, Json | undefined>();
  const unknown = new Set<Manifest>();
  await mapLimit(manifests, 8, async (m) => {
    try {
      live.set(m, await client.get(m.apiVersion, m.kind, m.metadata.namespace, m.metadata.name));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) live.set(m, undefined);
      else if (forbidden(e)) unknown.add(m);
      else throw withObject(e, desired.objects.find((o) => o.json === m)!);
    }
  });

  // Objects another ApplySet (or tool) owns.
  const otherIds = [...live.values()].map((l) => l?.metadata?.labels?.[APPLYSET_PART_OF]).filter((x): x is string => !!x && x !== id);
  const conflicts = ownershipConflicts(manifests, live, id, [fieldManager, LEGACY_FIELD_MANAGER], options.adopt ?? [], await applySetParents(client, otherIds));
  for (const c of conflicts.filter((x) => !x.adopted)) {
    problems.push(`${c.ref} belongs to ${c.owner}: applying would take it over; pass --adopt ${adoptSpec(c.ref)} (or --adopt all) to take it, or leave it out of this platform`);
  }

  // Permissions.
  const needs: AccessNeed[] = [];
  const resources = new Map<string, { plural: string; namespaced: boolean } | undefined>();
  const resourceOf = async (apiVersion: string, kind: string) => {
    const key = `${apiVersion}/${kind}`;
    if (!resources.has(key)) resources.set(key, await resourceFor(client, apiVersion, kind, manifests));
    return resources.get(key);
  };
  for (const m of manifests) {
    const r = await resourceOf(m.apiVersion, m.kind);
    if (!r) continue; // a kind nothing serves: the prerequisites above say so
    const at = { group: groupOf(m.apiVersion), resource: r.plural, namespace: r.namespaced ? m.metadata.namespace ?? 'default' : undefined };
    needs.push({ verb: 'get', ...at }, { verb: 'patch', ...at });
    if (!live.get(m) || unknown.has(m)) needs.push({ verb: 'create', ...at });
  }
  const secret = { group: '', resource: 'secrets', namespace: parent.namespace };
  needs.push({ verb: 'get', ...secret }, { verb: 'patch', ...secret }, { verb: 'get', group: '', resource: 'namespaces' });
  if (!before.exists) needs.push({ verb: 'create', ...secret });
  if (!options.dryRun) {
    const servicesNs = new Set(manifests.filter((m) => isWebhookConfiguration(m.kind) || (m.kind === 'CustomResourceDefinition' && m.spec?.conversion?.webhook))
      .flatMap((m) => webhookServices(m).map((s) => s.namespace)));
    for (const ns of servicesNs) needs.push({ verb: 'list', group: 'discovery.k8s.io', resource: 'endpointslices', namespace: ns });
  }
  if (options.prune && before.exists) {
    const keep = new Set(manifests.map(objectKey));
    const ownKinds = new Set(manifests.filter((m) => m.kind === 'CustomResourceDefinition').map((m) => (m.spec?.group ? `${m.spec.names?.kind}.${m.spec.group}` : String(m.spec?.names?.kind))));
    const namespaces = [...new Set([parent.namespace, ...before.namespaces])];
    for (const gk of before.groupKinds) {
      const dot = gk.indexOf('.');
      const found = await client.resolveKind(dot < 0 ? '' : gk.slice(dot + 1), dot < 0 ? gk : gk.slice(0, dot));
      if (!found) continue;
      const group = groupOf(found.apiVersion);
      if (found.info.namespaced) for (const ns of namespaces) needs.push({ verb: 'list', group, resource: found.info.plural, namespace: ns });
      else needs.push({ verb: 'list', group, resource: found.info.plural });
    }
    try {
      const members = await listMembers(client, id, before, parent, { mayBeUnserved: ownKinds });
      for (const m of members.filter((x) => !keep.has(objectKey(x)))) {
        const r = await resourceOf(m.apiVersion, m.kind);
        if (r) needs.push({ verb: 'delete', group: groupOf(m.apiVersion), resource: r.plural, namespace: r.namespaced ? m.metadata.namespace : undefined });
      }
    } catch (e) {
      if (e instanceof UnresolvedKindError) problems.push(e.message);
      else if (!forbidden(e)) throw e;
    }
  }
  // The Secrets the workloads read that the output does not contain (lib/cluster/secrets.ts).
  const secrets = await planSecrets(client, desired.secrets ?? []);
  problems.push(...secrets.problems);
  for (const s of desired.secrets ?? []) needs.push({ verb: 'get', group: '', resource: 'secrets', namespace: s.namespace });
  for (const s of secrets.create) needs.push({ verb: 'create', group: '', resource: 'secrets', namespace: s.namespace });
  problems.push(...await missingNamespaces(client, manifests, resourceOf));
  problems.push(...await accessProblems(client, needs));
  if (problems.length) throw new PreflightError(`nothing was changed:\n${problems.map((m) => `  ${m}`).join('\n')}`);
  const adopted = conflicts.filter((c) => c.adopted);
  const adoptedRefs = new Set(adopted.map((c) => c.ref));
  return { before, adopted, secrets, live, adoptedObjects: new Set(manifests.filter((m) => adoptedRefs.has(describeRef(m)))) };
}

/**
 * Namespaces the output puts objects in without creating them (those its prerequisites or the
 * cluster make, e.g. Istio's istio-system) that the server does not have: without them apply
 * would stop part way at the first object there. One line each, with an object that needs it.
 */
async function missingNamespaces(client: KubeClient, manifests: readonly Manifest[],
  resourceOf: (apiVersion: string, kind: string) => Promise<{ namespaced: boolean } | undefined>): Promise<string[]> {
  const created = new Set(manifests.filter((m) => m.apiVersion === 'v1' && m.kind === 'Namespace').map((m) => m.metadata.name as string));
  const users = new Map<string, Manifest[]>();
  for (const m of manifests) {
    if (!(await resourceOf(m.apiVersion, m.kind))?.namespaced) continue;
    const ns: string = m.metadata.namespace ?? 'default';
    if (!created.has(ns)) users.set(ns, [...users.get(ns) ?? [], m]);
  }
  const out: string[] = [];
  for (const [ns, objs] of [...users].sort(([a], [b]) => a.localeCompare(b))) {
    let live: Json | undefined;
    try {
      live = await client.get('v1', 'Namespace', undefined, ns);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) continue; // the access review names 'get namespaces'
      throw e;
    }
    if (!live) {
      out.push(`namespace ${ns} does not exist and the output does not create it: ${objs.length} object${objs.length === 1 ? '' : 's'} go${objs.length === 1 ? 'es' : ''} there (${describeRef(objs[0])}${objs.length > 1 ? ', ...' : ''}); install the prerequisite that makes it, or create it, first`);
    }
  }
  return out;
}

/** `Kind/name` or `Kind/namespace/name` of a `describeRef` text. */
function adoptSpec(ref: string): string {
  const [, kind, name] = ref.split(' ');
  return `${kind}/${name}`;
}

/** Applies a platform. Throws PreflightError before any change when the checks before the first write fail, and on a failed wait. */
export async function applyPlatform(client: KubeClient, desired: DesiredPlatform, options: ApplyOptions = {}): Promise<ApplyResult> {
  const fieldManager = options.fieldManager ?? fieldManagerFor(desired.name);
  const reporter = options.reporter ?? { line: () => undefined, progress: () => undefined };

  const parent = applySetParent(desired.name, options.applySetNamespace);
  const id = applySetId(parent);
  const { before, adopted, secrets, live, adoptedObjects } = await preflight(client, desired, parent, fieldManager, options);
  for (const a of adopted) reporter.line(`adopting ${a.ref} from ${a.owner} (--adopt)`);
  for (const s of secrets.skipped) reporter.line(`not generating Secret ${s.secret.namespace}/${s.secret.name}: ${s.reason}`);
  const outcomes: ApplyOutcome[] = [];
  try {
    return await applyPhases(client, desired, options, live, { parent, id, before, fieldManager, reporter, outcomes, secrets, adoptedObjects });
  } catch (e) {
    if (e instanceof InterruptedError || e instanceof UnreachableError) throw new ApplyStoppedError(e, outcomes);
    throw e;
  }
}

/**
 * An apply that stopped part way, interrupted (SIGINT) or because the API server could not be
 * reached: what it applied before is in `outcomes`; a new run resumes (objects already as in
 * the output are unchanged and not written again).
 */
export class ApplyStoppedError extends Error {
  constructor(public readonly reason: InterruptedError | UnreachableError, public readonly outcomes: readonly ApplyOutcome[]) {
    super(`${reason.message}; ${summary(outcomes, false)} before it stopped`);
    this.name = 'ApplyStoppedError';
  }
}

interface PhasesContext {
  readonly parent: ApplySetParent;
  readonly id: string;
  readonly before: ApplySetState;
  readonly fieldManager: string;
  readonly reporter: WaitReporter;
  readonly outcomes: ApplyOutcome[];
  readonly secrets: SecretsPlan;
  /** The objects taken over from another ApplySet or tool (--adopt): applied by applyAdopted. */
  readonly adoptedObjects: ReadonlySet<Manifest>;
}

async function applyPhases(client: KubeClient, desired: DesiredPlatform, options: ApplyOptions, live: Preflight['live'],
  ctx: PhasesContext): Promise<ApplyResult> {
  const { parent, id, before, fieldManager, reporter, outcomes } = ctx;
  // Generated Secrets: values drawn once, each Secret created at the start of the first phase
  // its namespace exists in (after the foundation phase made it), before the workloads read it.
  const values = options.dryRun ? new Map<string, Record<string, string>>() : secretValues(ctx.secrets, desired.secrets ?? []);
  const pendingSecrets = [...ctx.secrets.create];
  const createSecrets = async (phase: string) => {
    for (const s of [...pendingSecrets]) {
      const ref = `v1 Secret ${s.namespace}/${s.name}`;
      if (dryRun) {
        // Listed once, at the first phase: nothing is created.
        outcomes.push({ ref, component: s.component, phase, action: 'created', note: 'generated' });
        reporter.line(`  would generate ${ref} (${s.keys.join(', ')}): ${s.purpose}`);
        pendingSecrets.splice(pendingSecrets.indexOf(s), 1);
        continue;
      }
      if (!(await namespaceExists(client, s.namespace))) continue;
      pendingSecrets.splice(pendingSecrets.indexOf(s), 1);
      const created = await createSecret(client, generatedSecretObject(s, values.get(`${s.namespace}/${s.name}`)!, desired.name));
      if (!created) continue; // created meanwhile by someone else: theirs is kept
      outcomes.push({ ref, component: s.component, phase, action: 'created', note: 'generated' });
      reporter.line(s.forPeople
        ? `  generated ${ref}: ${s.purpose}; read it with: ${readCommand(s)}`
        : `  generated ${ref} (${s.keys.join(', ')}): ${s.purpose}`);
    }
  };
  const waitOptions = { timeoutMs: options.timeoutMs, intervalMs: options.intervalMs, reporter };
  const dryRun = options.dryRun ?? false;
  const groupKinds = new Set(desired.objects.map((o) => groupKind(o.json)));
  const namespaces = new Set(desired.objects.map((o) => o.json.metadata.namespace).filter((n): n is string => !!n));
  const writeParent = (gks: Iterable<string>, nss: Iterable<string>) =>
    writeApplySet(client, parent, gks, nss, { fieldManager, version: options.version ?? '0.0.0', dryRun });
  // The parent first names every kind and namespace the set may hold after this run (old and
  // new), so that an interrupted run still leaves every member findable.
  const superset = [new Set([...before.groupKinds, ...groupKinds]), new Set([...before.namespaces, ...namespaces])] as const;
  const parentChanges = !before.exists || superset[0].size !== before.groupKinds.length || superset[1].size !== before.namespaces.length;
  if (parentChanges && (await namespaceExists(client, parent.namespace))) await writeParent(...superset);

  const model = new ObjectModel(desired.objects);
  const conversions = conversionCrds(model);
  const guarded = webhookGuard(model);
  for (const phase of PHASES) {
    const inPhase = desired.objects.filter((o) => o.phase === phase);
    if (!inPhase.length) continue;
    reporter.line(`${phase}: ${inPhase.length} objects`);
    client.forgetDiscovery();
    // Before webhooks (and custom resources converted by a webhook) are used: their backends answer.
    if (!dryRun && options.waits !== false) {
      const services = new Map<string, { namespace: string; name: string; neededBy: Set<string> }>();
      for (const o of inPhase) {
        const owner = isWebhookConfiguration(o.json.kind) ? o.json : conversions.get(`${groupOf(o.json.apiVersion)}/${o.json.kind}`);
        for (const s of owner ? webhookServices(owner) : []) {
          const entry = services.get(`${s.namespace}/${s.name}`) ?? { ...s, neededBy: new Set<string>() };
          entry.neededBy.add(callersIn(owner!, s.namespace, s.name) ?? describeRef(owner!));
          services.set(`${s.namespace}/${s.name}`, entry);
        }
      }
      for (const s of services.values()) {
        // A backend applied in this phase or later cannot be up yet: the cold-apply proof reports that wait as broken.
        const service = model.service(s.namespace, s.name);
        const later = service && PHASES.indexOf(service.phase as Phase);
        if (later !== undefined && later >= PHASES.indexOf(phase as Phase)) {
          reporter.line(`  not waiting for v1 Service ${s.namespace}/${s.name}: it is applied in ${PHASES[later]}, not before (see the cold-apply order in REPORT.md)`);
          continue;
        }
        await waitEndpoints(client, s.namespace, s.name, { ...waitOptions, neededBy: [...s.neededBy] });
      }
      // Objects at a version the API server converts: their CRD's conversion webhook has its CA bundle.
      const converted = new Map<string, { crd: Json; apiVersion: string }>();
      for (const o of inPhase) {
        const crd = conversions.get(`${groupOf(o.json.apiVersion)}/${o.json.kind}`);
        if (crd) converted.set(`${crd.metadata.name} ${o.json.apiVersion}`, { crd, apiVersion: o.json.apiVersion });
      }
      for (const c of converted.values()) await waitConversionCaBundle(client, c.crd, c.apiVersion, waitOptions);
    }
    await createSecrets(phase);
    const components = [...new Set(inPhase.map((o) => o.component))];
    for (const component of components) {
      const counts: Record<string, number> = {};
      for (const o of inPhase.filter((x) => x.component === component)) {
        const { action, overrode } = ctx.adoptedObjects.has(o.json)
          ? await applyAdopted(client, o, id, fieldManager, dryRun, live.get(o.json)!)
          : await applyOne(client, o, id, fieldManager, dryRun, live.get(o.json), guarded);
        outcomes.push({ ref: describeRef(o.json), component, phase, action, ...(overrode ? { overrode } : {}) });
        counts[action] = (counts[action] ?? 0) + 1;
        if (action === 'configured') reporter.line(`    configured ${describeRef(o.json)}${overrode ? ` (took over fields of ${overrode.join('; ')})` : ''}`);
      }
      reporter.line(`  ${component}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
    }
    if (!dryRun && options.waits !== false) {
      // CRDs first: the phases after need their kinds served (and discovery read again).
      for (const o of inPhase.filter((x) => x.json.kind === 'CustomResourceDefinition')) await waitReady(client, o.json, waitOptions);
      client.forgetDiscovery();
      for (const o of inPhase.filter((x) => x.json.kind !== 'CustomResourceDefinition')) await waitReady(client, o.json, waitOptions);
    }
  }
  await createSecrets(PHASES[PHASES.length - 1]);
  for (const s of pendingSecrets) reporter.line(`  not generated: v1 Secret ${s.namespace}/${s.name}: its namespace ${s.namespace} does not exist`);
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
 * Applies one object; says whether the server created, changed or kept it, and whose fields a
 * forced apply took. An object that exists is first applied as a dry run without force: when
 * neither its fields nor this manager's field ownership would change, nothing is written (the
 * server would otherwise write a no-op apply that only reorders managedFields or refreshes
 * their time, a new resourceVersion that watchers and GitOps tools see as a change); when
 * another manager owns a field we set to another value, the server names it (a conflict), and
 * the apply is forced and reports it. An entry of the legacy manager (`mlplatform`, before one
 * manager per platform) is then removed, so that fields left out later are not kept by it.
 * `known` is the object as the checks before the first write read it: used instead of a GET
 * when the dry run shows the same resourceVersion (the object has not changed since), else
 * the object is read again and the dry run repeated.
 * No dry run at all when the live object shows that the apply would change nothing (apply's
 * manager owns exactly the object's fields, each with the value it sets: lib/cluster/unchanged.ts).
 * With `known` that is the object as the checks read it at the start of the run: a change
 * another manager makes to it while the run goes on is seen by the next run, as one made just
 * after the run would be.
 */
async function applyOne(client: KubeClient, o: DesiredObject, id: string, fieldManager: string, dryRun: boolean, known?: Json,
  guarded: (m: Manifest, plural: string) => boolean = () => true): Promise<{ action: ApplyAction; overrode?: string[] }> {
  const json = withPartOf(o.json, id);
  try {
    let live: Json | undefined = known;
    try {
      live ??= await client.get(json.apiVersion, json.kind, json.metadata.namespace, json.metadata.name);
    } catch (e) {
      // In a dry run, a custom resource whose CRD is not there yet cannot be checked by the server.
      if (dryRun && e instanceof ApiError && e.status === 404) return { action: 'created' };
      throw e;
    }
    if (!live) {
      try {
        await client.apply(json, { fieldManager, dryRun, metadataOnly: true });
      } catch (e) {
        // In a dry run, an object in a Namespace this run would create first.
        if (dryRun && e instanceof ApiError && e.status === 404) return { action: 'created' };
        throw e;
      }
      return { action: 'created' };
    }
    const legacy = hasLegacyManager(live, fieldManager);
    // Nothing to change, as the live object shows (its fields and apply's ownership of them): no dry run (lib/cluster/unchanged.ts).
    if (!legacy && applyKnownUnchanged(live, json, fieldManager) && !guarded(json, (await client.resourceOf(json.apiVersion, json.kind)).plural)) return { action: 'unchanged' };
    let overrode: string[] | undefined;
    try {
      const preview = await client.apply(json, { fieldManager, dryRun: true, force: false });
      if (known && preview?.metadata?.resourceVersion !== known.metadata?.resourceVersion) throw new ChangedSince();
      if (!legacy && !fieldChanges(normalize(live), normalize(preview)).length && sameOwnership(live, preview, fieldManager)) return { action: 'unchanged' };
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
      if (known) throw new ChangedSince();
      overrode = conflictsOf(e);
    }
    if (!dryRun) {
      const applied = await client.apply(json, { fieldManager, metadataOnly: true });
      if (legacy) await dropManager(client, applied, LEGACY_FIELD_MANAGER);
    }
    return { action: 'configured', overrode };
  } catch (e) {
    if (e instanceof ChangedSince) return applyOne(client, o, id, fieldManager, dryRun, undefined, guarded);
    throw withObject(e, o);
  }
}

/**
 * Applies an object this run takes over from another ApplySet or tool (--adopt): a forced
 * apply (a dry run when the run is one) without the dry run applyOne sends first, which here
 * is known to change the object (its ApplySet label becomes ours) and most often to conflict
 * (the other platform's manager owns the same fields): for a large CRD that dry run, and the
 * read and dry run again that its conflict set off, cost the server nearly what the apply does.
 * What the forced apply took from other managers is read from the managedFields before and
 * after (each manager's fields that it no longer owns), as the conflict would have named them.
 */
async function applyAdopted(client: KubeClient, o: DesiredObject, id: string, fieldManager: string, dryRun: boolean, live: Json): Promise<{ action: ApplyAction; overrode?: string[] }> {
  const json = withPartOf(o.json, id);
  try {
    const applied = await client.apply(json, { fieldManager, dryRun, force: true, metadataOnly: true });
    const legacy = hasLegacyManager(live, fieldManager);
    if (legacy && !dryRun) await dropManager(client, applied, LEGACY_FIELD_MANAGER);
    const overrode = fieldsTakenOver(live, applied, fieldManager);
    return { action: 'configured', ...(overrode.length ? { overrode } : {}) };
  } catch (e) {
    throw withObject(e, o);
  }
}

/**
 * `manager: .field, .field` for each other manager (an entry: manager, operation, subresource)
 * that owned fields in `before` that it no longer owns in `after` (a forced apply by `manager`
 * took them), in server-side apply's path notation (`.spec.containers[name="c"].image`).
 */
export function fieldsTakenOver(before: Json, after: Json, manager: string): string[] {
  const entryKey = (m: Json) => `${m.manager}\u0000${m.operation}\u0000${m.subresource ?? ''}`;
  const afterFields = new Map<string, Set<string>>();
  for (const m of after?.metadata?.managedFields ?? []) afterFields.set(entryKey(m), new Set(fieldPaths(m.fieldsV1)));
  const byManager = new Map<string, string[]>();
  for (const m of before?.metadata?.managedFields ?? []) {
    if (m.manager === manager || m.subresource) continue;
    const kept = afterFields.get(entryKey(m)) ?? new Set<string>();
    const lost = fieldPaths(m.fieldsV1).filter((f) => !kept.has(f));
    if (lost.length) byManager.set(m.manager, [...(byManager.get(m.manager) ?? []), ...lost]);
  }
  return [...byManager].map(([m, fields]) => `${m}: ${fields.join(', ')}`);
}

/** The fields a managedFields entry's fieldsV1 owns (each leaf, and each member marked with `.`), as paths. */
function fieldPaths(fields: Json | undefined, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, child] of Object.entries(fields ?? {})) {
    if (k === '.') continue;
    const path = prefix + pathElement(k);
    const members = child && typeof child === 'object' ? Object.keys(child) : [];
    if (!members.length || members.includes('.')) out.push(path);
    out.push(...fieldPaths(child as Json, path));
  }
  return out;
}

/** One fieldsV1 key (`f:name`, `k:{"name":"c"}`, `v:"x"`, `i:0`) in path notation. */
function pathElement(k: string): string {
  const rest = k.slice(2);
  switch (k.slice(0, 2)) {
    case 'f:': return `.${rest}`;
    case 'k:': return `[${Object.entries(JSON.parse(rest) as Json).map(([n, v]) => `${n}=${JSON.stringify(v)}`).join(',')}]`;
    case 'v:': return `[=${rest}]`;
    case 'i:': return `[${rest}]`;
    default: return `.${k}`;
  }
}

/** The object changed after the checks before the first write read it (or conflicts): applyOne reads it again. */
class ChangedSince extends Error {}

/** `manager: .field, .field` per manager a server-side apply conflict names. */
export function conflictsOf(e: ApiError): string[] {
  const causes: Json[] = (e.details as Json | undefined)?.details?.causes ?? [];
  const byManager = new Map<string, string[]>();
  for (const c of causes) {
    const m = /conflict with "([^"]+)"/.exec(String(c.message ?? ''));
    const manager = m?.[1] ?? 'another manager';
    byManager.set(manager, [...(byManager.get(manager) ?? []), String(c.field ?? '')]);
  }
  if (!byManager.size) return [e.message];
  return [...byManager.entries()].map(([m, fields]) => `${m}: ${fields.filter(Boolean).join(', ')}`);
}

/** Removes a manager's Apply entry from an object's managedFields (a JSON patch that first tests the entry is still there). */
async function dropManager(client: KubeClient, obj: Json, manager: string): Promise<void> {
  const entries: Json[] = obj.metadata?.managedFields ?? [];
  const i = entries.findIndex((m) => m.manager === manager && m.operation === 'Apply' && !m.subresource);
  if (i < 0) return;
  const path = await client.pathOf(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
  await client.request('PATCH', path, [
    { op: 'test', path: `/metadata/managedFields/${i}/manager`, value: manager },
    { op: 'remove', path: `/metadata/managedFields/${i}` },
  ], 'application/json-patch+json');
}

/** Whether a manager owns the same fields in both versions of an object. */
function sameOwnership(a: Json, b: Json, manager: string): boolean {
  const fields = (o: Json) => JSON.stringify((o.metadata?.managedFields ?? [])
    .filter((m: Json) => m.manager === manager && m.operation === 'Apply' && !m.subresource).map((m: Json) => [m.apiVersion, m.fieldsV1]));
  return fields(a) === fields(b);
}

function withObject(e: unknown, o: DesiredObject): Error {
  if (e instanceof InterruptedError || e instanceof UnreachableError) return e;
  return new Error(`${describeRef(o.json)} (${o.component}, ${o.phase}): ${(e as Error).message}`);
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod']);

/**
 * Prune order: webhook configurations first, then reverse phase order: custom resources,
 * workloads (so that no pod runs on without the RBAC, ServiceAccount, Service or
 * configuration it uses), the rest of the controllers' objects, CRDs, Namespaces last.
 */
export function pruneRank(o: Json): number {
  if (isWebhookConfiguration(o.kind)) return 0;
  if (o.kind === 'APIService') return 1;
  if (!isBuiltinGroup(o.apiVersion) && o.kind !== 'CustomResourceDefinition') return 2;
  if (WORKLOADS.has(o.kind)) return 3;
  if (o.kind === 'CustomResourceDefinition') return 5;
  if (o.kind === 'Namespace') return 6;
  return 4;
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
      // Members are listed as metadata: the CRD itself says where its custom resources are.
      const crd = await client.get(m.apiVersion, m.kind, undefined, m.metadata.name);
      const count = crd ? await customResourceCount(client, crd) : 0;
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

function summary(outcomes: readonly ApplyOutcome[], dryRun: boolean): string {
  const count = (a: ApplyAction) => outcomes.filter((o) => o.action === a).length;
  const changed = count('created') + count('configured') + count('pruned');
  const prefix = dryRun ? 'dry run (server): ' : '';
  if (!changed) return `${prefix}no changes: ${count('unchanged')} objects unchanged${count('kept') ? `, ${count('kept')} kept` : ''}`;
  return `${prefix}${count('created')} created, ${count('configured')} configured, ${count('unchanged')} unchanged, ${count('pruned')} pruned${count('kept') ? `, ${count('kept')} kept` : ''}`;
}
