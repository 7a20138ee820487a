/**
 * A small Kubernetes client for whole manifests: server-side apply, get, list, delete and
 * status writes of any kind, with the objects sent exactly as written.
 *
 * @kubernetes/client-node gives the connection (kubeconfig, contexts, TLS, tokens and exec
 * credentials). Its generic KubernetesObjectApi is not used to send objects: it serializes
 * known kinds through its typed models, which silently drops every field its model lacks
 * (the Kubernetes version it was generated from, or a typo), so the server would never see,
 * validate or store it. Here the JSON goes to the server as it is.
 */
import * as https from 'https';
import type { KubeConfig } from '@kubernetes/client-node';

/** The fields every manifest has. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

/** What the server says about a resource type (from discovery). */
export interface ResourceInfo {
  /** e.g. deployments */
  readonly plural: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

/** An error answer of the API server. */
export class ApiError extends Error {
  constructor(
    /** HTTP status code. */
    public readonly status: number,
    /** The Status reason (NotFound, Invalid, Forbidden, Conflict...), when the server gave one. */
    public readonly reason: string | undefined,
    message: string,
    /** The Status object, when the server sent one. */
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApplyOptions {
  /** The field manager of server-side apply. */
  readonly fieldManager: string;
  /** Take over fields other managers own (kubectl apply --server-side --force-conflicts). @default true */
  readonly force?: boolean;
  /** Server-side dry run: validated, admitted and defaulted, not stored. @default false */
  readonly dryRun?: boolean;
  /**
   * Return only apiVersion, kind and metadata (the server answers with PartialObjectMetadata),
   * for callers that need no more: the answer for a large CRD is then a few kilobytes that the
   * server need not encode nor the client parse, not the whole object. @default false
   */
  readonly metadataOnly?: boolean;
}

type Json = Record<string, any>;

/**
 * The API server could not be reached (connection refused, reset, timed out) for as long as
 * the client retries: what was applied before stays, and a new run resumes.
 */
export class UnreachableError extends Error {
  constructor(public readonly server: string, public readonly lastError: string) {
    super(`cannot reach the API server at ${server} (${lastError})`);
    this.name = 'UnreachableError';
  }
}

/** The run was interrupted (SIGINT): no request was sent after it; the one in flight finished. */
export class InterruptedError extends Error {
  constructor() {
    super('interrupted');
    this.name = 'InterruptedError';
  }
}

/** How a client retries. */
export interface RetryOptions {
  /** Retries stop when the next would start after this long since the first try. @default 60 s */
  readonly withinMs?: number;
  /** The first backoff; doubled each time up to maxDelayMs. @default 200 ms */
  readonly initialDelayMs?: number;
  /** @default 5 s */
  readonly maxDelayMs?: number;
}

/** Error codes of a connection that failed or broke (the server may come back). */
const CONNECTION_ERRORS = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** Whether an error of a request is worth another try: a broken connection, 429, 5xx (but a webhook that cannot be called), or a deadline. */
export function isTransient(e: unknown): boolean {
  if (e instanceof ApiError) {
    if (/context deadline exceeded/.test(e.message)) return true;
    // A webhook the server cannot call (its backend refuses, or is not there) fails the same way
    // until someone fixes it: said at once, with the webhook's name, rather than after the retries.
    if (/failed calling webhook/.test(e.message)) return false;
    return e.status === 429 || e.status >= 500;
  }
  const err = e as NodeJS.ErrnoException;
  return CONNECTION_ERRORS.has(err?.code ?? '') || /socket hang up|no answer in \d+ s/.test(String(err?.message ?? ''));
}

/** Loads @kubernetes/client-node (ESM-only; Node 20.19+ loads it with require). */
export function loadKubeClient(): typeof import('@kubernetes/client-node') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@kubernetes/client-node');
}

/** The Accept header of a list as PartialObjectMetadataList (plain JSON when a server cannot). */
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

export class KubeClient {
  private readonly discovery = new Map<string, Promise<Map<string, ResourceInfo>>>();
  /** The keep-alive agent for the TLS settings the kubeconfig gave (see `agentFor`). */
  private agent?: { readonly key: string; readonly agent: https.Agent };

  /** Requests retried and why (for the report of a run). */
  public readonly retries: string[] = [];
  private interrupted = false;
  private readonly retry: Required<RetryOptions>;

  constructor(public readonly kubeConfig: KubeConfig, retry: RetryOptions = {}) {
    this.retry = { withinMs: retry.withinMs ?? 60_000, initialDelayMs: retry.initialDelayMs ?? 200, maxDelayMs: retry.maxDelayMs ?? 5000 };
  }

  /** No request is sent after this (each throws InterruptedError); a request in flight finishes. */
  public interrupt(): void {
    this.interrupted = true;
  }


  /**
   * One keep-alive agent for this client's requests. client-node's applyToHTTPSOptions makes
   * a new Agent on every call, without keep-alive, so each request opened a TLS connection
   * of its own: a full handshake, and a TLS context built from the CA and client
   * certificate again, on both sides (for 500 small requests to a test API server: 2.5 ms
   * of client and 2 ms of server CPU each, against 0.6 and 0.5 ms over one connection).
   * The agent is kept while those TLS settings stay the same (an exec credential plugin may
   * hand out a new client certificate). Idle sockets do not keep the process alive (Node's
   * Agent unrefs them).
   */
  private agentFor(opts: https.RequestOptions): https.Agent {
    const tlsOptions = { ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase, rejectUnauthorized: opts.rejectUnauthorized, servername: opts.servername };
    const key = JSON.stringify(Object.values(tlsOptions).map((v) => (Buffer.isBuffer(v) ? v.toString('base64') : v)));
    if (this.agent?.key !== key) {
      this.agent?.agent.destroy();
      this.agent = { key, agent: new https.Agent({ ...tlsOptions, keepAlive: true }) };
    }
    return this.agent.agent;
  }

  /** The server URL of the current context. */
  public get server(): string {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster: choose a context (--context) or set current-context');
    return cluster.server.replace(/\/+$/, '');
  }

  /**
   * Sends a request and parses the JSON answer; a non-2xx answer is an ApiError. A transient
   * failure (429, 5xx, "context deadline exceeded", a connection refused or reset) is tried
   * again with exponential backoff (429's Retry-After honoured) while within the retry window;
   * then a broken connection is an UnreachableError, an error answer the last ApiError. Every
   * request this client sends is safe to repeat: server-side apply, get, list, delete (a
   * repeated delete finds nothing: 404), status writes, access reviews.
   */
  public async request(method: string, path: string, body?: unknown, contentType = 'application/json', accept = 'application/json'): Promise<any> {
    const start = Date.now();
    let delay = this.retry.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      if (this.interrupted) throw new InterruptedError();
      try {
        return await this.send(method, path, body, contentType, accept);
      } catch (e) {
        if (!isTransient(e)) throw e;
        const retryAfter = e instanceof ApiError && e.status === 429 ? Number((e.details as Json | undefined)?.details?.retryAfterSeconds ?? 0) * 1000 : 0;
        const wait = Math.min(Math.max(delay, retryAfter), this.retry.maxDelayMs);
        const why = e instanceof ApiError ? `${e.status} ${e.message}` : String((e as NodeJS.ErrnoException).code ?? (e as Error).message);
        if (Date.now() + wait - start > this.retry.withinMs) {
          if (e instanceof ApiError) throw e;
          throw new UnreachableError(this.server, `${why}; ${attempt} ${attempt > 1 ? 'tries' : 'try'} in ${Math.round((Date.now() - start) / 1000)} s`);
        }
        this.retries.push(`${method} ${path}: ${why}`);
        await new Promise((r) => setTimeout(r, wait));
        delay = Math.min(delay * 2, this.retry.maxDelayMs);
      }
    }
  }

  private async send(method: string, path: string, body: unknown, contentType: string, accept: string): Promise<any> {
    const url = new URL(this.server + path);
    const opts: https.RequestOptions = { method, headers: { Accept: accept } };
    await this.kubeConfig.applyToHTTPSOptions(opts);
    // Through a proxy, client-node's own agent (a proxy agent) is kept.
    if (!this.kubeConfig.getCurrentCluster()?.proxyUrl) opts.agent = this.agentFor(opts);
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    if (payload) opts.headers = { ...opts.headers, 'Content-Type': contentType, 'Content-Length': String(payload.length) };
    return new Promise((resolve, reject) => {
      const req = https.request(url, { ...opts, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: any = undefined;
          try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve(parsed);
          else reject(new ApiError(status, parsed?.reason, parsed?.message ?? (text.trim() || `HTTP ${status}`), parsed));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 60 s`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** The resource types of one API version, from discovery (cached until `forgetDiscovery`). */
  public resources(apiVersion: string): Promise<Map<string, ResourceInfo>> {
    let cached = this.discovery.get(apiVersion);
    if (!cached) {
      const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      cached = this.request('GET', path).then((list: Json) => {
        const out = new Map<string, ResourceInfo>();
        for (const r of list.resources ?? []) {
          if (String(r.name).includes('/')) continue; // subresources
          out.set(r.kind, { plural: r.name, namespaced: !!r.namespaced, verbs: r.verbs ?? [] });
        }
        return out;
      });
      // A failed look-up is not kept: the version may be served a moment later (a new CRD).
      cached.catch(() => this.discovery.delete(apiVersion));
      this.discovery.set(apiVersion, cached);
    }
    return cached;
  }

  /** Forgets what discovery said (after CRDs were created or removed). */
  public forgetDiscovery(): void {
    this.discovery.clear();
  }

  /** The resource type of an apiVersion and kind; an ApiError (404) when the server does not serve it. */
  public async resourceOf(apiVersion: string, kind: string): Promise<ResourceInfo> {
    let info: ResourceInfo | undefined;
    try {
      info = (await this.resources(apiVersion)).get(kind);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) throw new ApiError(404, 'NotFound', `the server does not serve ${apiVersion} (no ${kind}): is its CRD installed?`);
      throw e;
    }
    if (!info) throw new ApiError(404, 'NotFound', `the server serves ${apiVersion} but no kind ${kind}: is its CRD up to date?`);
    return info;
  }

  /**
   * The served apiVersion of a group/kind, as kubectl's RESTMapper finds it: discovery over
   * every version of the group, the preferred version first. Undefined when no served version
   * of the group has the kind (or the group is not served).
   */
  public async resolveKind(group: string, kind: string): Promise<{ apiVersion: string; info: ResourceInfo } | undefined> {
    let versions: string[];
    if (!group) {
      versions = ['v1'];
    } else {
      let g: Json | undefined;
      try {
        g = await this.request('GET', `/apis/${group}`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }
      const preferred: string | undefined = g?.preferredVersion?.groupVersion;
      const all: string[] = (g?.versions ?? []).map((v: Json) => String(v.groupVersion));
      versions = [...new Set([...(preferred ? [preferred] : []), ...all])];
    }
    for (const apiVersion of versions) {
      let resources: Map<string, ResourceInfo>;
      try {
        resources = await this.resources(apiVersion);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) continue;
        throw e;
      }
      const info = resources.get(kind);
      if (info) return { apiVersion, info };
    }
    return undefined;
  }

  /** The URL path of an object (or of its collection when name is omitted). */
  public async pathOf(apiVersion: string, kind: string, namespace: string | undefined, name?: string): Promise<string> {
    const info = await this.resourceOf(apiVersion, kind);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const ns = info.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
    return `${base}${ns}/${info.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** Server-side apply of one object, sent as written. Returns the object the server has (or would have). */
  public async apply(obj: ObjectRef, options: ApplyOptions): Promise<Json> {
    const path = await this.pathOf(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    const q = new URLSearchParams({ fieldManager: options.fieldManager, force: String(options.force ?? true) });
    if (options.dryRun) q.set('dryRun', 'All');
    if (!options.metadataOnly) return this.request('PATCH', `${path}?${q}`, obj, 'application/apply-patch+yaml');
    const answer = await this.request('PATCH', `${path}?${q}`, obj, 'application/apply-patch+yaml', METADATA);
    return answer?.kind === 'PartialObjectMetadata' ? { apiVersion: obj.apiVersion, kind: obj.kind, metadata: answer.metadata } : answer;
  }

  /**
   * The object as the server has it, or undefined when it does not exist. `metadataOnly`: only
   * apiVersion, kind and metadata (PartialObjectMetadata), for callers that read no more (whether
   * it exists, its labels, resourceVersion or uid): a large CRD is then a few kilobytes.
   */
  public async get(apiVersion: string, kind: string, namespace: string | undefined, name: string, options: { metadataOnly?: boolean } = {}): Promise<Json | undefined> {
    try {
      const path = await this.pathOf(apiVersion, kind, namespace, name);
      if (!options.metadataOnly) return await this.request('GET', path);
      const answer = await this.request('GET', path, undefined, undefined, METADATA);
      return answer?.kind === 'PartialObjectMetadata' ? { apiVersion, kind, metadata: answer.metadata } : answer;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  /**
   * Objects of a kind (all namespaces, or one), optionally by label selector. `metadataOnly`:
   * each object as apiVersion, kind and metadata (the server sends PartialObjectMetadata), for
   * callers that need no more: a list of CRDs is then a few kilobytes, not megabytes the server
   * must encode (and this process parse).
   */
  public async list(apiVersion: string, kind: string, options: { namespace?: string; labelSelector?: string; metadataOnly?: boolean } = {}): Promise<Json[]> {
    const info = await this.resourceOf(apiVersion, kind);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const ns = info.namespaced && options.namespace ? `/namespaces/${encodeURIComponent(options.namespace)}` : '';
    const q = options.labelSelector ? `?${new URLSearchParams({ labelSelector: options.labelSelector })}` : '';
    const out: Json[] = [];
    let cont: string | undefined;
    do {
      const page = `${base}${ns}/${info.plural}${q}${cont ? `${q ? '&' : '?'}continue=${encodeURIComponent(cont)}` : ''}`;
      const list = await this.request('GET', page, undefined, undefined, options.metadataOnly ? METADATA_LIST : undefined);
      for (const item of list.items ?? []) out.push(options.metadataOnly ? { apiVersion, kind, metadata: item.metadata } : { apiVersion, kind, ...item });
      cont = list.metadata?.continue || undefined;
    } while (cont);
    return out;
  }

  /**
   * Deletes an object; false when it did not exist. Foreground propagation (the default) keeps
   * the object until the garbage collector has removed its dependents; Background deletes it
   * at once and leaves them to the collector.
   */
  public async delete(apiVersion: string, kind: string, namespace: string | undefined, name: string, options: { dryRun?: boolean; propagationPolicy?: 'Foreground' | 'Background' } = {}): Promise<boolean> {
    const q = options.dryRun ? '?dryRun=All' : '';
    try {
      await this.request('DELETE', `${await this.pathOf(apiVersion, kind, namespace, name)}${q}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: options.propagationPolicy ?? 'Foreground' });
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return false;
      throw e;
    }
  }

  /** Replaces an object's status (the status subresource), as a controller would. */
  public async writeStatus(obj: ObjectRef & { status: unknown }, fieldManager: string): Promise<Json> {
    const path = await this.pathOf(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    const body = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace }, status: obj.status };
    return this.request('PATCH', `${path}/status?${new URLSearchParams({ fieldManager, force: 'true' })}`, body, 'application/apply-patch+yaml');
  }
}
