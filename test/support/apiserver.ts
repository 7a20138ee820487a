/**
 * A real Kubernetes API server for tests, following controller-runtime envtest's convention:
 * KUBEBUILDER_ASSETS names a folder holding `kube-apiserver` and `etcd`. Each server runs on
 * loopback with free ports, a data folder of its own and credentials generated at start
 * (nothing secret is committed), and is stopped by the PIDs started here.
 *
 * There is no controller-manager, scheduler or kubelet: objects are validated, admitted,
 * defaulted and stored, and nothing runs. Tests that need a Deployment Available or an
 * endpoint behind a Service write that status themselves.
 */
import { ChildProcess, spawn } from 'child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import * as k8s from '@kubernetes/client-node';

export const ASSETS_ENV = 'KUBEBUILDER_ASSETS';

/** The KUBEBUILDER_ASSETS folder when it holds both binaries, else undefined. */
export function envtestAssets(): string | undefined {
  const dir = process.env[ASSETS_ENV];
  if (!dir) return undefined;
  return existsSync(join(dir, 'kube-apiserver')) && existsSync(join(dir, 'etcd')) ? dir : undefined;
}

/** Set (to 1) where the API-server tests must run (CI): a missing server is then an error, not a skip. */
export const REQUIRE_ENV = 'MLP_REQUIRE_APISERVER';

/** Why API-server tests skip here, or undefined when they run. Throws when they must run and cannot. */
export function skipReason(): string | undefined {
  if (envtestAssets()) return undefined;
  const dir = process.env[ASSETS_ENV];
  const reason = dir ? `SKIPPED: ${ASSETS_ENV}=${dir} lacks kube-apiserver or etcd` : `SKIPPED: no ${ASSETS_ENV}`;
  if (process.env[REQUIRE_ENV] === '1') throw new Error(`${REQUIRE_ENV}=1 but the API-server tests cannot run (${reason.replace(/^SKIPPED: /, '')}): point ${ASSETS_ENV} at a folder with kube-apiserver and etcd`);
  return reason;
}

export interface ApiServerOptions {
  /**
   * Call admission webhooks. Off for tests of apply order rather than admission: webhook
   * configurations are then stored but never called (their backends do not run here).
   * @default true
   */
  readonly webhookAdmission?: boolean;
  /**
   * Run the ServiceAccount admission plugin (each Pod gets its namespace's `default`
   * ServiceAccount and a token volume; a Pod naming a missing ServiceAccount is rejected).
   * Only with a controller manager, whose serviceaccount controller creates `default`.
   * @default false
   */
  readonly serviceAccountAdmission?: boolean;
  /** Where Services' ClusterIPs come from. @default 10.0.0.0/24 */
  readonly serviceClusterIpRange?: string;
  /** More kube-apiserver flags. */
  readonly extraArgs?: string[];
  /** How long to wait for /readyz. @default 90 s */
  readonly startTimeoutMs?: number;
}

export interface ApiServer {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** A client configuration for a user in system:masters. */
  readonly kubeConfig: k8s.KubeConfig;
  /** The same as a kubeconfig file, for the CLI and kubectl. */
  readonly kubeconfigPath: string;
  /** The Kubernetes version the server reports, e.g. "1.28". */
  readonly version: string;
  /** The run's folder: `sa.key` (the service-account signing key), `certs/apiserver.crt` (the serving CA). */
  readonly dir: string;
  /** The server's self-signed serving certificate and key (PEM files; the kubeconfig trusts the certificate), for a test proxy that stands in front of it. */
  readonly serving: { readonly certFile: string; readonly keyFile: string };
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A crashed test run must not leave servers behind: kill what we started, by PID.
  process.on('exit', () => {
    for (const p of running) if (p.pid && p.exitCode === null) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  });
}

/** A free TCP port on 127.0.0.1 (the kernel picks it; closed before use). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Runs a program under a small shell watchdog that ends it when this process is gone: jest
 * gives test files a copy of `process`, so an exit hook never fires there, and a worker
 * that is killed would otherwise leave etcd and kube-apiserver running. The watchdog is the
 * PID we hold; stopping it (SIGTERM) stops the program, and it exits with the program's code.
 * A program that has not ended 3 s after its SIGTERM gets SIGKILL from the watchdog itself,
 * which then reaps it: kube-apiserver's graceful stop can take longer than stopProcess waits,
 * and a watchdog killed first would leave the server running on, reparented to PID 1, its
 * CPU time counted by no one (`/usr/bin/time` of a test run missed tens of seconds of it).
 */
const WATCHDOG = [
  'parent=$1; shift',
  '"$@" & child=$!',
  'killer=',
  'stop() { kill -TERM $child 2>/dev/null; [ -n "$killer" ] || { (sleep 3; kill -KILL $child 2>/dev/null) >/dev/null 2>&1 & killer=$!; }; }',
  'trap stop TERM INT',
  'while kill -0 "$parent" 2>/dev/null && kill -0 $child 2>/dev/null; do sleep 0.5; done',
  'kill -0 $child 2>/dev/null && stop',
  'wait $child; code=$?',
  // A signal ends `wait` early: wait again until the program is gone.
  'while kill -0 $child 2>/dev/null; do wait $child; code=$?; done',
  '[ -n "$killer" ] && kill $killer 2>/dev/null',
  'exit $code',
].join('\n');

export function startProcess(file: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'watchdog', String(process.pid), file, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const chunks: Buffer[] = [];
  const keep = (b: Buffer) => { chunks.push(b); if (chunks.length > 400) chunks.shift(); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', () => { try { writeFileSync(logFile, Buffer.concat(chunks)); } catch { /* dir removed */ } });
  (child as ChildProcess & { logTail?: () => string }).logTail = () => Buffer.concat(chunks).toString('utf8').split('\n').slice(-30).join('\n');
  running.add(child);
  installExitHook();
  return child;
}

export function tailOf(child: ChildProcess): string {
  return (child as ChildProcess & { logTail?: () => string }).logTail?.() ?? '';
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  // The watchdog kills its program 3 s after the SIGTERM and then exits; killing the watchdog
  // is the last resort (it would orphan the program).
  const timer = setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, 10_000);
  await exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Go garbage-collector settings for kube-apiserver. Most of its CPU in these tests goes to
 * the large CRDs (KServe's are 600-800 KB of JSON each): every write of one is decoded,
 * copied, merged and encoded again, and the server keeps some 500 MB live while a big
 * platform is applied, so with Go's default (GOGC=100) about 40% of its CPU was garbage
 * collection (pprof: scanobject, gcAssist). Collecting when the heap has grown by 400%
 * rather than 100% cut its CPU for applying opendatahub from 23-24 s to 17-19 s (a
 * loaded 2-core machine, runs alternated). Without a limit the peak RSS went from 1.5 GB
 * to 3.3-4.5 GB; GOMEMLIMIT makes Go collect more often as the heap nears 2 GiB, which
 * held the peak at 2.1-2.2 GB for about the same CPU. (GOGC=1000 with the same limit
 * measured the same; GOGC=off with an 800 MiB limit was worse than the default.)
 * In the bring-ups of motion-odh (a hundred CRDs created, deleted and created again) the heap
 * stays near that limit, and garbage collection was still a third of the server's CPU (pprof,
 * docs/test-speed.md); with a 3 GiB limit the server used 123 s of CPU there instead of 153
 * (peak RSS 3.1 GB instead of 2.1). A run holds one server per jest worker at most (one
 * worker per core), and only motion-odh's grows that large; the limit is a target for the
 * collector, not memory taken.
 */
const APISERVER_GC = { GOGC: '400', GOMEMLIMIT: '3GiB' };

/** Starts etcd and kube-apiserver from KUBEBUILDER_ASSETS; resolves when /readyz says ok. */
export async function startApiServer(options: ApiServerOptions = {}): Promise<ApiServer> {
  const assets = envtestAssets();
  if (!assets) throw new Error(`${skipReason()}: set ${ASSETS_ENV} to a folder with kube-apiserver and etcd`);
  const dir = mkdtempSync(join(tmpdir(), 'mlp-apiserver-'));
  const [etcdClient, etcdPeer, securePort] = [await freePort(), await freePort(), await freePort()];

  const etcd = startProcess(join(assets, 'etcd'), [
    '--data-dir', join(dir, 'etcd'),
    '--listen-client-urls', `http://127.0.0.1:${etcdClient}`,
    '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
    '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`,
    '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster', `default=http://127.0.0.1:${etcdPeer}`,
    '--unsafe-no-fsync',
  ], join(dir, 'etcd.log'));

  // Service-account signing keys and a static admin token, made now. ECDSA P-256 (ES256, which
  // kube-apiserver supports as RS256): each ServiceAccount token the controller manager asks for
  // (every pod's projected token, each controller's own) is signed, and every request made with
  // one verified, by the server; an RSA-2048 signature costs several times more CPU.
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},envtest-admin,${randomUUID()},"system:masters"\n`);

  const disabled = [...(options.serviceAccountAdmission ? [] : ['ServiceAccount']), ...(options.webhookAdmission === false ? ['MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] : [])];
  const apiserver = startProcess(join(assets, 'kube-apiserver'), [
    '--etcd-servers', `http://127.0.0.1:${etcdClient}`,
    '--bind-address', '127.0.0.1',
    '--secure-port', String(securePort),
    '--cert-dir', join(dir, 'certs'),
    '--service-cluster-ip-range', options.serviceClusterIpRange ?? '10.0.0.0/24',
    '--service-account-issuer', 'https://kubernetes.default.svc.cluster.local',
    '--service-account-key-file', join(dir, 'sa.pub'),
    '--service-account-signing-key-file', join(dir, 'sa.key'),
    '--token-auth-file', join(dir, 'tokens.csv'),
    '--authorization-mode', 'RBAC',
    ...(disabled.length ? ['--disable-admission-plugins', disabled.join(',')] : []),
    '--endpoint-reconciler-type', 'none',
    '--allow-privileged=true',
    ...(options.extraArgs ?? []),
  ], join(dir, 'kube-apiserver.log'), APISERVER_GC);

  const url = `https://127.0.0.1:${securePort}`;
  const stop = async () => {
    await stopProcess(apiserver);
    await stopProcess(etcd);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + (options.startTimeoutMs ?? 90_000);
    const certFile = join(dir, 'certs', 'apiserver.crt');
    let ready = false;
    while (!ready) {
      for (const p of [etcd, apiserver]) {
        if (p.exitCode !== null) throw new Error(`${p === etcd ? 'etcd' : 'kube-apiserver'} exited with ${p.exitCode} at start:\n${tailOf(p)}`);
      }
      if (Date.now() > deadline) throw new Error(`kube-apiserver was not ready after ${options.startTimeoutMs ?? 90_000} ms:\n${tailOf(apiserver)}`);
      if (existsSync(certFile)) {
        try {
          const res = await fetchText(`${url}/readyz`, token, readFileSync(certFile));
          ready = res.status === 200 && res.body.trim() === 'ok';
        } catch { /* not listening yet */ }
      }
      if (!ready) await sleep(250);
    }
    const ca = readFileSync(certFile);
    const kubeConfig = new k8s.KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'envtest', server: url, caData: ca.toString('base64'), skipTLSVerify: false }],
      users: [{ name: 'envtest-admin', token }],
      contexts: [{ name: 'envtest', cluster: 'envtest', user: 'envtest-admin' }],
      currentContext: 'envtest',
    });
    const kubeconfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeconfigPath, kubeConfig.exportConfig(), { mode: 0o600 });
    const v = JSON.parse((await fetchText(`${url}/version`, token, ca)).body) as { major: string; minor: string };
    const serving = { certFile, keyFile: join(dir, 'certs', 'apiserver.key') };
    return { url, kubeConfig, kubeconfigPath, version: `${v.major}.${v.minor.replace(/\D.*$/, '')}`, dir, serving, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** GET with a bearer token, trusting one CA (node's https: no client library needed to wait for readiness). */
function fetchText(url: string, token: string, ca: Buffer): Promise<{ status: number; body: string }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const https = require('https') as typeof import('https');
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/**
 * A describe block with one API server for its tests: started before them, stopped after.
 * Without KUBEBUILDER_ASSETS the block is skipped and says so in one line.
 */
export function describeWithApiServer(name: string, body: (server: () => ApiServer) => void, options: ApiServerOptions = {}): void {
  const reason = skipReason();
  if (reason) {
    describe(name, () => {
      // One clear line, not a failure: a fresh clone without assets still passes.
      test.skip(`${reason} (set ${ASSETS_ENV} to a folder with kube-apiserver and etcd, e.g. from setup-envtest)`, () => undefined);
    });
    if (!announced) { announced = true; process.stdout.write(`${reason}: tests that need a real API server are skipped\n`); }
    return;
  }
  describe(name, () => {
    let server: ApiServer | undefined;
    beforeAll(async () => { server = await startApiServer(options); }, 120_000);
    afterAll(async () => { await server?.stop(); }, 30_000);
    body(() => {
      if (!server) throw new Error('the API server did not start (see beforeAll)');
      return server;
    });
  });
}
let announced = false;
