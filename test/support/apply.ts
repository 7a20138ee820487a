/**
 * Applies a synthesized platform to a test API server the way a first install would, phase
 * by phase, and records what the server accepted and what it rejected, with its message.
 *
 * Namespaces and CRDs are applied for real, and each accepted CRD is waited for until
 * Established. Later objects are applied for real where nothing needs a running controller,
 * and as a server-side dry run where storing them would make the server depend on a
 * backend that does not run here: admission webhook configurations (the server would call
 * webhook Services that nobody answers and reject what follows) and APIServices (the
 * aggregated API would be unavailable and break discovery).
 */
import * as k8s from '@kubernetes/client-node';
import { ApiError, KubeClient } from '../../lib/cluster/client';
import { PHASES } from '../../lib/phases';
import { PlatformObject } from '../../lib/platform';

/** Kinds applied as a dry run only (see above). */
export const DRY_RUN_KINDS = new Set(['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'APIService']);

export const FIELD_MANAGER = 'mlplatform-envtest';

export interface ApplyOutcome {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** The component that emitted the object. */
  readonly component: string;
  readonly phase: string;
  readonly mode: 'apply' | 'dry-run';
  /** The server's message when it rejected the object. */
  readonly error?: string;
}

export const objectId = (o: { apiVersion: string; kind: string; namespace?: string; name: string }) =>
  `${o.apiVersion} ${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** The server's message from a client-node error (ApiException with a Status body), or the error's text. */
export function serverMessage(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  const body = (e as { body?: unknown }).body;
  if (typeof body === 'string') {
    try { return (JSON.parse(body) as { message?: string }).message ?? body; } catch { return body; }
  }
  if (body && typeof body === 'object' && 'message' in body) return String((body as { message: unknown }).message);
  return e instanceof Error ? e.message : String(e);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until each named CRD reports Established=True; returns the names that did not in time. */
export async function waitEstablished(client: KubeClient, names: string[], timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...names];
  while (pending.length && Date.now() < deadline) {
    const still: string[] = [];
    for (const name of pending) {
      const crd = await client.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, name);
      if (!crd?.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True')) still.push(name);
    }
    pending = still;
    if (pending.length) await sleep(200);
  }
  return pending;
}

const plural = (kind: string) => {
  const k = kind.toLowerCase();
  return /[^aeiou]y$/.test(k) ? `${k.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(k) ? `${k}es` : `${k}s`;
};

/**
 * Stand-in CRDs for the kinds a platform leaves to prerequisites (cert-manager, Istio, the
 * Gateway API...), as if those were installed: open schemas, every version the objects use,
 * the scope the objects have. Only the test makes these; synth never emits them.
 */
type StandInCrd = k8s.KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string } };
export function prerequisiteCrds(objects: readonly PlatformObject[], externalKinds: ReadonlySet<string>): StandInCrd[] {
  const byKind = new Map<string, { group: string; kind: string; versions: Set<string>; namespaced: boolean }>();
  for (const o of objects) {
    const [group, version] = String(o.json.apiVersion).includes('/') ? String(o.json.apiVersion).split('/') : ['', String(o.json.apiVersion)];
    const key = `${group}/${o.json.kind}`;
    if (!externalKinds.has(key)) continue;
    const e = byKind.get(key) ?? { group, kind: o.json.kind, versions: new Set<string>(), namespaced: false };
    e.versions.add(version);
    e.namespaced ||= o.json.metadata?.namespace !== undefined;
    byKind.set(key, e);
  }
  return [...byKind.values()].map((e) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural(e.kind)}.${e.group}` },
    spec: {
      group: e.group,
      names: { kind: e.kind, plural: plural(e.kind), singular: e.kind.toLowerCase(), listKind: `${e.kind}List` },
      scope: e.namespaced ? 'Namespaced' : 'Cluster',
      versions: [...e.versions].sort().map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      })),
    },
  }));
}

/**
 * Applies the objects (in the order given, grouped by phase) and returns an outcome per object.
 * `existingNamespaces` (the platform's: namespaces its prerequisites make, e.g. istio-system)
 * are created first, as the cluster would have them. With `dryRun`, every object of the
 * platform is a server-side dry run (validated and admitted, nothing stored): for a server
 * that holds the platform's CRDs already (a bring-up in motion made them), the prerequisites'
 * stand-ins and namespaces are still made for real.
 */
export async function applyObjects(kc: k8s.KubeConfig, objects: readonly PlatformObject[], externalKinds: ReadonlySet<string> = new Set(),
  existingNamespaces: readonly string[] = [], options: { readonly dryRun?: boolean } = {}): Promise<ApplyOutcome[]> {
  const outcomes: ApplyOutcome[] = [];
  const client = new KubeClient(kc);
  for (const name of existingNamespaces.filter((n) => n !== 'default' && n !== 'kube-system')) {
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { fieldManager: FIELD_MANAGER });
  }
  const standIns = prerequisiteCrds(objects, externalKinds);
  if (standIns.length) {
    for (const crd of standIns) await client.apply(crd, { fieldManager: FIELD_MANAGER });
    const late = await waitEstablished(client, standIns.map((c) => c.metadata.name));
    if (late.length) throw new Error(`stand-in CRDs for prerequisites not Established: ${late.join(', ')}`);
  }
  for (const phase of PHASES) {
    // Discovery afresh per phase: a phase's kinds may be served only since the phase before.
    client.forgetDiscovery();
    const crds: string[] = [];
    for (const o of objects.filter((x) => x.phase === phase)) {
      const json = o.json as { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
      const mode = options.dryRun || DRY_RUN_KINDS.has(json.kind) ? 'dry-run' : 'apply';
      const base = {
        apiVersion: json.apiVersion,
        kind: json.kind,
        namespace: json.metadata.namespace,
        name: json.metadata.name,
        component: o.component.componentName,
        phase,
        mode,
      } as const;
      try {
        await client.apply(json, { fieldManager: FIELD_MANAGER, dryRun: mode === 'dry-run', metadataOnly: true });
        outcomes.push(base);
        if (json.kind === 'CustomResourceDefinition' && mode === 'apply') crds.push(json.metadata.name);
      } catch (e) {
        outcomes.push({ ...base, error: serverMessage(e) });
      }
    }
    const notEstablished = await waitEstablished(client, crds);
    for (const name of notEstablished) {
      const i = outcomes.findIndex((x) => x.kind === 'CustomResourceDefinition' && x.name === name);
      outcomes[i] = { ...outcomes[i], error: 'not Established within 30 s' };
    }
  }
  return outcomes;
}
