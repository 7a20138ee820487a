import { IConstruct } from 'constructs';

/**
 * The Pod Security "restricted" controls (and the platform's other safety rules) that an
 * object may be excused from, each only with a declared reason.
 */
export type SecurityCheck =
  /** a hostPath volume (baseline and restricted forbid it) */
  | 'hostPath'
  /** hostNetwork: true */
  | 'hostNetwork'
  /** hostPID: true */
  | 'hostPID'
  /** hostIPC: true */
  | 'hostIPC'
  /** hostPort on a container port */
  | 'hostPorts'
  /** a privileged container */
  | 'privileged'
  /** runAsNonRoot not true (pod or every container), or runAsUser 0 */
  | 'runAsNonRoot'
  /** allowPrivilegeEscalation not false on a container */
  | 'allowPrivilegeEscalation'
  /** capabilities not dropping ALL, or adding more than NET_BIND_SERVICE */
  | 'capabilities'
  /** seccompProfile not RuntimeDefault or Localhost */
  | 'seccompProfile'
  /** a volume type outside restricted's list (configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected, secret) */
  | 'volumeTypes'
  /** '*' in an RBAC rule's verbs, resources or apiGroups */
  | 'wildcardRbac'
  /** a fail-closed webhook whose namespaceSelector does not exclude kube-system and its backend's namespace */
  | 'webhookNamespaces';

/** Every check an exception may name, for validation. */
export const SECURITY_CHECKS: readonly SecurityCheck[] = [
  'hostPath', 'hostNetwork', 'hostPID', 'hostIPC', 'hostPorts', 'privileged', 'runAsNonRoot', 'allowPrivilegeEscalation',
  'capabilities', 'seccompProfile', 'volumeTypes', 'wildcardRbac', 'webhookNamespaces',
];

/** An exception to a safety rule, with the reason (shown in REPORT.md). */
export interface SecurityException {
  readonly check: SecurityCheck;
  /** Why upstream needs it, e.g. 'the node agent caches models on the node's disk'. */
  readonly reason: string;
}

/** A declared exception and what it covers within its object (e.g. one webhook of a configuration). */
export interface DeclaredSecurityException extends SecurityException {
  /** e.g. the webhook's name; undefined: the whole object. */
  readonly subject?: string;
}

const declared = new WeakMap<IConstruct, DeclaredSecurityException[]>();

/**
 * Declares exceptions for one emitted object (a Deployment, DaemonSet, ClusterRole,
 * webhook configuration...). Throws on an unknown check or an empty reason.
 */
export function declareSecurityExceptions(obj: IConstruct, exceptions: readonly SecurityException[] | undefined, subject?: string): void {
  if (!exceptions?.length) return;
  const list = declared.get(obj) ?? [];
  for (const e of exceptions) {
    if (!SECURITY_CHECKS.includes(e.check)) {
      throw new Error(`${obj.node.path}: securityExceptions: unknown check '${e.check}'; use one of ${SECURITY_CHECKS.join(', ')}`);
    }
    if (!e.reason || !e.reason.trim()) {
      throw new Error(`${obj.node.path}: securityExceptions: the exception for '${e.check}' has no reason; say why upstream needs it`);
    }
    if (!list.some((x) => x.check === e.check && x.subject === subject)) list.push({ check: e.check, reason: e.reason.trim(), subject });
  }
  declared.set(obj, list);
}

/** The exceptions declared for an object. */
export function securityExceptionsOf(obj: IConstruct): readonly DeclaredSecurityException[] {
  return declared.get(obj) ?? [];
}

/** The exception for `check` declared on `obj` (for `subject`, or the whole object), if any. */
export function securityException(obj: IConstruct, check: SecurityCheck, subject?: string): DeclaredSecurityException | undefined {
  return securityExceptionsOf(obj).find((e) => e.check === check && (e.subject === undefined || e.subject === subject));
}

/**
 * Throws when exceptions name a check outside `allowed` (e.g. a role excused from hostPath)
 * or give no reason.
 */
export function onlyChecks(where: string, exceptions: readonly SecurityException[] | undefined, allowed: readonly SecurityCheck[]): void {
  for (const e of exceptions ?? []) {
    if (!allowed.includes(e.check)) throw new Error(`${where}: securityExceptions: '${e.check}' does not apply here; use one of ${allowed.join(', ')}`);
    if (!e.reason || !e.reason.trim()) throw new Error(`${where}: securityExceptions: the exception for '${e.check}' has no reason; say why upstream needs it`);
  }
}

/** The exceptions among `exceptions` for the given checks (undefined when none). */
export function exceptionsFor(exceptions: readonly SecurityException[] | undefined, checks: readonly SecurityCheck[]): SecurityException[] | undefined {
  const out = (exceptions ?? []).filter((e) => checks.includes(e.check));
  return out.length ? out : undefined;
}

/** The Pod Security "restricted" controls a pod exception may name. */
export const POD_SECURITY_CHECKS: readonly SecurityCheck[] = SECURITY_CHECKS.filter((c) => c !== 'wildcardRbac' && c !== 'webhookNamespaces');

/** A path the program writes, mounted as a writable emptyDir. */
export interface WritablePath {
  /** Volume name. */
  readonly name: string;
  readonly mountPath: string;
  /** e.g. 1Gi. @default - no limit */
  readonly sizeLimit?: string;
  /** 'Memory' for a tmpfs. @default - the node's disk */
  readonly medium?: 'Memory';
}

/**
 * Whether a container's root filesystem is read-only, and the writable emptyDirs it gets.
 * Read-only is hardening that only holds together with every path the program writes: a
 * program that writes elsewhere exits at start (Kueue's visibility server and /visibility).
 * So it is set only where a construct declares those paths as known; otherwise the root
 * stays as upstream leaves it.
 */
export class RootFilesystem {
  /**
   * The program writes only to `writablePaths` (each a writable emptyDir) and to the volumes
   * the construct mounts: `readOnlyRootFilesystem: true`.
   */
  public static readOnly(writablePaths: WritablePath[] = []): RootFilesystem {
    return new RootFilesystem(true, writablePaths);
  }

  /**
   * Where the program writes is not fully known (upstream does not set
   * readOnlyRootFilesystem): the field is left out, so the image's root stays writable;
   * `writablePaths` are still mounted where upstream declares emptyDirs.
   */
  public static asUpstream(writablePaths: WritablePath[] = []): RootFilesystem {
    return new RootFilesystem(false, writablePaths);
  }

  private constructor(public readonly readOnly: boolean, public readonly writablePaths: readonly WritablePath[]) {}

  /** The emptyDir volumes of the writable paths; throws on a repeated name or path. */
  public volumes(where: string): Array<Record<string, unknown>> {
    const names = new Set<string>();
    const paths = new Set<string>();
    for (const p of this.writablePaths) {
      if (!p.mountPath.startsWith('/')) throw new Error(`${where}: rootFilesystem: writable path '${p.mountPath}' (volume ${p.name}) is not absolute; give the absolute path the program writes`);
      if (names.has(p.name)) throw new Error(`${where}: rootFilesystem: volume name '${p.name}' is used by two writable paths; give each path its own volume name`);
      if (paths.has(p.mountPath)) throw new Error(`${where}: rootFilesystem: writable path '${p.mountPath}' is declared twice; declare it once`);
      names.add(p.name);
      paths.add(p.mountPath);
    }
    return this.writablePaths.map((p) => ({ name: p.name, emptyDir: { ...(p.medium ? { medium: p.medium } : {}), ...(p.sizeLimit ? { sizeLimit: p.sizeLimit } : {}) } }));
  }

  /** The writable mounts of the writable paths. */
  public mounts(): Array<Record<string, unknown>> {
    return this.writablePaths.map((p) => ({ name: p.name, mountPath: p.mountPath }));
  }

  /** The container securityContext field: true when read-only, left out otherwise. */
  public get readOnlyRootFilesystem(): true | undefined {
    return this.readOnly ? true : undefined;
  }
}

/** Options of `restrictedContainerSecurityContext`. */
export interface RestrictedContainerOptions {
  /**
   * The container's root filesystem: readOnlyRootFilesystem is whatever it says (true for
   * `RootFilesystem.readOnly`, left out for `RootFilesystem.asUpstream`).
   * @default RootFilesystem.asUpstream()
   */
  readonly rootFilesystem?: RootFilesystem;
  /** @default - the image's user (must be non-root) */
  readonly runAsUser?: number;
  /** @default - the image's group */
  readonly runAsGroup?: number;
  /**
   * seccompProfile RuntimeDefault on the container too, where upstream sets it there (the
   * pod's securityContext sets it for every container either way).
   * @default false
   */
  readonly seccompProfile?: boolean;
}

/**
 * The container securityContext that passes Pod Security "restricted": no privilege
 * escalation, every capability dropped, not privileged, non-root; the root filesystem as
 * the container's RootFilesystem says. The one place this is spelled out.
 */
export function restrictedContainerSecurityContext(options: RestrictedContainerOptions = {}): Record<string, unknown> {
  return {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: (options.rootFilesystem ?? RootFilesystem.asUpstream()).readOnlyRootFilesystem,
    runAsNonRoot: true,
    runAsUser: options.runAsUser,
    runAsGroup: options.runAsGroup,
    seccompProfile: options.seccompProfile ? { type: 'RuntimeDefault' } : undefined,
  };
}
