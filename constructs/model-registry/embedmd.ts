import { DatabaseEngine, defaultPort, envFrom, ExternalDatabase, SecretKeyRef } from '../../lib/database';

/** The environment variables the server's DSN refers to (Kubernetes expands `$(VAR)` in args). */
export const MODEL_REGISTRY_DB_USER_ENV = 'MODEL_REGISTRY_DB_USER';
export const MODEL_REGISTRY_DB_PASSWORD_ENV = 'MODEL_REGISTRY_DB_PASSWORD';

/**
 * The server's datastore flags for the embedmd datastore (the registry talks to MySQL or
 * PostgreSQL itself, no ML Metadata server): `--datastore-type=embedmd`,
 * `--embedmd-database-type` and `--embedmd-database-dsn`. The DSN names the user and the
 * password only as `$(VAR)` references to environment variables filled from Secret keys,
 * so no credential is ever in the output.
 *
 * DSN formats: MySQL as the Go MySQL driver reads it (`user:password@tcp(host:port)/db?parseTime=true`),
 * PostgreSQL as keyword/value pairs (`host=... port=... user=... password=... dbname=...`; no
 * sslmode, so the driver's default applies). UNCONFIRMED at the pinned tag: that the server
 * needs nothing else in the DSN (e.g. charset); passwords with characters special to the
 * DSN syntax ('@', '/', spaces) must be avoided or quoted by the platform team.
 *
 * Only this component builds the server's arguments: the Open Data Hub operator variant
 * (constructs/model-registry-operator) has its operator build them at run time from the
 * ModelRegistry resource, so there is nothing to share in lib/ yet.
 */
export function embedmdDatastore(db: ExternalDatabase): { args: string[]; env: Array<Record<string, unknown>> } {
  const port = db.port ?? defaultPort(db.engine);
  const user = `$(${MODEL_REGISTRY_DB_USER_ENV})`;
  const password = `$(${MODEL_REGISTRY_DB_PASSWORD_ENV})`;
  const dsn = db.engine === DatabaseEngine.MYSQL
    ? `${user}:${password}@tcp(${db.host}:${port})/${db.database}?parseTime=true`
    : `host=${db.host} port=${port} user=${user} password=${password} dbname=${db.database}`;
  return {
    args: ['--datastore-type=embedmd', `--embedmd-database-type=${db.engine}`, `--embedmd-database-dsn=${dsn}`],
    env: [envFrom(MODEL_REGISTRY_DB_USER_ENV, db.user as string | SecretKeyRef), envFrom(MODEL_REGISTRY_DB_PASSWORD_ENV, db.passwordSecret)],
  };
}
