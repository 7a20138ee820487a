/**
 * Databases that components keep their state in (Katib's db-manager, the model registry,
 * Kubeflow Pipelines): either a server the component includes or an external one given
 * as typed connection properties. Passwords are only ever Secret references: no literal
 * password can reach the output through these types.
 */

import type { Component } from './component';
import { GeneratedValue, SecretValue } from './secrets';
import type { WorkloadProbe } from './workload';

/** A key of a Secret in the component's namespace. */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

export enum DatabaseEngine {
  MYSQL = 'mysql',
  POSTGRES = 'postgres',
}

/** An external database server the component connects to. */
export interface ExternalDatabase {
  readonly engine: DatabaseEngine;
  /** Host name or address, e.g. katib-db.example.internal */
  readonly host: string;
  /** @default 3306 for MySQL, 5432 for PostgreSQL */
  readonly port?: number;
  /** Database (schema) name. */
  readonly database: string;
  /** The user: a name, or a Secret key holding it. */
  readonly user: string | SecretKeyRef;
  /** The Secret key holding the password (created by the platform team, never emitted). */
  readonly passwordSecret: SecretKeyRef;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

export function defaultPort(engine: DatabaseEngine): number {
  return engine === DatabaseEngine.MYSQL ? 3306 : 5432;
}

/** Problems with a Secret reference, each naming `prop` and the fix ([] when valid). */
export function secretKeyRefProblems(prop: string, ref: SecretKeyRef): string[] {
  const out: string[] = [];
  if (!ref.name || ref.name.length > 253 || !DNS_SUBDOMAIN.test(ref.name)) out.push(`${prop}.name '${ref.name}' is not a valid Secret name (lower-case DNS subdomain)`);
  if (!ref.key || !SECRET_KEY.test(ref.key)) out.push(`${prop}.key '${ref.key}' is not a valid Secret key (letters, digits, '-', '_', '.')`);
  return out;
}

/** Problems with an external database's properties ([] when valid). */
export function externalDatabaseProblems(prop: string, db: ExternalDatabase): string[] {
  const out: string[] = [];
  if (!Object.values(DatabaseEngine).includes(db.engine)) out.push(`${prop}.engine '${db.engine}' is not supported; use DatabaseEngine.MYSQL or DatabaseEngine.POSTGRES`);
  if (!db.host || /\s|\//.test(db.host)) out.push(`${prop}.host '${db.host}' is not a host name; give the server's host name or address without scheme or path`);
  if (db.port !== undefined && (!Number.isInteger(db.port) || db.port < 1 || db.port > 65535)) out.push(`${prop}.port ${db.port} must be a whole number from 1 to 65535`);
  if (!db.database) out.push(`${prop}.database is empty; name the database the component uses`);
  if (typeof db.user === 'string') {
    if (!db.user) out.push(`${prop}.user is empty; give a user name or a Secret reference`);
  } else {
    out.push(...secretKeyRefProblems(`${prop}.user`, db.user));
  }
  out.push(...secretKeyRefProblems(`${prop}.passwordSecret`, db.passwordSecret));
  return out;
}

/** An environment variable from a literal or a Secret key. */
export function envFrom(name: string, value: string | SecretKeyRef): Record<string, unknown> {
  return typeof value === 'string'
    ? { name, value }
    : { name, valueFrom: { secretKeyRef: { name: value.name, key: value.key } } };
}

/** The probes of a database server a component includes. */
export interface DatabaseProbes {
  readonly readiness?: WorkloadProbe;
  readonly liveness?: WorkloadProbe;
  readonly startup?: WorkloadProbe;
}

/**
 * The least time a database server gets to start before a liveness probe may restart it:
 * a first start initializes the data directory and a restart after a crash recovers it,
 * each taking minutes on a slow volume. A liveness probe without such a startup window
 * kills the server in the middle of that and, restarted, it begins again (Katib's MySQL
 * was killed after about 25 s). Upstream's Katib gives 15 minutes; Pipelines' and the model
 * registry's databases have no liveness probe.
 */
export const DATABASE_START_WINDOW_SECONDS = 600;

/** Seconds before a probe with these settings fails for good (Kubernetes' defaults for the unset ones). */
export function probeWindowSeconds(p: WorkloadProbe): number {
  return (p.initialDelaySeconds ?? 0) + (p.periodSeconds ?? 10) * (p.failureThreshold ?? 3);
}

/**
 * Checks the probes of an included database server and returns them: a liveness probe
 * needs a startup probe whose window is at least DATABASE_START_WINDOW_SECONDS.
 */
export function databaseProbes(where: string, probes: DatabaseProbes): DatabaseProbes {
  if (probes.liveness) {
    const window = probes.startup ? probeWindowSeconds(probes.startup) : 0;
    if (window < DATABASE_START_WINDOW_SECONDS) {
      throw new Error(`${where}: the database's liveness probe can restart it while it initializes or recovers: `
        + `its startup probe allows ${window} s; give a startup probe allowing at least ${DATABASE_START_WINDOW_SECONDS} s `
        + '(initialDelaySeconds + periodSeconds x failureThreshold), or no liveness probe');
    }
  }
  return probes;
}

/**
 * Declares the Secret of an included database server's root password (Component.referenceSecret):
 * `mlplatform apply` generates it (24 letters and digits) when it is missing; `extraKeys` are
 * further generated keys of the same Secret (e.g. a user name).
 */
export function referenceIncludedDatabaseSecret(c: Component, password: SecretKeyRef, what: string, extraKeys: Readonly<Record<string, GeneratedValue>> = {}): void {
  c.referenceSecret({ name: password.name, purpose: `the root password of ${what}`, generate: { ...extraKeys, [password.key]: SecretValue.alphanumeric(24) } });
}

/** Declares the Secrets holding an external database's credentials: the user provides them. */
export function referenceExternalDatabaseSecrets(c: Component, db: ExternalDatabase, what: string): void {
  const keys = new Map<string, string[]>();
  for (const ref of [db.passwordSecret, ...(typeof db.user === 'string' ? [] : [db.user])]) keys.set(ref.name, [...(keys.get(ref.name) ?? []), ref.key]);
  for (const [name, ks] of keys) {
    c.referenceSecret({
      name,
      purpose: `the credentials of ${what} at ${db.host}`,
      keys: ks,
      userProvided: `kubectl -n ${c.namespaceName} create secret generic ${name} ${ks.map((k) => `--from-literal=${k}=...`).join(' ')}`,
    });
  }
}
