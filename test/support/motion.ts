/**
 * Shared steps of the "platform in motion" tests (test/apiserver/motion-*.test.ts): bring a
 * default platform up with `mlplatform apply`'s code (lib/cluster/apply.ts) on a test cluster
 * (test/support/cluster.ts) and check what the controllers made of it.
 */
import { FIELD_MANAGER as STAND_IN_MANAGER, prerequisiteCrds, waitEstablished } from './apply';
import { TestCluster } from './cluster';
import { VolumeProvisioner } from './volumes';
import { Json } from './watch';
import { applyPlatform, ApplyOptions, ApplyResult } from '../../lib/cluster/apply';
import { DesiredPlatform, describeRef, Manifest } from '../../lib/cluster/desired';
import { compareKubernetesVersions } from '../../lib/kubernetes-version';
import { PlatformModel } from '../../lib/platform';
import { compileCelRules } from '../../lib/validation';

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];

export interface BringUp {
  readonly result: ApplyResult;
  readonly lines: string[];
  readonly ms: number;
}

/** Applies a platform with the CLI's code; the log lines are kept (and shown when it fails). */
export async function bringUp(cluster: TestCluster, desired: DesiredPlatform, options: ApplyOptions = {}): Promise<BringUp> {
  const lines: string[] = [];
  const t0 = Date.now();
  try {
    const result = await applyPlatform(cluster.client, desired, { timeoutMs: 120_000, intervalMs: 200, ...options, reporter: { line: (l) => lines.push(l), progress: () => undefined } });
    return { result, lines, ms: Date.now() - t0 };
  } catch (e) {
    (e as Error).message += `\n--- apply log ---\n${lines.slice(-40).join('\n')}${cluster.errors().length ? `\n--- test cluster errors ---\n${cluster.errors().join('\n')}` : ''}\n--- unrouted ---\n${JSON.stringify(cluster.agent.routed.filter((r) => !r.to).slice(-3))}\n${JSON.stringify(cluster.agent.running)}`;
    throw e;
  }
}

/** The managers that wrote an object's status (managedFields of the status subresource). */
export const statusManagers = (o: Json): string[] =>
  (o.metadata?.managedFields ?? []).filter((m: Json) => m.subresource === 'status').map((m: Json) => m.manager as string);

export const isAvailable = (d: Json): boolean =>
  (d.status?.conditions ?? []).some((c: Json) => c.type === 'Available' && c.status === 'True') && d.status?.observedGeneration === d.metadata?.generation;

/**
 * Every live workload of the platform, with what its controller reported, in output order.
 * One list per kind and namespace rather than a GET per workload: the waits below poll this
 * several times a second, and dozens of GETs per poll cost the API server more than a list.
 */
export async function workloads(cluster: TestCluster, desired: DesiredPlatform): Promise<Json[]> {
  const wanted = desired.objects.filter((x) => WORKLOAD_KINDS.includes(x.json.kind)).map((o) => o.json);
  const live = new Map<string, Json>();
  const groups = new Map(wanted.map((m) => [`${m.apiVersion} ${m.kind} ${m.metadata.namespace ?? ''}`, m]));
  for (const m of groups.values()) {
    for (const l of await cluster.client.list(m.apiVersion, m.kind, { namespace: m.metadata.namespace })) {
      live.set(`${m.apiVersion} ${m.kind} ${l.metadata.namespace ?? ''}/${l.metadata.name}`, l);
    }
  }
  return wanted.map((m) => live.get(`${m.apiVersion} ${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`) ?? { kind: m.kind, metadata: m.metadata, missing: true });
}

/** Whether a workload is up as its controller computed it: Deployments Available; StatefulSets and DaemonSets every replica ready. */
export function workloadUp(w: Json): boolean {
  if (w.missing) return false;
  if (w.kind === 'Deployment') return isAvailable(w);
  if (w.kind === 'StatefulSet') return (w.status?.readyReplicas ?? 0) >= (w.spec?.replicas ?? 1) && w.status?.observedGeneration === w.metadata.generation;
  return (w.status?.numberReady ?? -1) === w.status?.desiredNumberScheduled && w.status?.desiredNumberScheduled > 0 && w.status?.observedGeneration === w.metadata.generation;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; fails with what `describe` says of the last state. */
export async function eventually<T>(what: string, probe: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 60_000, describe: (v: T) => string = (v) => JSON.stringify(v)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!check(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs / 1000} s; last: ${describe(last)}`);
    await sleep(250);
    last = await probe();
  }
  return last;
}

/**
 * Waits until none of `objects` exists (`exists` says) and `dependents()` lists nothing; the
 * last poll's leftovers, as `describe` says, when not. Each poll asks only about the objects
 * still there at the poll before (after a prune of hundreds, a GET of each of them four times a
 * second kept the API server busy for the whole wait); once none is left, one pass over all of
 * them must agree, else the wait goes on with those it found.
 */
export async function eventuallyGone<T>(what: string, objects: readonly T[], exists: (o: T) => Promise<boolean>, name: (o: T) => string,
  dependents: () => Promise<string[]>, timeoutMs: number, describe?: (left: string[]) => string): Promise<void> {
  let pending = [...objects];
  const still = async (of: readonly T[]) => {
    const out: T[] = [];
    for (const o of of) if (await exists(o)) out.push(o);
    return out;
  };
  await eventually(what, async () => {
    pending = await still(pending);
    const left = [...pending.map(name), ...await dependents()];
    if (left.length) return left;
    pending = await still(objects);
    return pending.map(name);
  }, (left) => left.length === 0, timeoutMs, describe);
}

/** The AdmissionReview calls the webhooks of these configurations must get for an object: the path of each webhook whose rules match its resource, version and the operation. */
export function webhookPathsFor(configs: readonly Json[], apiVersion: string, resource: string, operation: string, namespaced: boolean,
  labels?: { readonly namespace?: Record<string, string>; readonly object?: Record<string, string> }): string[] {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const paths: string[] = [];
  for (const c of configs) {
    for (const w of c.webhooks ?? []) {
      // Selectors depend on labels: without the labels, only webhooks that intercept everything of their rules are expected for sure.
      const selective = (sel: Json | undefined) => !!sel && (Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0);
      if (!w.clientConfig?.service) continue;
      if (selective(w.objectSelector) && !(labels?.object && selectorMatches(w.objectSelector, labels.object))) continue;
      // A namespaceSelector does not apply to cluster-scoped objects.
      if (namespaced && selective(w.namespaceSelector) && !(labels?.namespace && selectorMatches(w.namespaceSelector, labels.namespace))) continue;
      // matchPolicy Exact: only the versions the rule names; Equivalent (the default): any version of the resource.
      const hit = (w.rules ?? []).some((r: Json) => (r.apiGroups ?? []).some((g: string) => g === '*' || g === group)
        && (w.matchPolicy !== 'Exact' || (r.apiVersions ?? []).some((v: string) => v === '*' || v === version))
        && (r.resources ?? []).some((x: string) => x === '*' || x === '*/*' || x === resource)
        && (r.operations ?? []).some((op: string) => op === '*' || op === operation)
        && (!r.scope || r.scope === '*' || r.scope === (namespaced ? 'Namespaced' : 'Cluster')));
      if (hit) paths.push(w.clientConfig.service.path ?? '/');
    }
  }
  return paths;
}

/** Whether a label selector (matchLabels, matchExpressions) selects these labels. */
export function selectorMatches(sel: Json, labels: Record<string, string>): boolean {
  if (!Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v)) return false;
  return (sel.matchExpressions ?? []).every((e: Json) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In': return has && (e.values ?? []).includes(labels[e.key]);
      case 'NotIn': return !has || !(e.values ?? []).includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: throw new Error(`unknown selector operator ${e.operator}`);
    }
  });
}

/**
 * The platform's prerequisites, as if installed: the namespaces it lists as existing, and their APIs (open-schema CRDs): the kinds its
 * objects use (test/support/apply.ts), and every other kind a prerequisite must serve for
 * apply's check (cluster-scoped when no object says otherwise).
 */
export async function installPrerequisites(cluster: TestCluster, model: PlatformModel, desired: DesiredPlatform): Promise<void> {
  // The namespaces the platform expects its prerequisites to have made (e.g. Istio's istio-system).
  for (const name of model.platform.existingNamespaces.filter((n) => !['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(n))) {
    await cluster.client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: STAND_IN_MANAGER });
  }
  const crds = prerequisiteCrds(model.objects, model.externalKinds);
  const covered = new Set(crds.map((c) => `${(c as Json).spec.group}/${(c as Json).spec.names.kind}`));
  for (const p of desired.prerequisites) {
    for (const k of p.kinds) {
      if (!k.group || covered.has(`${k.group}/${k.kind}`) || !k.version) continue;
      covered.add(`${k.group}/${k.kind}`);
      const plural = pluralOf(k.kind);
      crds.push({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        // Groups under k8s.io and kubernetes.io (the Gateway API's) are protected: the API server wants an approval annotation.
        metadata: { name: `${plural}.${k.group}`, ...(/(^|\.)(k8s|kubernetes)\.io$/.test(k.group) ? { annotations: { 'api-approved.kubernetes.io': 'unapproved, a test stand-in for a prerequisite' } } : {}) },
        spec: {
          group: k.group,
          names: { kind: k.kind, plural, singular: k.kind.toLowerCase(), listKind: `${k.kind}List` },
          scope: 'Cluster',
          versions: [{ name: k.version, served: true, storage: true, schema: { openAPIV3Schema: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
        },
      } as unknown as (typeof crds)[number]);
    }
  }
  for (const crd of crds) await cluster.client.apply(crd, { fieldManager: STAND_IN_MANAGER });
  const late = await waitEstablished(cluster.client, crds.map((c) => c.metadata.name));
  if (late.length) throw new Error(`stand-in CRDs of prerequisites not Established: ${late.join(', ')}`);
}

/** The platform less the components this server's version cannot take (see `tooNewComponents`), with their version gates dropped. */
export function withoutComponents(desired: DesiredPlatform, skipped: ReadonlySet<string>): DesiredPlatform {
  return {
    ...desired,
    objects: desired.objects.filter((o) => !skipped.has(o.component)),
    kubernetes: (desired.kubernetes ?? []).filter((n) => !skipped.has(n.component)),
    secrets: (desired.secrets ?? []).filter((s) => !skipped.has(s.component)),
  };
}

/**
 * Components this server cannot take: a CRD whose rules our compilation for the server's
 * version flags (what the server rejects: test/support/platform-on-apiserver.ts holds the two
 * together), from a component that declares a newer minimum Kubernetes.
 */
export function tooNewComponents(model: PlatformModel, version: string): Set<string> {
  return new Set(model.objects.filter((o) => o.json.kind === 'CustomResourceDefinition' && compileCelRules(o.json, version).length > 0
    && o.component.kubernetes.min && compareKubernetesVersions(o.component.kubernetes.min, version) > 0).map((o) => o.component.componentName));
}

/** What a bring-up showed, for the closing note. */
export interface BringUpReport {
  readonly objects: number;
  readonly pods: number;
  readonly admissions: number;
  readonly conversions: number;
  readonly seconds: number;
}

/**
 * The checks every bring-up makes: each object created, and each referenced Secret apply
 * generates (a fresh cluster has none; the node agent starts no pod whose Secrets are
 * missing, so the workloads up prove they exist); every workload up with its status
 * written by kube-controller-manager alone; every pod Running on a node that fits it; every
 * webhook Service with an endpoint the endpointslice controller published; every webhook
 * whose rules match a custom resource of the platform called for it; no player error.
 * `takenOver`: the objects (`describeRef`) a platform applied before on this cluster left
 * for this one to adopt (`--adopt`): each of those, and no other, is adopted and written
 * (configured: its ApplySet label, and its fields where the two platforms differ) instead of
 * created, and its custom resources' webhooks are those called on an UPDATE.
 */
export async function checkBringUp(cluster: TestCluster, desired: DesiredPlatform, up: BringUp, since: { calls: number; started: number },
  takenOver: ReadonlySet<string> = new Set()): Promise<BringUpReport> {
  const { client, agent } = cluster;
  const actions = new Map(up.result.outcomes.filter((o) => o.note !== 'generated').map((o) => [o.ref, o.action]));
  const expected = (ref: string) => (takenOver.has(ref) ? 'configured' : 'created');
  expect(desired.objects.map((o) => describeRef(o.json)).filter((ref) => actions.get(ref) !== expected(ref)).map((ref) => `${ref}: ${actions.get(ref)}, not ${expected(ref)}`)).toEqual([]);
  expect(up.result.outcomes.filter((o) => o.action === 'created' && o.note !== 'generated').length).toBe(desired.objects.length - takenOver.size);
  expect(up.lines.filter((l) => l.startsWith('adopting ')).map((l) => /^adopting (\S+ \S+ \S+) from /.exec(l)![1]).sort()).toEqual([...takenOver].sort());
  const generated = (desired.secrets ?? []).filter((s) => s.source === 'generated').map((s) => `v1 Secret ${s.namespace}/${s.name}`).sort();
  expect(up.result.outcomes.filter((o) => o.note === 'generated').map((o) => o.ref).sort()).toEqual(generated);
  const ws = await workloads(cluster, desired);
  expect(ws.filter((w) => !workloadUp(w)).map((w) => `${w.kind} ${w.metadata.namespace}/${w.metadata.name}`)).toEqual([]);
  expect(ws.map((w) => ({ w: w.metadata.name, managers: statusManagers(w) })).filter((x) => x.managers.join() !== 'kube-controller-manager')).toEqual([]);
  const namespaces = [...new Set(ws.map((w) => w.metadata.namespace as string))];
  for (const ns of namespaces) {
    const pods = await client.list('v1', 'Pod', { namespace: ns });
    expect(pods.filter((p) => p.status?.phase !== 'Running' || !cluster.agent.nodes.some((n) => n.name === p.spec.nodeName)).map((p) => `${ns}/${p.metadata.name}: ${p.status?.phase} on ${p.spec.nodeName}`)).toEqual([]);
  }
  const configs = desired.objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind)).map((o) => o.json);
  const services = new Set(configs.flatMap((c) => (c.webhooks ?? []).filter((w: Json) => w.clientConfig?.service).map((w: Json) => `${w.clientConfig.service.namespace}/${w.clientConfig.service.name}`)));
  for (const key of services) {
    const [namespace, name] = key.split('/');
    const slices = await client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace, labelSelector: `kubernetes.io/service-name=${name}` });
    const ready = slices.filter((s) => s.metadata.labels?.['endpointslice.kubernetes.io/managed-by'] === 'endpointslice-controller.k8s.io')
      .flatMap((s) => (s.ports ?? []).length ? s.endpoints ?? [] : []).filter((e: Json) => e.conditions?.ready !== false);
    expect({ service: key, ready: ready.length > 0 }).toEqual({ service: key, ready: true });
  }
  const calls = agent.calls.slice(since.calls);
  const admissions = calls.filter((c) => c.kind === 'AdmissionReview');
  const missed: string[] = [];
  for (const o of desired.objects.filter((x) => x.phase === '30-resources')) {
    const operation = takenOver.has(describeRef(o.json)) ? 'UPDATE' : 'CREATE';
    for (const path of webhookPathsFor(configs, o.json.apiVersion, pluralOf(o.json.kind), operation, !!o.json.metadata.namespace)) if (!admissions.some((a) => a.path.startsWith(path))) missed.push(`${o.json.kind} ${o.json.metadata.name} (${operation}): ${path}`);
  }
  expect(missed).toEqual([]);
  expect(cluster.errors()).toEqual([]);
  return { objects: desired.objects.length, pods: agent.started.length - since.started, admissions: admissions.length, conversions: calls.length - admissions.length, seconds: up.ms / 1000 };
}

export const reportText = (r: BringUpReport): string =>
  `${r.objects} objects to Available in ${r.seconds.toFixed(1)} s, ${r.pods} pods admitted and started, ${r.admissions} AdmissionReviews and ${r.conversions} ConversionReviews answered`;

/** The resource (plural) of a kind as its CRD names it (lower case, +s / +es / y -> ies). */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  return /[^aeiou]y$/.test(k) ? `${k.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(k) ? `${k}es` : `${k}s`;
}

/**
 * Creates each example (custom resources a user would make) and returns the webhook paths
 * that should have been called for it and were not; each example must be guarded by at least
 * one webhook. Namespaces the examples use are made first.
 */
export async function createExamples(cluster: TestCluster, desired: DesiredPlatform, examples: readonly Manifest[]): Promise<{ missed: string[]; unguarded: string[]; calls: number }> {
  const { client, agent } = cluster;
  const configs = desired.objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind)).map((o) => o.json);
  for (const ns of new Set(examples.map((e) => e.metadata.namespace).filter((n): n is string => !!n))) {
    if (await client.get('v1', 'Namespace', undefined, ns)) continue;
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { fieldManager: 'examples' });
    await eventually(`the default ServiceAccount of namespace ${ns}`, () => client.get('v1', 'ServiceAccount', ns, 'default'), (sa) => !!sa);
  }
  const before = agent.calls.length;
  const missed: string[] = [];
  const unguarded: string[] = [];
  for (const ex of examples) {
    const from = agent.calls.length;
    await client.apply(ex, { fieldManager: 'examples' });
    expect(await client.get(ex.apiVersion, ex.kind, ex.metadata.namespace, ex.metadata.name)).toBeDefined();
    const namespace = ex.metadata.namespace ? await client.get('v1', 'Namespace', undefined, ex.metadata.namespace) : undefined;
    const paths = webhookPathsFor(configs, ex.apiVersion, pluralOf(ex.kind), 'CREATE', !!ex.metadata.namespace, { namespace: namespace?.metadata.labels ?? {}, object: ex.metadata.labels ?? {} });
    if (!paths.length) unguarded.push(`${ex.apiVersion} ${ex.kind}`);
    for (const path of paths) if (!agent.calls.slice(from).some((c) => c.path.startsWith(path))) missed.push(`${ex.kind}: ${path}`);
  }
  return { missed, unguarded, calls: agent.calls.length - before };
}

/**
 * Deletes every pod of the platform's workloads and waits until each workload is up again
 * with new pods (the controllers' doing, and the webhooks' backends serving again: a webhook
 * that intercepts its own backend's pods and fails closed would keep them out). Returns the
 * seconds it took and the pods deleted.
 */
export async function restartEveryPod(cluster: TestCluster, desired: DesiredPlatform, timeoutMs = 180_000): Promise<{ seconds: number; deleted: string[] }> {
  const { client, agent } = cluster;
  const namespaces = [...new Set(desired.objects.filter((o) => WORKLOAD_KINDS.includes(o.json.kind)).map((o) => o.json.metadata.namespace as string))];
  const old: Json[] = [];
  for (const ns of namespaces) old.push(...await client.list('v1', 'Pod', { namespace: ns }));
  const t0 = Date.now();
  for (const p of old) await client.delete('v1', 'Pod', p.metadata.namespace, p.metadata.name, { propagationPolicy: 'Background' });
  const oldUids = new Set(old.map((p) => p.metadata.uid));
  await eventually('the platform back up with new pods', async () => {
    const pods: Json[] = [];
    for (const ns of namespaces) pods.push(...await client.list('v1', 'Pod', { namespace: ns }));
    return {
      down: (await workloads(cluster, desired)).filter((w) => !workloadUp(w)).map((w) => `${w.metadata.namespace}/${w.metadata.name}`),
      pods: pods.map((p) => ({ uid: p.metadata.uid, name: `${p.metadata.namespace}/${p.metadata.name}`, phase: p.status?.phase })),
    };
  }, (s) => !s.down.length && s.pods.length === old.length && s.pods.every((p) => !oldUids.has(p.uid) && p.phase === 'Running'), timeoutMs,
  (s) => JSON.stringify({ down: s.down, notRunning: s.pods.filter((p) => oldUids.has(p.uid) || p.phase !== 'Running').map((p) => `${p.name} ${p.phase}`).slice(0, 10), pods: s.pods.length, before: old.length }));
  const deleted = old.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  expect(deleted.filter((k) => !agent.confirmedDeletions.includes(k))).toEqual([]);
  return { seconds: (Date.now() - t0) / 1000, deleted };
}

/** Starts a volume provisioner for the cluster's PersistentVolumeClaims (test/support/volumes.ts); stop it before the cluster. */
export function provisionVolumes(cluster: TestCluster): VolumeProvisioner {
  const p = new VolumeProvisioner(cluster.server.kubeConfig);
  p.start();
  return p;
}
