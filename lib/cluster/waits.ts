/**
 * Waiting for what the next phase needs: the readiness of each kind the cold-apply proof
 * names (READY_CONDITIONS in lib/architecture.ts: CRDs Established, Deployments Available,
 * Certificates Ready...), and a ready endpoint behind each webhook Service. Each wait polls
 * until a timeout and then fails naming the object, the condition and the last status seen.
 */
import { READY_CONDITIONS } from '../architecture';
import { ObjectModel } from '../model';
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

/** The annotations with which an object asks an injector for its CA bundle, and who answers each. */
export const CA_INJECTION_ANNOTATIONS: Readonly<Record<string, string>> = {
  'cert-manager.io/inject-ca-from': "cert-manager's cainjector",
  'cert-manager.io/inject-ca-from-secret': "cert-manager's cainjector",
  'cert-manager.io/inject-apiserver-ca': "cert-manager's cainjector",
  'service.beta.openshift.io/inject-cabundle': "OpenShift's service CA operator",
};

/**
 * Whether every webhook of a webhook configuration has the CA bundle an injector was asked
 * for. Until it has, the API server cannot verify the webhook's serving certificate and
 * every request the webhook intercepts fails ("x509: certificate signed by unknown
 * authority"), so the objects of the next phase must wait for it. Undefined when the
 * object asks no injector.
 */
export function caBundleReadiness(o: Json, backendInjects = false): Readiness | undefined {
  const annotations = o.metadata?.annotations ?? {};
  const asked = Object.keys(CA_INJECTION_ANNOTATIONS).filter((a) => annotations[a]);
  if (!(o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration')) return undefined;
  if (!asked.length && !backendInjects) return undefined;
  const missing = (o.webhooks ?? []).filter((w: Json) => w.clientConfig?.service && !w.clientConfig?.caBundle).map((w: Json) => w.name);
  const who = asked.length ? asked.map((a) => `${a}: ${annotations[a]} asks ${CA_INJECTION_ANNOTATIONS[a]}`).join('; ') : 'its backend injects its own CA, as it did for the other webhooks that call it';
  return { ready: !missing.length, status: missing.length ? `no caBundle in webhook ${missing.join(', ')} (${who}; is it running, and is the certificate issued?)` : 'caBundle injected' };
}

/**
 * Whether a CRD's conversion webhook has the CA bundle an injector was asked for (or that its
 * backend injects, `backendInjects`). Until it has, the API server cannot verify the webhook's
 * certificate, and every read or write of the kind at a version other than the storage
 * version fails ("conversion webhook ... x509: certificate signed by unknown authority"), so
 * such objects wait for it. Undefined when the CRD converts by no webhook or nobody injects.
 */
export function conversionCaBundleReadiness(crd: Json, backendInjects = false): Readiness | undefined {
  const cc = crd.spec?.conversion?.webhook?.clientConfig;
  if (crd.kind !== 'CustomResourceDefinition' || crd.spec?.conversion?.strategy !== 'Webhook' || !cc?.service) return undefined;
  const annotations = crd.metadata?.annotations ?? {};
  const asked = Object.keys(CA_INJECTION_ANNOTATIONS).filter((a) => annotations[a]);
  if (!asked.length && !backendInjects) return undefined;
  const who = asked.length ? asked.map((a) => `${a}: ${annotations[a]} asks ${CA_INJECTION_ANNOTATIONS[a]}`).join('; ') : 'its backend injects its own CA, as it did for the other webhooks that call it';
  return cc.caBundle
    ? { ready: true, status: 'caBundle injected' }
    : { ready: false, status: `no caBundle in its conversion webhook (Service ${cc.service.namespace}/${cc.service.name}; ${who}; is it running, and is the certificate issued?)` };
}

/** The version a CRD stores its objects at. */
export const storageVersionOf = (crd: Json): string | undefined => (crd.spec?.versions ?? []).find((v: Json) => v.storage)?.name;

/**
 * Before an object of a CRD with a conversion webhook is written at a version other than the
 * storage version: waits until the CRD on the cluster has the CA bundle its injector was asked
 * for (conversionCaBundleReadiness). Objects at the storage version need no conversion and no wait.
 */
export async function waitConversionCaBundle(client: KubeClient, crd: Json, apiVersion: string, options: WaitOptions = {}): Promise<void> {
  const version = apiVersion.split('/').pop();
  if (!version || version === storageVersionOf(crd)) return;
  // Whether the backend injects matters only when no annotation asks an injector (and the CRD converts by webhook at all).
  const asks = Object.keys(CA_INJECTION_ANNOTATIONS).some((a) => crd.metadata?.annotations?.[a]);
  if (!conversionCaBundleReadiness(crd, true)) return;
  const backendInjects = !asks && await injectedByBackend(client, crd);
  if (!conversionCaBundleReadiness(crd, backendInjects)) return;
  await waitUntil(describeRef(crd as Manifest), `given its CA bundle for the conversion webhook (${apiVersion} objects are converted to ${storageVersionOf(crd)})`, async () => {
    const live = await client.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, crd.metadata.name);
    return live ? conversionCaBundleReadiness(live, backendInjects) ?? { ready: true, status: 'no injection asked' } : { ready: false, status: 'not found' };
  }, options);
}

/**
 * A webhook configuration without a caBundle whose backend manages its own certificate (as
 * controller-runtime's cert-rotator does in Kueue): nothing in the object says so, but the
 * other webhook configurations or CRD conversions that call the same Service already have a
 * caBundle. The backend injects this one's too, moments after it appears; until then calls
 * fail as from an unknown authority, so the next phase waits for it as well.
 */
async function injectedByBackend(client: KubeClient, obj: Json): Promise<boolean> {
  const isCrd = obj.kind === 'CustomResourceDefinition';
  if (!(obj.kind === 'ValidatingWebhookConfiguration' || obj.kind === 'MutatingWebhookConfiguration' || isCrd)) return false;
  const services = new Set(webhookServices(obj).map((s) => `${s.namespace}/${s.name}`));
  const alreadyInjected = isCrd ? !!obj.spec?.conversion?.webhook?.clientConfig?.caBundle : (obj.webhooks ?? []).every((w: Json) => !w.clientConfig?.service || w.clientConfig?.caBundle);
  if (!services.size || alreadyInjected) return false;
  const injected = (cc: Json | undefined) => !!cc?.caBundle && services.has(`${cc.service?.namespace}/${cc.service?.name}`);
  const other = (o: Json) => !(o.kind === obj.kind && o.metadata?.name === obj.metadata.name);
  // The webhook configurations first: they are small, and usually answer. CRDs (some of them
  // megabytes each) are listed only when no webhook configuration does.
  for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
    const configs = await client.list('admissionregistration.k8s.io/v1', kind);
    if (configs.filter(other).some((o) => (o.webhooks ?? []).some((w: Json) => injected(w.clientConfig)))) return true;
  }
  const crds = await client.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
  return crds.filter(other).some((o) => injected(o.spec?.conversion?.webhook?.clientConfig));
}

/** Waits until the object (as applied) is ready by READY_CHECKS; objects of other kinds need no wait. */
export async function waitReady(client: KubeClient, obj: Manifest, options: WaitOptions = {}): Promise<void> {
  // An object that asks an injector waits for it whoever else could inject: no need to look.
  const asks = Object.keys(CA_INJECTION_ANNOTATIONS).some((a) => obj.metadata?.annotations?.[a]);
  // Only a webhook configuration waits here for a CA bundle (a CRD's conversion webhook is waited for before its custom resources).
  const configuration = obj.kind === 'ValidatingWebhookConfiguration' || obj.kind === 'MutatingWebhookConfiguration';
  const backendInjects = !asks && configuration && await injectedByBackend(client, obj);
  if (caBundleReadiness(obj, backendInjects)) {
    await waitUntil(describeRef(obj), 'given its CA bundle', async () => {
      const live = await client.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
      return live ? caBundleReadiness(live, backendInjects) ?? { ready: true, status: 'no injection asked' } : { ready: false, status: 'not found' };
    }, options);
  }
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
export async function waitEndpoints(client: KubeClient, namespace: string, service: string, options: WaitOptions & { readonly neededBy?: readonly string[] } = {}): Promise<void> {
  try {
    await waitUntil(`v1 Service ${namespace}/${service}`, 'a ready endpoint', async () => {
      const slices = await client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace, labelSelector: `kubernetes.io/service-name=${service}` });
      // Only slices with a port: a pod that declares none of the ports the Service targets is listed without one, and unreachable.
      const endpoints = slices.filter((s) => (s.ports ?? []).length).flatMap((s) => s.endpoints ?? []);
      const ready = endpoints.filter((e: Json) => (e.addresses ?? []).length && e.conditions?.ready !== false);
      return { ready: ready.length > 0, status: slices.length ? `${ready.length} of ${endpoints.length} endpoints with a port ready in ${slices.length} EndpointSlices` : 'no EndpointSlice' };
    }, options);
  } catch (e) {
    if (!(e instanceof WaitTimeout)) throw e;
    // Say who needs the Service and why it has no endpoint, as far as the cluster shows.
    const callers = options.neededBy?.length ? [...options.neededBy] : await webhooksCalling(client, namespace, service).catch(() => []);
    const why = await whyNoEndpoint(client, namespace, service).catch(() => undefined);
    throw new WaitTimeout(`${e.message}${why ? `; ${why}` : ''}${callers.length ? `; needed by ${callers.join(', ')}` : ''}`);
  }
}

const selectorText = (selector: Record<string, string>) => Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',');

/** Why a Service has no ready endpoint: no selector, a selector that matches no pod, a target port no container declares, pods not ready. */
export async function whyNoEndpoint(client: KubeClient, namespace: string, name: string): Promise<string | undefined> {
  const svc = await client.get('v1', 'Service', namespace, name);
  if (!svc) return 'the Service does not exist';
  const selector: Record<string, string> = svc.spec?.selector ?? {};
  if (!Object.keys(selector).length) return 'the Service has no selector, so no controller gives it endpoints';
  const pods = (await client.list('v1', 'Pod', { namespace, labelSelector: selectorText(selector) })).filter((p) => !p.metadata?.deletionTimestamp);
  if (!pods.length) {
    const workloads: string[] = [];
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet']) {
      for (const w of await client.list('apps/v1', kind, { namespace })) workloads.push(`${kind} ${w.metadata.name} labels its pods ${selectorText(w.spec?.template?.metadata?.labels ?? {})}`);
    }
    return `its selector ${selectorText(selector)} matches no pod in namespace ${namespace}${workloads.length ? ` (${workloads.join('; ')})` : ''}`;
  }
  const reasons: string[] = [];
  for (const p of svc.spec?.ports ?? []) {
    const target = p.targetPort ?? p.port;
    if (typeof target !== 'string') continue;
    const declared = pods.some((pod) => (pod.spec?.containers ?? []).some((c: Json) => (c.ports ?? []).some((cp: Json) => cp.name === target)));
    if (!declared) {
      const names = [...new Set(pods.flatMap((pod) => (pod.spec?.containers ?? []).flatMap((c: Json) => (c.ports ?? []).map((cp: Json) => cp.name).filter(Boolean))))];
      reasons.push(`port ${p.name ?? p.port} targets the container port named '${target}', which no container of the ${pods.length} selected pods declares (they declare: ${names.join(', ') || 'no named ports'})`);
    }
  }
  if (reasons.length) return reasons.join('; ');
  const ready = pods.filter((pod) => (pod.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True'));
  if (!ready.length) return `its selector matches ${pods.length} pods, none ready (${pods.slice(0, 3).map((pod) => `${pod.metadata.name}: ${pod.status?.phase ?? 'no phase'}${pod.spec?.nodeName ? '' : ', not scheduled'}`).join('; ')})`;
  return undefined;
}

/** The webhooks (configuration and webhook name) and CRD conversions on the cluster that call a Service. */
export async function webhooksCalling(client: KubeClient, namespace: string, name: string): Promise<string[]> {
  const objects = [
    ...await client.list('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration'),
    ...await client.list('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'),
    ...await client.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
  ];
  return objects.map((o) => callersIn(o, namespace, name)).filter((x): x is string => !!x);
}

/** What in an object calls a Service: `<kind> <name> (webhook a, b)` or `the conversion webhook of CRD <name>`. */
export function callersIn(obj: Json, namespace: string, name: string): string | undefined {
  const calling = webhooksIn(obj).filter((w) => w.clientConfig?.service?.namespace === namespace && w.clientConfig?.service?.name === name);
  if (!calling.length) return undefined;
  return obj.kind === 'CustomResourceDefinition' ? `the conversion webhook of CRD ${obj.metadata?.name}` : `${obj.kind} ${obj.metadata?.name} (webhook ${calling.map((w) => w.name).join(', ')})`;
}

/** The Services (namespace/name) that the webhooks of a webhook configuration, or the conversion webhook of a CRD, call. */
export function webhookServices(obj: Json): Array<{ namespace: string; name: string }> {
  const unique = new Set<string>();
  return webhooksIn(obj).filter((w) => w.clientConfig?.service).map((w) => ({ namespace: String(w.clientConfig.service.namespace), name: String(w.clientConfig.service.name) }))
    .filter((s) => !unique.has(`${s.namespace}/${s.name}`) && unique.add(`${s.namespace}/${s.name}`));
}

/** The webhooks an object (as applied, or as on the cluster) declares, as lib/model.ts reads them. */
function webhooksIn(obj: Json): ReturnType<ObjectModel['webhooksOf']> {
  const model = new ObjectModel([{ json: obj }]);
  return model.webhooksOf(model.objects[0]);
}
