/**
 * Plays the controllers a bare API server lacks, so that `mlplatform apply` can wait for
 * what a real cluster would report, without switching any wait off:
 * - a Deployment that appears becomes Available (its status written as the deployment
 *   controller would, for its current generation); a DaemonSet runs on one node, a
 *   StatefulSet's replicas become ready;
 * - a Service whose selector matches the pods of an Available Deployment gets an
 *   EndpointSlice with one ready address (10.0.0.50, which the API server never dials);
 * - a cert-manager Certificate becomes Ready;
 * - a webhook configuration that asks an injector for its CA (cert-manager.io/inject-ca-from...)
 *   gets a caBundle (never used: webhook admission is off where this player runs).
 * It records what it did and when, so tests can check that apply waited for it.
 */
import { applyPlatform } from '../../lib/cluster/apply';
import { ApiError, KubeClient } from '../../lib/cluster/client';
import { DesiredPlatform } from '../../lib/cluster/desired';
import { caBundleReadiness } from '../../lib/cluster/waits';

type Json = Record<string, any>;

export const CONTROLLER_MANAGER = 'test-controllers';

export interface PlayedEvent {
  readonly what: 'available' | 'endpoints' | 'certificate-ready' | 'ca-injected';
  /** namespace/name */
  readonly object: string;
  readonly at: number;
}

export interface ControllerPlayer {
  readonly events: PlayedEvent[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const matches = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** Starts playing the controllers; `stop()` ends the loop and waits for its last round. */
export function playControllers(client: KubeClient, options: { intervalMs?: number; available?: (d: Json) => boolean } = {}): ControllerPlayer {
  const events: PlayedEvent[] = [];
  const done = new Set<string>();
  let running = true;
  const round = async () => {
    const deployments = await client.list('apps/v1', 'Deployment');
    const available: Json[] = [];
    for (const d of deployments) {
      const key = `${d.metadata.namespace}/${d.metadata.name}`;
      const isAvailable = (d.status?.conditions ?? []).some((c: Json) => c.type === 'Available' && c.status === 'True') && d.status?.observedGeneration === d.metadata.generation;
      if (isAvailable) {
        available.push(d);
        continue;
      }
      if (options.available && !options.available(d)) continue;
      const replicas = d.spec?.replicas ?? 1;
      const now = new Date().toISOString();
      await client.writeStatus({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: d.metadata.name, namespace: d.metadata.namespace },
        status: {
          observedGeneration: d.metadata.generation,
          replicas,
          updatedReplicas: replicas,
          readyReplicas: replicas,
          availableReplicas: replicas,
          conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'played by the test', lastUpdateTime: now, lastTransitionTime: now }],
        },
      }, CONTROLLER_MANAGER);
      events.push({ what: 'available', object: key, at: Date.now() });
      available.push(d);
    }
    // DaemonSets: scheduled and ready on one node. StatefulSets: every replica ready.
    for (const ds of await client.list('apps/v1', 'DaemonSet')) {
      if (ds.status?.observedGeneration === ds.metadata.generation) continue;
      await client.writeStatus({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: ds.metadata.name, namespace: ds.metadata.namespace },
        status: {
          observedGeneration: ds.metadata.generation,
          currentNumberScheduled: 1,
          desiredNumberScheduled: 1,
          numberMisscheduled: 0,
          numberReady: 1,
          updatedNumberScheduled: 1,
          numberAvailable: 1,
        },
      }, CONTROLLER_MANAGER);
      events.push({ what: 'available', object: `${ds.metadata.namespace}/${ds.metadata.name}`, at: Date.now() });
    }
    for (const st of await client.list('apps/v1', 'StatefulSet')) {
      if (st.status?.observedGeneration === st.metadata.generation) continue;
      const replicas = st.spec?.replicas ?? 1;
      await client.writeStatus({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: st.metadata.name, namespace: st.metadata.namespace },
        status: { observedGeneration: st.metadata.generation, replicas, readyReplicas: replicas, updatedReplicas: replicas, currentReplicas: replicas, availableReplicas: replicas },
      }, CONTROLLER_MANAGER);
      events.push({ what: 'available', object: `${st.metadata.namespace}/${st.metadata.name}`, at: Date.now() });
    }
    for (const s of await client.list('v1', 'Service')) {
      const key = `${s.metadata.namespace}/${s.metadata.name}`;
      if (done.has(`svc/${key}`)) continue;
      const backend = available.find((d) => d.metadata.namespace === s.metadata.namespace && matches(s.spec?.selector, d.spec?.template?.metadata?.labels));
      if (!backend) continue;
      await client.apply({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: `${s.metadata.name}-played`, namespace: s.metadata.namespace, labels: { 'kubernetes.io/service-name': s.metadata.name } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.50'], conditions: { ready: true } }],
        ports: (s.spec?.ports ?? []).map((p: Json) => ({ name: p.name ?? '', port: typeof p.targetPort === 'number' ? p.targetPort : p.port, protocol: p.protocol ?? 'TCP' })),
      } as { apiVersion: string; kind: string; metadata: { name: string; namespace: string } }, { fieldManager: CONTROLLER_MANAGER });
      done.add(`svc/${key}`);
      events.push({ what: 'endpoints', object: key, at: Date.now() });
    }
    let certificates: Json[] = [];
    try {
      certificates = await client.list('cert-manager.io/v1', 'Certificate');
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    for (const c of certificates) {
      const key = `${c.metadata.namespace}/${c.metadata.name}`;
      if ((c.status?.conditions ?? []).some((x: Json) => x.type === 'Ready' && x.status === 'True')) continue;
      const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'played by the test' }] };
      // The stand-in CRD has no status subresource: status is written with the object.
      await client.apply({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: c.metadata.name, namespace: c.metadata.namespace }, status } as { apiVersion: string; kind: string; metadata: { name: string; namespace: string } }, { fieldManager: CONTROLLER_MANAGER });
      events.push({ what: 'certificate-ready', object: key, at: Date.now() });
    }
    for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
      for (const w of await client.list('admissionregistration.k8s.io/v1', kind)) {
        if (caBundleReadiness(w)?.ready !== false) continue;
        const ops = (w.webhooks ?? []).map((h: Json, i: number) => (h.clientConfig?.service && !h.clientConfig.caBundle ? { op: 'add', path: `/webhooks/${i}/clientConfig/caBundle`, value: Buffer.from('a CA (played)').toString('base64') } : undefined)).filter((x: Json | undefined) => x);
        await client.request('PATCH', await client.pathOf('admissionregistration.k8s.io/v1', kind, undefined, w.metadata.name), ops, 'application/json-patch+json');
        events.push({ what: 'ca-injected', object: w.metadata.name, at: Date.now() });
      }
    }
  };
  const loop = (async () => {
    while (running) {
      try {
        await round();
      } catch (e) {
        // A kind not served yet, or an object deleted meanwhile: try again next round.
        if (!(e instanceof ApiError)) throw e;
      }
      await sleep(options.intervalMs ?? 200);
    }
  })();
  return {
    events,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** `applyPlatform` with the controllers played (short waits); returns its result and the log lines. */
export async function applyPlayed(client: KubeClient, p: DesiredPlatform, options: Parameters<typeof applyPlatform>[2] = {}) {
  const lines: string[] = [];
  const player = playControllers(client);
  try {
    const result = await applyPlatform(client, p, { timeoutMs: 30_000, intervalMs: 200, reporter: { line: (l) => lines.push(l), progress: () => undefined }, ...options });
    return { result, lines };
  } finally {
    await player.stop();
  }
}
