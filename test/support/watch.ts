/**
 * A cache of one resource type kept by a client-node watch, for the players of a test
 * cluster (node agent, cert-manager, service CA). It restarts the watch where it ended (or
 * afresh when the server has forgotten that version), and waits and tries again while the
 * type is not served yet (a CRD applied later).
 */
import * as k8s from '@kubernetes/client-node';

export type Json = Record<string, any>;
export type WatchEvent = 'ADDED' | 'MODIFIED' | 'DELETED';

export const keyOf = (o: Json): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

/** Whether resourceVersion `a` is older than `b` (etcd's revisions, decimal; anything else: not known to be older). */
export function olderVersion(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return a.length === b.length ? a < b : a.length < b.length;
}

const FIRST_BACKOFF = 250;
const MAX_BACKOFF = 2000;

export class ObjectWatch {
  /** namespace/name (cluster-scoped: /name) -> the object as last seen. */
  public readonly items = new Map<string, Json>();
  private abort?: AbortController;
  private stopped = false;
  private resourceVersion?: string;
  private timer?: NodeJS.Timeout;
  /** The wait before the next try after a failed one; doubled per failure, reset by an event. */
  private backoff = FIRST_BACKOFF;

  constructor(private readonly kubeConfig: k8s.KubeConfig, public readonly path: string, private readonly onChange: (type: WatchEvent, obj: Json) => void) {}

  public start(): void {
    void this.connect();
  }

  /**
   * Keeps an object the player just wrote (the server's answer), so that its next round reads
   * it before the watch brings the event; an older version does not replace it.
   */
  public remember(obj: Json): void {
    const key = keyOf(obj);
    if (!olderVersion(obj.metadata?.resourceVersion, this.items.get(key)?.metadata?.resourceVersion)) this.items.set(key, obj);
  }

  private retry(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.connect(), ms);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      // Without a resourceVersion the server first sends every object that exists as ADDED.
      this.abort = await new k8s.Watch(this.kubeConfig).watch(this.path, { allowWatchBookmarks: true, ...(this.resourceVersion ? { resourceVersion: this.resourceVersion } : {}) },
        (type: string, obj: Json) => {
          if (type === 'BOOKMARK') {
            this.resourceVersion = obj.metadata?.resourceVersion;
            return;
          }
          if (type === 'ERROR') {
            // 410 Gone: the version we resume from is too old; list afresh.
            if (obj?.code === 410) { this.resourceVersion = undefined; this.items.clear(); }
            return;
          }
          this.resourceVersion = obj.metadata?.resourceVersion;
          this.backoff = FIRST_BACKOFF;
          const key = keyOf(obj);
          if (type === 'DELETED') this.items.delete(key);
          // Not over a newer version the player wrote itself (remember) before this event came.
          else if (!olderVersion(obj.metadata?.resourceVersion, this.items.get(key)?.metadata?.resourceVersion)) this.items.set(key, obj);
          this.onChange(type as WatchEvent, obj);
        },
        // A watch the server ended is resumed at once; one that failed (404 while the type
        // is not served) waits longer each time, as client-go's reflector does: each try is a
        // new TLS connection, and a stand-in polling every 100 ms for a CRD applied minutes
        // later cost the API server seconds of handshakes.
        (err: unknown) => (err ? this.failed() : this.retry(100)));
      // Stopped while connecting: end the watch now.
      if (this.stopped) this.abort.abort();
    } catch {
      // Not served yet (404 until its CRD is there), or the server is going away.
      this.failed();
    }
  }

  private failed(): void {
    this.retry(this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF);
  }

  public stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.abort?.abort();
  }
}
