/**
 * Shared steps of the "platform in motion" tests (test/apiserver/motion-*.test.ts): bring a
 * default platform up with `mlplatform apply`'s code (lib/cluster/apply.ts) on a test cluster
 * (test/support/cluster.ts) and check what the controllers made of it.
 */
import { FIELD_MANAGER as STAND_IN_MANAGER, prerequisiteCrds, waitEstablished } from './apply';
import { TestCluster } from './cluster';
import { Json } from './watch';
import { applyPlatform, ApplyOptions, ApplyResult } from '../../lib/cluster/apply';
import { DesiredPlatform } from '../../lib/cluster/desired';
import { PlatformModel } from '../../lib/platform';

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

/** Every live workload of the platform, with what its controller reported. */
export async function workloads(cluster: TestCluster, desired: DesiredPlatform): Promise<Json[]> {
  const out: Json[] = [];
  for (const o of desired.objects.filter((x) => WORKLOAD_KINDS.includes(x.json.kind))) {
    const live = await cluster.client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name);
    out.push(live ?? { kind: o.json.kind, metadata: o.json.metadata, missing: true });
  }
  return out;
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

/** The AdmissionReview calls the webhooks of these configurations must get for an object: the path of each webhook whose rules match its resource, version and the operation. */
export function webhookPathsFor(configs: readonly Json[], apiVersion: string, resource: string, operation: string, namespaced: boolean): string[] {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const paths: string[] = [];
  for (const c of configs) {
    for (const w of c.webhooks ?? []) {
      // Selectors depend on labels: only webhooks that intercept everything of their rules are expected for sure.
      const selective = (sel: Json | undefined) => !!sel && (Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0);
      if (!w.clientConfig?.service || selective(w.objectSelector) || selective(w.namespaceSelector)) continue;
      // matchPolicy Exact: only the versions the rule names; Equivalent (the default): any version of the resource.
      const hit = (w.rules ?? []).some((r: Json) => (r.apiGroups ?? []).some((g: string) => g === '*' || g === group)
        && (w.matchPolicy !== 'Exact' || (r.apiVersions ?? []).some((v: string) => v === '*' || v === version))
        && (r.resources ?? []).some((x: string) => x === '*' || x === resource)
        && (r.operations ?? []).some((op: string) => op === '*' || op === operation)
        && (!r.scope || r.scope === '*' || r.scope === (namespaced ? 'Namespaced' : 'Cluster')));
      if (hit) paths.push(w.clientConfig.service.path ?? '/');
    }
  }
  return paths;
}

/**
 * The APIs of the platform's prerequisites, as if installed (open-schema CRDs): the kinds its
 * objects use (test/support/apply.ts), and every other kind a prerequisite must serve for
 * apply's check (cluster-scoped when no object says otherwise).
 */
export async function installPrerequisites(cluster: TestCluster, model: PlatformModel, desired: DesiredPlatform): Promise<void> {
  const crds = prerequisiteCrds(model.objects, model.externalKinds);
  const covered = new Set(crds.map((c) => `${(c as Json).spec.group}/${(c as Json).spec.names.kind}`));
  for (const p of desired.prerequisites) {
    for (const k of p.kinds) {
      if (!k.group || covered.has(`${k.group}/${k.kind}`) || !k.version) continue;
      covered.add(`${k.group}/${k.kind}`);
      const plural = `${k.kind.toLowerCase()}s`;
      crds.push({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${plural}.${k.group}` },
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
