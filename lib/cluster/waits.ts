/**
 * Waiting for what the next phase needs: the readiness of each kind the cold-apply proof
 * names (READY_CONDITIONS in lib/architecture.ts: CRDs Established, Deployments Available,
 * Certificates Ready...), and a ready endpoint behind each webhook Service. Each wait polls
 * until a timeout and then fails naming the object, the condition and the last status seen.
 */
import { READY_CONDITIONS } from '../architecture';
import { KubeClient } from './client';
import { describeRef, Json, Manifest } from './desired';


/** Whether an object is ready, and a short text of what its status says (for progress and errors). */
export interface Readiness {
  readonly ready: boolean;
  readonly status: string;
}

const conditionOf = (o: Json, type: string): Json | undefined => (o.status?.conditions ?? []).find((c: Json) => c.type === type);
const conditionText = (c: Json | undefined, type: string): string =>
  c ? `${type}=${c.status}${c.reason ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})` : ''}` : `no ${type} condition`;
/** The controller has seen the current spec (when it reports what it saw). */
const observed = (o: Json): boolean => o.status?.observedGeneration === undefined || o.status.observedGeneration >= (o.metadata?.generation ?? 0);
/**
 * A workload controller has seen the current spec. Strict: the API server fills a new
 * DaemonSet's status with zeros (0 of 0 scheduled looks rolled out) before any controller
 * looked at it; only an observedGeneration shows that one did.
 */
const seen = (o: Json): boolean => o.status?.observedGeneration !== undefined && o.status.observedGeneration >= (o.metadata?.generation ?? 0);
const unseen = (o: Json): string => (seen(o) ? '' : `; not yet observed by its controller (observedGeneration ${o.status?.observedGeneration ?? 'unset'}, generation ${o.metadata?.generation})`);

function condition(type: string): (o: Json) => Readiness {
  return (o) => {
    const c = conditionOf(o, type);
    return { ready: c?.status === 'True' && observed(o), status: conditionText(c, type) + (observed(o) ? '' : `, observedGeneration ${o.status?.observedGeneration} < generation ${o.metadata?.generation}`) };
  };
}

/**
 * The readiness of each kind a phase waits for; the keys are exactly those of
 * READY_CONDITIONS (a test holds them together).
 */
export const READY_CHECKS: Readonly<Record<string, { readonly condition: string; readonly check: (o: Json) => Readiness }>> = {
  Namespace: { condition: READY_CONDITIONS.Namespace, check: (o) => ({ ready: o.status?.phase === 'Active', status: `phase ${o.status?.phase ?? 'unset'}` }) },
  CustomResourceDefinition: { condition: READY_CONDITIONS.CustomResourceDefinition, check: condition('Established') },
  Deployment: { condition: READY_CONDITIONS.Deployment, check: condition('Available') },
  StatefulSet: {
    condition: READY_CONDITIONS.StatefulSet,
    check: (o) => {
      const want = o.spec?.replicas ?? 1;
      const ready = o.status?.readyReplicas ?? 0;
      return { ready: seen(o) && ready >= want && (o.status?.updatedReplicas ?? 0) >= want, status: `${ready}/${want} ready, ${o.status?.updatedReplicas ?? 0} updated${unseen(o)}` };
    },
  },
  DaemonSet: {
    condition: READY_CONDITIONS.DaemonSet,
    check: (o) => {
      const want = o.status?.desiredNumberScheduled ?? 0;
      const ready = o.status?.numberReady ?? 0;
      return { ready: seen(o) && ready >= want && (o.status?.updatedNumberScheduled ?? 0) >= want, status: `${ready}/${want} ready${unseen(o)}` };
    },
  },
  Certificate: { condition: READY_CONDITIONS.Certificate, check: condition('Ready') },
  Job: { condition: READY_CONDITIONS.Job, check: condition('Complete') },
};

/** Where waits report: a progress line on a terminal, plain lines otherwise. */
export interface WaitReporter {
  /** A finished line. */
  line(text: string): void;
  /** The current state of a running wait (overwritten on a terminal, not shown otherwise). */
  progress(text: string): void;
}

export interface WaitOptions {
  /** @default 300 s */
  readonly timeoutMs?: number;
  /** @default 500 ms */
  readonly intervalMs?: number;
  readonly reporter?: WaitReporter;
}

/** A wait that did not end in time. */
export class WaitTimeout extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it says ready. Fails after the timeout with
 * "<what>: not <condition> after N s; last seen: <status>".
 */
export async function waitUntil(what: string, goal: string, probe: () => Promise<Readiness>, options: WaitOptions = {}): Promise<void> {
  const timeout = options.timeoutMs ?? 300_000;
  const start = Date.now();
  let last: Readiness = await probe();
  let announced = false;
  while (!last.ready) {
    const elapsed = Date.now() - start;
    if (elapsed >= timeout) {
      throw new WaitTimeout(`${what}: not ${goal} after ${Math.round(timeout / 1000)} s; last seen: ${last.status}`);
    }
    if (!announced) {
      options.reporter?.line(`  waiting for ${what}: ${goal}`);
      announced = true;
    }
    options.reporter?.progress(`  waiting for ${what}: ${goal} (${Math.round(elapsed / 1000)} s; ${last.status})`);
    await sleep(options.intervalMs ?? 500);
    last = await probe();
  }
  options.reporter?.line(`  ${what}: ${goal}${announced ? ` after ${Math.round((Date.now() - start) / 1000)} s` : ''}`);
}

/** Waits until the object (as applied) is ready by READY_CHECKS; objects of other kinds need no wait. */
export async function waitReady(client: KubeClient, obj: Manifest, options: WaitOptions = {}): Promise<void> {
  const rule = READY_CHECKS[obj.kind];
  if (!rule) return;
  await waitUntil(describeRef(obj), rule.condition.replace(/^\S+ /, ''), async () => {
    const live = await client.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    return live ? rule.check(live) : { ready: false, status: 'not found' };
  }, options);
}

/**
 * Waits until a Service has a ready endpoint (an EndpointSlice labelled with its name, with
 * an address whose ready condition is not false): what a webhook configuration needs before
 * the API server calls it.
 */
export async function waitEndpoints(client: KubeClient, namespace: string, service: string, options: WaitOptions = {}): Promise<void> {
  await waitUntil(`v1 Service ${namespace}/${service}`, 'a ready endpoint', async () => {
    const slices = await client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace, labelSelector: `kubernetes.io/service-name=${service}` });
    const endpoints = slices.flatMap((s) => s.endpoints ?? []);
    const ready = endpoints.filter((e: Json) => (e.addresses ?? []).length && e.conditions?.ready !== false);
    return { ready: ready.length > 0, status: slices.length ? `${ready.length} of ${endpoints.length} endpoints ready in ${slices.length} EndpointSlices` : 'no EndpointSlice' };
  }, options);
}

/** The Services (namespace/name) that the webhooks of a webhook configuration, or the conversion webhook of a CRD, call. */
export function webhookServices(obj: Json): Array<{ namespace: string; name: string }> {
  const services: Json[] = [];
  if (obj.kind === 'ValidatingWebhookConfiguration' || obj.kind === 'MutatingWebhookConfiguration') {
    for (const w of obj.webhooks ?? []) if (w.clientConfig?.service) services.push(w.clientConfig.service);
  } else if (obj.kind === 'CustomResourceDefinition' && obj.spec?.conversion?.webhook?.clientConfig?.service) {
    services.push(obj.spec.conversion.webhook.clientConfig.service);
  }
  const unique = new Set<string>();
  return services.map((s) => ({ namespace: String(s.namespace), name: String(s.name) })).filter((s) => !unique.has(`${s.namespace}/${s.name}`) && unique.add(`${s.namespace}/${s.name}`));
}
