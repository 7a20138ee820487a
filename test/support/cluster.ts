/**
 * A test cluster whose control plane is real: etcd and kube-apiserver (test/support/apiserver.ts,
 * here with the ServiceAccount admission plugin and webhook admission on), the
 * kube-controller-manager and kube-scheduler from the same KUBEBUILDER_ASSETS folder, and in
 * this process a node agent playing the kubelet of fake nodes (test/support/node-agent.ts)
 * and the certificate players (cert-manager, OpenShift's service CA: test/support/cert-players.ts).
 *
 The API server calls a webhook (or conversion webhook, or aggregated API) at its Service's
 * ClusterIP. The Service range here is a loopback block, 127.X.0.0/16, claimed by this
 * process (two test files at once get two blocks), so the node agent can play kube-proxy
 * there and hand each call to the stand-in of a ready endpoint. Why not
 * `--enable-aggregator-routing=true`, which makes v1.28 dial an endpoint address of the
 * Service (from its Endpoints) instead: endpoint addresses may not be loopback (the API
 * server's validation of Endpoints and EndpointSlices rejects 127.0.0.0/8), and any other
 * pod IP would be dialled for real. Tried on v1.28.7: with loopback pod IPs the
 * endpointslice controller could publish no endpoint at all.
 * Binding a Service's port (443) on loopback needs root, or
 * net.ipv4.ip_unprivileged_port_start=0; without it the cluster tests skip and say so.
 *
 * Every process is stopped by the PID started here.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import * as https from 'https';
import { createServer } from 'net';
import { join } from 'path';
import { ApiServer, ASSETS_ENV, envtestAssets, freePort, REQUIRE_ENV, skipReason, startApiServer, startProcess, stopProcess, tailOf } from './apiserver';
import { CertPlayers } from './cert-players';
import { TestCa } from './certs';
import { FakeNode, NodeAgent, SMALL_CLUSTER } from './node-agent';
import { KubeClient } from '../../lib/cluster/client';

export const CONTROL_PLANE_BINARIES = ['kube-controller-manager', 'kube-scheduler'] as const;

/** The API request rate the controller manager and scheduler allow themselves (client-side): unlimited in effect. */
const CLIENT_RATE = ['--kube-api-qps', '1000', '--kube-api-burst', '2000'];

/** Why cluster tests skip here, or undefined when they run. Throws when they must run (MLP_REQUIRE_APISERVER=1) and cannot. */
export function clusterSkipReason(): string | undefined {
  const base = skipReason();
  if (base) return base;
  const dir = envtestAssets()!;
  const portReason = privilegedPortReason();
  if (portReason) {
    const reason = `SKIPPED: ${portReason}`;
    if (process.env[REQUIRE_ENV] === '1') throw new Error(`${REQUIRE_ENV}=1 but the cluster tests cannot run: ${portReason}`);
    return reason;
  }
  const missing = CONTROL_PLANE_BINARIES.filter((b) => !existsSync(join(dir, b)));
  if (!missing.length) return undefined;
  const reason = `SKIPPED: ${ASSETS_ENV}=${dir} lacks ${missing.join(' and ')}`;
  if (process.env[REQUIRE_ENV] === '1') throw new Error(`${REQUIRE_ENV}=1 but the cluster tests cannot run (${reason.replace(/^SKIPPED: /, '')}): put kube-controller-manager and kube-scheduler beside kube-apiserver`);
  return reason;
}

/** Why this process cannot listen on a loopback port below 1024 (Services' 443), or undefined. */
function privilegedPortReason(): string | undefined {
  if (process.getuid?.() === 0) return undefined;
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8').trim());
    if (start <= 443) return undefined;
  } catch { /* not Linux */ }
  return 'the cluster tests play kube-proxy on loopback port 443: run them as root or set net.ipv4.ip_unprivileged_port_start=0';
}

/**
 * 127.X.0.0/16 for this process's Service range: X is claimed by listening on
 * 127.X.255.254:64999, so two test files running at once never bind the same ClusterIP.
 */
async function claimLoopbackBlock(): Promise<{ x: number; release(): Promise<void> }> {
  const first = process.pid % 240;
  for (let i = 0; i < 240; i++) {
    const x = 10 + ((first + i) % 240);
    const srv = createServer();
    const ok = await new Promise<boolean>((resolve) => {
      srv.once('error', () => resolve(false));
      srv.listen(64999, `127.${x}.255.254`, () => resolve(true));
    });
    if (ok) return { x, release: () => new Promise<void>((r) => srv.close(() => r())) };
  }
  throw new Error('no free 127.X.0.0/16 block for the Service range');
}

export interface ClusterOptions {
  readonly nodes?: readonly FakeNode[];
}

export interface TestCluster {
  readonly server: ApiServer;
  readonly client: KubeClient;
  readonly agent: NodeAgent;
  readonly certs: CertPlayers;
  readonly ca: TestCa;
  /** Errors of the players (not of the API server's answers), for tests to check there are none. */
  errors(): string[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function healthz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    // Self-signed serving certificate of the component: this is only a liveness probe on loopback.
    const req = https.get({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(res.statusCode === 200 && body.trim() === 'ok'));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Starts the control plane, registers the nodes and starts the players. */
export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const assets = envtestAssets();
  const reason = clusterSkipReason();
  if (!assets || reason) throw new Error(`${reason}: set ${ASSETS_ENV} to a folder with kube-apiserver, etcd, kube-controller-manager and kube-scheduler`);
  const block = await claimLoopbackBlock();
  let server: ApiServer;
  try {
    server = await startApiServer({ serviceAccountAdmission: true, serviceClusterIpRange: `127.${block.x}.0.0/16` });
  } catch (e) {
    await block.release();
    throw e;
  }
  const kubeconfig = server.kubeconfigPath;
  const [kcmPort, schedPort] = [await freePort(), await freePort()];
  const flexDir = join(server.dir, 'flexvolume');
  mkdirSync(flexDir, { recursive: true });
  const kcm = startProcess(join(assets, 'kube-controller-manager'), [
    '--kubeconfig', kubeconfig,
    '--bind-address', '127.0.0.1',
    '--secure-port', String(kcmPort),
    '--leader-elect=false',
    '--controllers=*,-nodeipam,-nodelifecycle,-cloud-node-lifecycle,-service,-route',
    '--service-account-private-key-file', join(server.dir, 'sa.key'),
    '--root-ca-file', join(server.dir, 'certs', 'apiserver.crt'),
    '--use-service-account-credentials=false',
    '--flex-volume-plugin-dir', flexDir,
    // client-go's default rate limit (20 requests/s, bursts of 30) is a real controller
    // manager's share of a large cluster's API server; here it has the server to itself, and
    // a platform's bring-up (dozens of Deployments at once: ReplicaSets, pods, statuses,
    // EndpointSlices) queued behind the limiter for seconds at a time.
    ...CLIENT_RATE,
  ], join(server.dir, 'kube-controller-manager.log'));
  const scheduler = startProcess(join(assets, 'kube-scheduler'), [
    '--kubeconfig', kubeconfig,
    '--bind-address', '127.0.0.1',
    '--secure-port', String(schedPort),
    '--leader-elect=false',
    ...CLIENT_RATE,
  ], join(server.dir, 'kube-scheduler.log'));
  const ca = new TestCa();
  const agent = new NodeAgent(server.kubeConfig, ca, options.nodes ?? SMALL_CLUSTER);
  const certs = new CertPlayers(server.kubeConfig, ca);
  const stop = async () => {
    // The players first (no new work), but not waiting on them for long: a request they await
    // fails at once when the server below is gone, and a listener whose connections the server
    // keeps open would otherwise hold the stop past its hook's timeout.
    await within(Promise.all([agent.stop(), certs.stop()]), 10_000);
    await stopProcess(scheduler);
    await stopProcess(kcm);
    await server.stop();
    await block.release();
  };
  try {
    const deadline = Date.now() + 60_000;
    for (const [name, p, port] of [['kube-controller-manager', kcm, kcmPort], ['kube-scheduler', scheduler, schedPort]] as const) {
      while (!(await healthz(port))) {
        if (p.exitCode !== null) throw new Error(`${name} exited with ${p.exitCode} at start:\n${tailOf(p)}`);
        if (Date.now() > deadline) throw new Error(`${name} was not healthy after 60 s:\n${tailOf(p)}`);
        await sleep(200);
      }
    }
    const client = new KubeClient(server.kubeConfig);
    // Pods need their namespace's default ServiceAccount (the ServiceAccount admission plugin).
    while (!(await client.get('v1', 'ServiceAccount', 'default', 'default'))) {
      if (Date.now() > deadline) throw new Error(`the serviceaccount controller made no default ServiceAccount in 60 s:\n${tailOf(kcm)}`);
      await sleep(200);
    }
    await agent.start();
    certs.start();
    writeFileSync(join(server.dir, 'ca.crt'), ca.certPem);
    return { server, client, agent, certs, ca, errors: () => [...agent.errors, ...certs.errors], stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * A describe block with one cluster for its tests (one per test file: it costs some 5 s of
 * start and two more processes). Without the binaries it is skipped with one line.
 */
export function describeWithCluster(name: string, body: (cluster: () => TestCluster) => void, options: ClusterOptions = {}): void {
  const reason = clusterSkipReason();
  if (reason) {
    describe(name, () => {
      test.skip(`${reason} (set ${ASSETS_ENV} to setup-envtest's folder, with kube-controller-manager and kube-scheduler beside kube-apiserver)`, () => undefined);
    });
    process.stdout.write(`${reason}: tests that need a cluster (controller manager, scheduler) are skipped\n`);
    return;
  }
  describe(name, () => {
    let cluster: TestCluster | undefined;
    beforeAll(async () => { cluster = await startCluster(options); }, 120_000);
    afterAll(async () => { await cluster?.stop(); }, 60_000);
    body(() => {
      if (!cluster) throw new Error('the cluster did not start (see beforeAll)');
      return cluster;
    });
  });
}

/** Waits for `p`, or `ms` at most (what it still does then goes on without us). */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise<void>((r) => { timer = setTimeout(r, ms); timer.unref(); })]);
  if (timer) clearTimeout(timer);
}
