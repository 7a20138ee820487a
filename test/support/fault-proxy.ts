/**
 * A TLS proxy on 127.0.0.1 in front of a test API server that injects faults: an answer 504
 * ("context deadline exceeded", as an API server says when etcd is slow) or a connection
 * reset instead of forwarding, on the requests `fault` picks. It serves the API server's own
 * certificate (valid for 127.0.0.1), so a client that trusts the server trusts the proxy.
 */
import { readFileSync } from 'fs';
import * as https from 'https';
import type { AddressInfo } from 'net';
import type { ApiServer } from './apiserver';

export type Fault = 'forward' | '504' | 'reset';

export interface FaultProxy {
  /** https://127.0.0.1:PORT */
  readonly url: string;
  /** Requests seen, and the fault each got. */
  readonly log: Array<{ method: string; path: string; fault: Fault }>;
  close(): Promise<void>;
}

/** Starts the proxy; `fault(n, method, path)` decides for the n-th request (from 1). */
export async function startFaultProxy(server: ApiServer, fault: (n: number, method: string, path: string) => Fault): Promise<FaultProxy> {
  const ca = readFileSync(server.serving.certFile);
  const upstream = new URL(server.url);
  const agent = new https.Agent({ ca, keepAlive: true });
  const log: FaultProxy['log'] = [];
  const proxy = https.createServer({ cert: ca, key: readFileSync(server.serving.keyFile) }, (req, res) => {
    const f = fault(log.length + 1, req.method ?? 'GET', req.url ?? '/');
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/', fault: f });
    if (f === 'reset') {
      // The connection closed under the request: the client reads ECONNRESET ("socket hang up").
      req.socket.destroy();
      return;
    }
    if (f === '504') {
      req.resume();
      res.writeHead(504, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'context deadline exceeded', reason: 'Timeout', code: 504 }));
      return;
    }
    const out = https.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((resolve) => {
      agent.destroy();
      proxy.closeAllConnections();
      proxy.close(() => resolve());
    }),
  };
}
