/**
 * Plays the kubelet for fake nodes of a test cluster (test/support/cluster.ts), kube-proxy for
 * the Services that webhooks call, and the webhook servers that run in the pods:
 *
 * - Nodes sized like a small cluster (three 16-CPU/64Gi workers and a tainted GPU node by
 *   default) are registered Ready; the scheduler binds pods to them.
 * - A pod bound to one of them starts once every Secret and ConfigMap it mounts or reads into
 *   its environment exists, with the keys it reads (a kubelet waits for them too), and is then
 *   reported Running and Ready with a pod IP of its own, so that the endpointslice, endpoints
 *   and deployment controllers do the rest. A Job's pod completes.
 * - A pod being deleted is confirmed (force-deleted), as a kubelet does once its containers stopped.
 * - Webhook backends: for each pod whose container declares a port that a webhook Service
 *   (admission webhook configuration, CRD conversion, APIService) targets through that
 *   Service's selector, a stand-in HTTPS server plays the pod's podIP:containerPort with the
 *   certificate of the Secret the pod mounts, and answers every AdmissionReview with allowed
 *   (same uid) and every ConversionReview with the objects in the desired apiVersion. It is
 *   stopped with the pod. A backend whose mounted Secret holds no certificate (or that
 *   mounts none) manages its own, as controller-runtime's cert-rotator (Kueue, JobSet, the
 *   Trainer...) and the Spark operator do: the stand-in issues one for its Services' names
 *   from the test CA, writes it into that Secret, and injects the CA into the webhook
 *   configurations and CRDs that call those Services and ask nobody else (cert-manager,
 *   OpenShift's service CA) to.
 * - kube-proxy: the API server calls a webhook at its Service's ClusterIP (a loopback address:
 *   the cluster's service range is 127.X.0.0/16), where the agent listens on the Service's
 *   port and hands each connection to the stand-in of a ready endpoint of the Service's
 *   EndpointSlices (as the endpointslice controller published them), matched by IP and
 *   port. Pod IPs come from 198.18.0.0/15 (a range reserved for benchmarks): no traffic ever
 *   goes to them, the hand-over is in this process. (Pod IPs cannot be loopback addresses:
 *   the API server rejects loopback addresses in Endpoints and EndpointSlices, so with them
 *   no controller could publish an endpoint, and `--enable-aggregator-routing`, which dials
 *   endpoint IPs, could not reach a pod either.)
 *   Nothing else is faked: a Service that selects no pod or the wrong ones, a port no
 *   container declares, a certificate for other names or a missing caBundle fail the way
 *   they fail on a real cluster (connection refused or reset, x509 errors).
 */
import * as https from 'https';
import { createServer, Server, Socket } from 'net';
import * as k8s from '@kubernetes/client-node';
import { IssuedCertificate, TestCa } from './certs';
import { Json, keyOf, ObjectWatch } from './watch';
import { ApiError, KubeClient } from '../../lib/cluster/client';

export interface FakeNode {
  readonly name: string;
  readonly cpu: string;
  readonly memory: string;
  /** nvidia.com/gpu capacity */
  readonly gpus?: number;
  readonly labels?: Record<string, string>;
  readonly taints?: Array<{ key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }>;
}

/**
 * Three 16-CPU/64Gi workers and one node with four GPUs, tainted so that only GPU workloads go
 * there. The workers carry `kserve/localmodel: worker`, the label KServe's LocalModel node agent
 * selects (its docs have the cluster's admin label the nodes that cache models).
 */
export const SMALL_CLUSTER: readonly FakeNode[] = [
  { name: 'worker-1', cpu: '16', memory: '64Gi', labels: { 'kserve/localmodel': 'worker' } },
  { name: 'worker-2', cpu: '16', memory: '64Gi', labels: { 'kserve/localmodel': 'worker' } },
  { name: 'worker-3', cpu: '16', memory: '64Gi', labels: { 'kserve/localmodel': 'worker' } },
  {
    name: 'gpu-1',
    cpu: '16',
    memory: '64Gi',
    gpus: 4,
    labels: { 'nvidia.com/gpu.present': 'true' },
    taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
  },
];

export const KUBELET_MANAGER = 'test-kubelet';
export const CERT_ROTATOR_MANAGER = 'test-cert-rotator';

/** One call a stand-in webhook server received. */
export interface WebhookCall {
  /** namespace/pod */
  readonly pod: string;
  readonly port: number;
  readonly path: string;
  readonly kind: 'AdmissionReview' | 'ConversionReview';
  /** AdmissionReview: the operation and resource (group/version/resource); ConversionReview: the desired apiVersion. */
  readonly detail: string;
}

interface StandIn {
  readonly key: string;
  readonly pod: string;
  readonly podUid: string;
  readonly ip: string;
  readonly port: number;
  /** Where its certificate came from: the Secret's resourceVersion, or 'self'. */
  readonly source: string;
  readonly server: https.Server;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The annotations with which a webhook configuration or CRD asks someone else to inject its CA. */
export const INJECT_ANNOTATIONS = ['cert-manager.io/inject-ca-from', 'cert-manager.io/inject-ca-from-secret', 'cert-manager.io/inject-apiserver-ca', 'service.beta.openshift.io/inject-cabundle'];
/** cert-manager's cainjector: the CA of this Secret (namespace/name), which the backend may write itself. */
export const INJECT_FROM_SECRET = 'cert-manager.io/inject-ca-from-secret';

/** The Services (with the port called) that a webhook configuration or CRD sends requests to. */
export function webhookTargets(o: Json): Array<{ namespace: string; name: string; port: number }> {
  const configs: Json[] = [];
  if (o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration') for (const w of o.webhooks ?? []) configs.push(w.clientConfig ?? {});
  if (o.kind === 'CustomResourceDefinition' && o.spec?.conversion?.strategy === 'Webhook') configs.push(o.spec.conversion.webhook?.clientConfig ?? {});
  return configs.filter((c) => c.service).map((c) => ({ namespace: c.service.namespace, name: c.service.name, port: c.service.port ?? 443 }));
}

export class NodeAgent {
  /** Every call the stand-in webhook servers answered. */
  public readonly calls: WebhookCall[] = [];
  /** Pods this agent started (namespace/name), in order. */
  public readonly started: string[] = [];
  /** Connections kube-proxy routed (to: the pod whose stand-in got it; none when the Service had no ready endpoint served by one). */
  public readonly routed: Array<{ service: string; port: number; endpoints: number; to?: string; candidates?: string[]; standIns?: string[] }> = [];
  /** Pods whose deletion it confirmed. */
  public readonly confirmedDeletions: string[] = [];
  private readonly client: KubeClient;
  private readonly nodeNames: Set<string>;
  private readonly nodeIps = new Map<string, string>();
  private readonly podIps = new Map<string, string>();
  private readonly standIns = new Map<string, StandIn>();
  private readonly selfIssued = new Map<string, IssuedCertificate>();
  private readonly watches: ObjectWatch[] = [];
  private readonly pods: ObjectWatch;
  private readonly services: ObjectWatch;
  private readonly webhookConfigs: ObjectWatch[];
  private readonly crds: ObjectWatch;
  private readonly queue = new Set<string>();
  private working = false;
  private reconcileTimer?: NodeJS.Timeout;
  private reconciling?: Promise<void>;
  private reconcileAgain = false;
  private stopped = false;
  /** kube-proxy's listeners: clusterIP:port -> server. */
  private readonly proxies = new Map<string, { server: Server; service: string; port: number }>();
  private readonly slices: ObjectWatch;
  private readonly apiServices: ObjectWatch;
  private readonly secrets: ObjectWatch;
  private nextIp = 0;
  /** Errors of the agent's own work (not the API server's answers to pods), for the test to show. */
  public readonly errors: string[] = [];

  constructor(kubeConfig: k8s.KubeConfig, private readonly ca: TestCa, public readonly nodes: readonly FakeNode[] = SMALL_CLUSTER) {
    this.client = new KubeClient(kubeConfig);
    this.nodeNames = new Set(nodes.map((n) => n.name));
    const watch = (path: string, onChange: (obj: Json) => void) => {
      const w = new ObjectWatch(kubeConfig, path, (_t, obj) => onChange(obj));
      this.watches.push(w);
      return w;
    };
    this.pods = watch('/api/v1/pods', (pod) => {
      if (this.nodeNames.has(pod.spec?.nodeName)) this.enqueue(keyOf(pod));
      this.reconcileSoon();
    });
    this.services = watch('/api/v1/services', () => this.reconcileSoon());
    // A new webhook configuration: its backend injects its CA at once (self-managed certificates).
    this.webhookConfigs = [
      watch('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', () => this.reconcileSoon(5)),
      watch('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', () => this.reconcileSoon(5)),
    ];
    this.crds = watch('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', (crd) => { if (crd.spec?.conversion?.strategy === 'Webhook') this.reconcileSoon(); });
    this.apiServices = watch('/apis/apiregistration.k8s.io/v1/apiservices', () => this.reconcileSoon());
    this.slices = watch('/apis/discovery.k8s.io/v1/endpointslices', () => undefined);
    // A backend's certificate changes (issued again): its stand-in serves the new one.
    // (Also what the rounds read of Secrets: secret().)
    this.secrets = watch('/api/v1/secrets', (s) => { if (s.type === 'kubernetes.io/tls' || s.data?.['tls.crt']) this.reconcileSoon(); });
  }

  /**
   * A Secret as the watch last saw it; read from the server only when the watch has not seen it
   * (not there, or not yet listed). Each round of the stand-ins read the Secrets of every
   * backend again before, on every change of a pod, Service, Secret or webhook configuration.
   */
  private async secret(namespace: string, name: string): Promise<Json | undefined> {
    return this.secrets.items.get(`${namespace}/${name}`) ?? this.client.get('v1', 'Secret', namespace, name);
  }

  /** Registers the nodes Ready and starts watching. */
  public async start(): Promise<void> {
    for (const [i, n] of this.nodes.entries()) {
      // TEST-NET-3: documentation addresses, never dialled (nothing here calls a kubelet).
      const ip = `203.0.113.${10 + i}`;
      this.nodeIps.set(n.name, ip);
      await this.registerNode(n, ip);
    }
    for (const w of this.watches) w.start();
  }

  private allocateIp(): string {
    // 198.18.0.1 upwards (198.18.0.0/15); .0 and .255 skipped. Never dialled (see above).
    for (;;) {
      const n = this.nextIp++;
      const [a, b, c] = [Math.floor(n / 65536) % 2, Math.floor(n / 256) % 256, n % 256];
      if (c !== 0 && c !== 255) return `198.${18 + a}.${b}.${c}`;
    }
  }

  private async registerNode(n: FakeNode, ip: string): Promise<void> {
    const labels = { 'kubernetes.io/hostname': n.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...n.labels };
    const taints = n.taints ?? [];
    await this.client.apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: n.name, labels }, spec: { taints } } as k8s.KubernetesObject & { apiVersion: string; kind: string; metadata: { name: string } }, { fieldManager: KUBELET_MANAGER });
    const now = new Date().toISOString();
    const capacity: Record<string, string> = { 'cpu': n.cpu, 'memory': n.memory, 'pods': '110', 'ephemeral-storage': '200Gi', ...(n.gpus ? { 'nvidia.com/gpu': String(n.gpus) } : {}) };
    await this.client.writeStatus({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: n.name },
      status: {
        capacity,
        allocatable: capacity,
        addresses: [{ type: 'InternalIP', address: ip }, { type: 'Hostname', address: n.name }],
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'fake node (test/support/node-agent.ts)', lastHeartbeatTime: now, lastTransitionTime: now }],
      },
    }, KUBELET_MANAGER);
    // TaintNodesByCondition added node.kubernetes.io/not-ready at creation; a kubelet's Ready
    // node loses it through the node-lifecycle controller, which does not run here.
    const path = await this.client.pathOf('v1', 'Node', undefined, n.name);
    await this.client.request('PATCH', path, [{ op: 'replace', path: '/spec/taints', value: taints }], 'application/json-patch+json');
  }

  private enqueue(key: string): void {
    this.queue.add(key);
    void this.work();
  }

  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.size && !this.stopped) {
        const key = this.queue.values().next().value as string;
        this.queue.delete(key);
        try {
          await this.syncPod(key);
        } catch (e) {
          if (this.stopped) break;
          // The pod changed or went meanwhile: its next event brings it back.
          if (transient(e)) setTimeout(() => { if (!this.stopped) this.enqueue(key); }, 500);
          else if (!(e instanceof ApiError && (e.status === 404 || e.status === 409))) this.errors.push(`pod ${key}: ${(e as Error).message}`);
        }
      }
    } finally {
      this.working = false;
    }
  }

  private async syncPod(key: string): Promise<void> {
    const pod = this.pods.items.get(key);
    if (!pod) return;
    const [namespace, name] = key.split('/');
    if (pod.metadata.deletionTimestamp) {
      await this.stopStandIns(pod.metadata.uid);
      const path = await this.client.pathOf('v1', 'Pod', namespace, name);
      try {
        await this.client.request('DELETE', path, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
        this.confirmedDeletions.push(key);
      } catch (e) {
        if (!(e instanceof ApiError && (e.status === 404 || e.status === 409))) throw e;
      }
      this.podIps.delete(pod.metadata.uid);
      return;
    }
    if (this.podIps.has(pod.metadata.uid) || ['Running', 'Succeeded', 'Failed'].includes(pod.status?.phase)) return;
    // A kubelet starts the containers only once every volume can be mounted.
    const missing = await this.missingVolumes(pod);
    if (missing.length) {
      setTimeout(() => { if (!this.stopped) this.enqueue(key); }, 500);
      return;
    }
    const hostIp = this.nodeIps.get(pod.spec.nodeName)!;
    const ip = pod.spec.hostNetwork ? hostIp : this.allocateIp();
    this.podIps.set(pod.metadata.uid, ip);
    // Ready only once its webhook servers serve (a readiness probe on them, as controller-runtime's).
    // A pod no called Service selects has none: it need not wait for a round of the stand-ins
    // (each reads the Secrets of every backend), the round after its status does the rest.
    if (this.backsCalledService(pod)) await this.reconcileNow();
    const now = new Date().toISOString();
    const completes = (pod.metadata.ownerReferences ?? []).some((r: Json) => r.kind === 'Job');
    const terminated = { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } };
    const condition = (type: string, status = 'True') => ({ type, status, lastProbeTime: null, lastTransitionTime: now });
    await this.client.writeStatus({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace },
      status: {
        phase: completes ? 'Succeeded' : 'Running',
        hostIP: hostIp,
        hostIPs: [{ ip: hostIp }],
        podIP: ip,
        podIPs: [{ ip }],
        startTime: now,
        conditions: [condition('Initialized'), condition('Ready', completes ? 'False' : 'True'), condition('ContainersReady', completes ? 'False' : 'True'), condition('PodScheduled')],
        initContainerStatuses: (pod.spec.initContainers ?? []).map((c: Json) => ({ name: c.name, image: c.image, imageID: '', ready: true, restartCount: 0, state: terminated })),
        containerStatuses: (pod.spec.containers ?? []).map((c: Json) => ({
          name: c.name,
          image: c.image,
          imageID: '',
          ready: !completes,
          started: !completes,
          restartCount: 0,
          state: completes ? terminated : { running: { startedAt: now } },
        })),
      },
    }, KUBELET_MANAGER);
    this.started.push(key);
    this.reconcileSoon();
  }

  /** Whether a Service the API server calls (webhook, conversion, APIService) selects the pod. */
  private backsCalledService(pod: Json): boolean {
    return this.calledServices().some((t) => t.namespace === pod.metadata.namespace
      && selects(this.services.items.get(`${t.namespace}/${t.name}`)?.spec?.selector, pod.metadata.labels));
  }

  /**
   * The Secrets and ConfigMaps a pod mounts or reads into its environment (env valueFrom, with
   * the key; envFrom) that do not exist, unless marked optional: a kubelet does not mount the
   * volumes without them, and reports CreateContainerConfigError for the environment.
   */
  private async missingVolumes(pod: Json): Promise<string[]> {
    const wanted: Array<['Secret' | 'ConfigMap', string, string?]> = [];
    for (const v of pod.spec.volumes ?? []) {
      if (v.secret && !v.secret.optional) wanted.push(['Secret', v.secret.secretName]);
      if (v.configMap && !v.configMap.optional) wanted.push(['ConfigMap', v.configMap.name]);
      for (const s of v.projected?.sources ?? []) {
        if (s.secret && !s.secret.optional) wanted.push(['Secret', s.secret.name]);
        if (s.configMap && !s.configMap.optional) wanted.push(['ConfigMap', s.configMap.name]);
      }
    }
    for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
      for (const e of c.env ?? []) {
        const sk = e.valueFrom?.secretKeyRef;
        const ck = e.valueFrom?.configMapKeyRef;
        if (sk && !sk.optional) wanted.push(['Secret', sk.name, sk.key]);
        if (ck && !ck.optional) wanted.push(['ConfigMap', ck.name, ck.key]);
      }
      for (const e of c.envFrom ?? []) {
        if (e.secretRef && !e.secretRef.optional) wanted.push(['Secret', e.secretRef.name]);
        if (e.configMapRef && !e.configMapRef.optional) wanted.push(['ConfigMap', e.configMapRef.name]);
      }
    }
    const missing: string[] = [];
    const objects = new Map<string, Json | undefined>();
    for (const [kind, name, key] of wanted) {
      const k = `${kind}/${name}`;
      if (!objects.has(k)) objects.set(k, kind === 'Secret' ? await this.secret(pod.metadata.namespace, name) : await this.client.get('v1', kind, pod.metadata.namespace, name));
      const o = objects.get(k);
      if (!o) missing.push(`${kind} ${name}`);
      else if (key !== undefined && o.data?.[key] === undefined && o.binaryData?.[key] === undefined) missing.push(`${kind} ${name} key ${key}`);
    }
    return missing;
  }

  private reconcileSoon(delayMs = 100): void {
    if (this.stopped || this.reconcileTimer) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = undefined;
      if (this.reconciling) { this.reconcileAgain = true; return; }
      void this.reconcileNow();
    }, delayMs);
  }

  /** Reconciles the stand-ins now (after the round under way, if any). */
  private async reconcileNow(): Promise<void> {
    while (this.reconciling) await this.reconciling;
    if (this.stopped) return;
    this.reconciling = this.reconcileStandIns()
      .catch((e) => {
        if (this.stopped) return;
        if (transient(e)) this.reconcileAgain = true;
        else this.errors.push(`stand-ins: ${(e as Error).message}`);
      })
      .finally(() => {
        this.reconciling = undefined;
        if (this.reconcileAgain) { this.reconcileAgain = false; this.reconcileSoon(); }
      });
    await this.reconciling;
  }

  /** The webhook configurations and conversion CRDs, as watched. */
  private webhookOwners(): Json[] {
    return [...this.webhookConfigs.flatMap((w) => [...w.items.values()]), ...[...this.crds.items.values()].filter((c) => c.spec?.conversion?.strategy === 'Webhook')];
  }

  /** The Services (namespace, name, port) the API server calls: webhooks, conversion webhooks, APIServices. */
  private calledServices(): Array<{ namespace: string; name: string; port: number }> {
    const out = this.webhookOwners().flatMap(webhookTargets);
    for (const a of this.apiServices.items.values()) if (a.spec?.service) out.push({ namespace: a.spec.service.namespace, name: a.spec.service.name, port: a.spec.service.port ?? 443 });
    const seen = new Set<string>();
    return out.filter((t) => !seen.has(`${t.namespace}/${t.name}:${t.port}`) && seen.add(`${t.namespace}/${t.name}:${t.port}`));
  }

  /**
   * Starts a stand-in for each pod port a called Service targets, and a proxy listener on
   * each called Service's clusterIP:port; stops those no longer wanted.
   */
  private async reconcileStandIns(): Promise<void> {
    const called = this.calledServices();
    const wanted = new Map<string, { pod: Json; ip: string; port: number; container: Json; services: Set<string> }>();
    const listeners = new Map<string, { clusterIp: string; service: string; port: number }>();
    for (const target of called) {
      const svc = this.services.items.get(`${target.namespace}/${target.name}`);
      const sp = (svc?.spec?.ports ?? []).find((p: Json) => p.port === target.port);
      if (!svc || !sp) continue;
      const clusterIp = svc.spec.clusterIP;
      if (clusterIp && clusterIp !== 'None') listeners.set(`${clusterIp}:${sp.port}`, { clusterIp, service: `${target.namespace}/${target.name}`, port: sp.port });
      const targetPort = sp.targetPort ?? sp.port;
      for (const pod of this.pods.items.values()) {
        const ip = this.podIps.get(pod.metadata.uid);
        if (!ip || pod.metadata.deletionTimestamp || pod.metadata.namespace !== target.namespace || !selects(svc.spec.selector, pod.metadata.labels)) continue;
        for (const c of pod.spec.containers ?? []) {
          for (const cp of c.ports ?? []) {
            const hit = typeof targetPort === 'string' ? cp.name === targetPort : cp.containerPort === targetPort;
            if (!hit) continue;
            const key = `${ip}:${cp.containerPort}`;
            const entry = wanted.get(key) ?? { pod, ip, port: cp.containerPort, container: c, services: new Set<string>() };
            entry.services.add(`${target.namespace}/${target.name}`);
            wanted.set(key, entry);
          }
        }
      }
    }
    for (const [key, s] of this.standIns) {
      if (!wanted.has(key)) { this.standIns.delete(key); await close(s.server); }
    }
    // A backend that makes its own certificate makes one for all the Services that reach it.
    const servicesOfPod = new Map<string, Set<string>>();
    for (const w of wanted.values()) {
      const all = servicesOfPod.get(w.pod.metadata.uid) ?? new Set<string>();
      for (const svc of w.services) all.add(svc);
      servicesOfPod.set(w.pod.metadata.uid, all);
    }
    for (const [key, w] of wanted) {
      let cert: { key: string; cert: string; source: string };
      try {
        cert = await this.certificateFor(w.pod, w.container, [...servicesOfPod.get(w.pod.metadata.uid)!]);
      } catch (e) {
        if (this.stopped) return;
        this.errors.push(`certificate for ${keyOf(w.pod)}:${w.port}: ${(e as Error).message}`);
        continue;
      }
      const existing = this.standIns.get(key);
      if (existing && existing.source === cert.source && existing.podUid === w.pod.metadata.uid) continue;
      if (existing) { this.standIns.delete(key); await close(existing.server); }
      const podKey = keyOf(w.pod);
      const server = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => this.answer(podKey, w.port, req, res));
      this.standIns.set(key, { key, pod: podKey, podUid: w.pod.metadata.uid, ip: w.ip, port: w.port, source: cert.source, server });
    }
    for (const [key, p] of this.proxies) {
      if (!listeners.has(key)) { this.proxies.delete(key); await close(p.server); }
    }
    for (const [key, l] of listeners) {
      if (this.proxies.has(key)) continue;
      const server = trackConnections(createServer((socket) => this.route(l.service, l.port, socket)));
      try {
        await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(l.port, l.clusterIp, () => resolve()); });
      } catch (e) {
        this.errors.push(`kube-proxy for ${l.service} on ${key}: ${(e as Error).message}`);
        continue;
      }
      this.proxies.set(key, { server, service: l.service, port: l.port });
    }
  }

  /**
   * kube-proxy: a connection to a Service's clusterIP:port goes to one ready endpoint of its
   * EndpointSlices, at the slice's port of the same name; with none, it is refused (reset).
   */
  private route(service: string, port: number, socket: Socket): void {
    const [namespace, name] = service.split('/');
    const svc = this.services.items.get(service);
    const portName = (svc?.spec?.ports ?? []).find((p: Json) => p.port === port)?.name ?? '';
    const candidates: string[] = [];
    for (const slice of this.slices.items.values()) {
      if (slice.metadata.namespace !== namespace || slice.metadata.labels?.['kubernetes.io/service-name'] !== name) continue;
      const sp = (slice.ports ?? []).find((p: Json) => (p.name ?? '') === portName);
      if (!sp?.port) continue;
      for (const e of slice.endpoints ?? []) if (e.conditions?.ready !== false) for (const a of e.addresses ?? []) candidates.push(`${a}:${sp.port}`);
    }
    const target = candidates.map((c) => this.standIns.get(c)).find((s) => s);
    this.routed.push({ service, port, endpoints: candidates.length, to: target?.pod, ...(target ? {} : { candidates, standIns: [...this.standIns.keys()] }) });
    if (!target) { socket.destroy(); return; }
    target.server.emit('connection', socket);
  }

  /**
   * The serving certificate of a backend: from a Secret its container mounts (the first with
   * tls.crt and tls.key), else one it makes itself (see the file's comment).
   */
  private async certificateFor(pod: Json, container: Json, services: string[]): Promise<{ key: string; cert: string; source: string }> {
    const mounted = new Set((container.volumeMounts ?? []).map((m: Json) => m.name));
    // The volume the webhook server reads its certificate from, as the binary would find it.
    const certVolume = webhookCertVolume(container);
    const volumes = (pod.spec.volumes ?? []).filter((v: Json) => mounted.has(v.name)).sort((a: Json, b: Json) => Number(b.name === certVolume) - Number(a.name === certVolume));
    const secretNames = volumes.flatMap((v: Json) => [
      ...(v.secret ? [v.secret.secretName] : []),
      ...(v.projected?.sources ?? []).filter((s: Json) => s.secret).map((s: Json) => s.secret.name),
    ]) as string[];
    const secrets: Json[] = [];
    for (const n of secretNames) {
      const s = await this.secret(pod.metadata.namespace, n);
      if (s) secrets.push(s);
    }
    const withCert = secrets.find((s) => s.data?.['tls.crt'] && s.data?.['tls.key'] && !s.metadata?.annotations?.[SELF_ISSUED]);
    if (withCert) {
      const b = (k: string) => Buffer.from(withCert.data[k], 'base64').toString('utf8');
      return { key: b('tls.key'), cert: b('tls.crt'), source: `secret ${withCert.metadata.name}@${withCert.metadata.resourceVersion}` };
    }
    // Self-managed: one certificate per backend (its Services' names), kept while it runs.
    const id = `${pod.metadata.namespace}/${[...services].sort().join(',')}`;
    let issued = this.selfIssued.get(id);
    if (!issued) {
      const names = services.flatMap((s) => { const [ns, n] = s.split('/'); return [`${n}.${ns}.svc`, `${n}.${ns}.svc.cluster.local`]; });
      issued = this.ca.issue(names);
      this.selfIssued.set(id, issued);
    }
    const target = secrets[0];
    const written = target?.metadata?.annotations?.[SELF_ISSUED] === id && target.data?.['tls.crt'] === Buffer.from(issued.cert).toString('base64');
    if (target && !written) {
      const data = { 'tls.crt': issued.cert, 'tls.key': issued.key, 'ca.crt': issued.ca };
      this.secrets.remember(await this.client.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: target.metadata.name, namespace: target.metadata.namespace, annotations: { [SELF_ISSUED]: id } }, stringData: data } as unknown as { apiVersion: string; kind: string; metadata: { name: string; namespace: string } }, { fieldManager: CERT_ROTATOR_MANAGER }));
    }
    await this.writeCaSecrets(services, issued);
    await this.injectSelf(services, issued.ca);
    return { key: issued.key, cert: issued.cert, source: `self ${id}` };
  }

  /**
   * A backend that bootstraps its own CA into a Secret (cert-manager's webhook:
   * --dynamic-serving-ca-secret-name) for the injector to read: the Secrets of its namespace
   * that the webhook configurations and CRDs calling its Services name in
   * `cert-manager.io/inject-ca-from-secret` get its CA (ca.crt, with the serving pair).
   */
  private async writeCaSecrets(services: string[], issued: IssuedCertificate): Promise<void> {
    const namespaces = new Set(services.map((s) => s.split('/')[0]));
    const wanted = new Set<string>();
    for (const o of this.webhookOwners()) {
      const from = o.metadata?.annotations?.[INJECT_FROM_SECRET];
      if (!from || !namespaces.has(String(from).split('/')[0])) continue;
      if (webhookTargets(o).some((t) => services.includes(`${t.namespace}/${t.name}`))) wanted.add(from);
    }
    const ca = Buffer.from(issued.ca).toString('base64');
    for (const ref of wanted) {
      const [namespace, name] = ref.split('/');
      const live = await this.secret(namespace, name);
      if (live?.data?.['ca.crt'] === ca) continue;
      const data = { 'ca.crt': issued.ca, 'tls.crt': issued.cert, 'tls.key': issued.key };
      this.secrets.remember(await this.client.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace, annotations: { [SELF_ISSUED]: ref } }, stringData: data } as unknown as { apiVersion: string; kind: string; metadata: { name: string; namespace: string } }, { fieldManager: CERT_ROTATOR_MANAGER }));
    }
  }

  /** Injects the CA into the webhook configurations and CRDs that call these Services and ask no one else to. */
  private async injectSelf(services: string[], caPem: string): Promise<void> {
    const bundle = Buffer.from(caPem).toString('base64');
    for (const o of this.webhookOwners()) {
      if (INJECT_ANNOTATIONS.some((a) => o.metadata?.annotations?.[a])) continue;
      const ops = caBundleOps(o, (svc) => services.includes(`${svc.namespace}/${svc.name}`), bundle);
      if (!ops.length) continue;
      const path = await this.client.pathOf(o.apiVersion ?? (o.kind === 'CustomResourceDefinition' ? 'apiextensions.k8s.io/v1' : 'admissionregistration.k8s.io/v1'), o.kind, undefined, o.metadata.name);
      await this.client.request('PATCH', path, ops, 'application/json-patch+json');
    }
  }

  private answer(pod: string, port: number, req: import('http').IncomingMessage, res: import('http').ServerResponse): void {
    // An aggregated API's backend (APIService): discovery of its group version, with no resources.
    const discovery = /^\/apis\/([^/]+)\/([^/?]+)\/?(\?.*)?$/.exec(req.url ?? '');
    if (req.method === 'GET' && discovery) {
      const body = JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${discovery[1]}/${discovery[2]}`, resources: [] });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let review: Json;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end('not JSON');
        return;
      }
      let out: Json;
      if (review.kind === 'AdmissionReview') {
        const r = review.request ?? {};
        this.calls.push({ pod, port, path: req.url ?? '', kind: 'AdmissionReview', detail: `${r.operation} ${r.resource?.group ?? ''}/${r.resource?.version}/${r.resource?.resource}` });
        out = { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: r.uid, allowed: true } };
      } else if (review.kind === 'ConversionReview') {
        const r = review.request ?? {};
        this.calls.push({ pod, port, path: req.url ?? '', kind: 'ConversionReview', detail: r.desiredAPIVersion });
        out = {
          apiVersion: review.apiVersion,
          kind: 'ConversionReview',
          response: { uid: r.uid, result: { status: 'Success' }, convertedObjects: (r.objects ?? []).map((o: Json) => ({ ...o, apiVersion: r.desiredAPIVersion })) },
        };
      } else {
        res.writeHead(400).end(`not an AdmissionReview or ConversionReview: ${review.kind}`);
        return;
      }
      const body = JSON.stringify(out);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    });
  }

  private async stopStandIns(podUid: string): Promise<void> {
    for (const [key, s] of this.standIns) {
      if (s.podUid === podUid) { this.standIns.delete(key); await close(s.server); }
    }
  }

  /** Where each running stand-in's certificate came from (`secret NAME@resourceVersion` or `self ...`), by namespace/pod podIP:port. */
  public get certificateSources(): Record<string, string> {
    return Object.fromEntries([...this.standIns.values()].map((s) => [`${s.pod} ${s.ip}:${s.port}`, s.source]));
  }

  /** The stand-ins running now: namespace/pod podIP:port. */
  public get running(): string[] {
    return [...this.standIns.values()].map((s) => `${s.pod} ${s.ip}:${s.port}`).sort();
  }

  /** Waits until no pod bound to these nodes is waiting for the agent. */
  public async idle(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queue.size || this.working || this.reconciling) && Date.now() < deadline) await sleep(50);
  }

  public async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    for (const w of this.watches) w.stop();
    await this.reconciling;
    for (const s of this.standIns.values()) await close(s.server);
    this.standIns.clear();
    for (const p of this.proxies.values()) await close(p.server);
    this.proxies.clear();
  }
}

/** An answer a loaded API server gives now and not later (a request timeout, 429): the work is tried again, not reported. */
export function transient(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 504 || e.status === 429 || (e.status === 500 && /Timeout|context deadline exceeded/.test(e.message)));
}

/** controller-runtime's default directory of a webhook server's certificate. */
const CONTROLLER_RUNTIME_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

/**
 * The name of the volume a container's webhook server reads its certificate from: the mount
 * holding the path a webhook or TLS certificate flag names (--webhook-cert-dir, --cert-dir,
 * --tls-cert-file...; not a metrics flag), else the one at controller-runtime's default
 * directory; undefined when neither says (then the first mounted certificate is used).
 */
export function webhookCertVolume(container: Json): string | undefined {
  const mounts: Json[] = container.volumeMounts ?? [];
  const under = (path: string) => mounts.filter((m) => path === m.mountPath || path.startsWith(`${String(m.mountPath).replace(/\/$/, '')}/`))
    .sort((a, b) => String(b.mountPath).length - String(a.mountPath).length)[0]?.name as string | undefined;
  for (const arg of [...(container.command ?? []), ...(container.args ?? [])].map(String)) {
    const m = /^--?([a-z-]*(?:cert|tls)[a-z-]*)=(\/.+)$/.exec(arg);
    if (!m || /metrics/.test(m[1])) continue;
    const hit = under(m[2]);
    if (hit) return hit;
  }
  return mounts.find((m) => String(m.mountPath).replace(/\/$/, '') === CONTROLLER_RUNTIME_CERT_DIR)?.name;
}

/** Marks a Secret a stand-in filled with its own certificate (the backend manages it). */
export const SELF_ISSUED = 'test.mlplatform.io/self-issued';

/** JSON-patch operations setting caBundle on every webhook (or the conversion) of `o` whose Service matches. */
export function caBundleOps(o: Json, matches: (svc: { namespace: string; name: string }) => boolean, bundle: string): Json[] {
  const ops: Json[] = [];
  if (o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'MutatingWebhookConfiguration') {
    (o.webhooks ?? []).forEach((w: Json, i: number) => {
      if (w.clientConfig?.service && matches(w.clientConfig.service) && w.clientConfig.caBundle !== bundle) ops.push({ op: 'add', path: `/webhooks/${i}/clientConfig/caBundle`, value: bundle });
    });
  } else if (o.kind === 'CustomResourceDefinition') {
    const cc = o.spec?.conversion?.webhook?.clientConfig;
    if (cc?.service && matches(cc.service) && cc.caBundle !== bundle) ops.push({ op: 'add', path: '/spec/conversion/webhook/clientConfig/caBundle', value: bundle });
  } else if (o.kind === 'APIService') {
    if (o.spec?.service && matches(o.spec.service) && o.spec.caBundle !== bundle) ops.push({ op: 'add', path: '/spec/caBundle', value: bundle });
  }
  return ops;
}

interface Closable {
  closeAllConnections?: () => void;
  close(cb: () => void): unknown;
}

/** The open connections of each kube-proxy listener (a net.Server has no closeAllConnections). */
const connections = new WeakMap<Server, Set<Socket>>();
function trackConnections(server: Server): Server {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => { open.add(socket); socket.once('close', () => open.delete(socket)); });
  return server;
}

function close(server: Closable): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
    for (const socket of connections.get(server as Server) ?? []) socket.destroy();
  });
}
