import { DATABASE_START_WINDOW_SECONDS, databaseProbes, DatabaseEngine, defaultPort, envFrom, externalDatabaseProblems, probeWindowSeconds, secretKeyRefProblems } from '../../lib/database';

describe('database connection props', () => {
  const ok = { engine: DatabaseEngine.MYSQL, host: 'db.example.internal', database: 'katib', user: 'katib', passwordSecret: { name: 'db', key: 'password' } };
  test('a valid external database has no problems', () => {
    expect(externalDatabaseProblems('db', ok)).toEqual([]);
    expect(externalDatabaseProblems('db', { ...ok, user: { name: 'db', key: 'user' }, port: 3307 })).toEqual([]);
  });
  test('default ports per engine', () => {
    expect(defaultPort(DatabaseEngine.MYSQL)).toBe(3306);
    expect(defaultPort(DatabaseEngine.POSTGRES)).toBe(5432);
  });
  test('passwords only as Secret references in env', () => {
    expect(envFrom('DB_PASSWORD', { name: 'db', key: 'password' })).toEqual({ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } });
    expect(envFrom('DB_USER', 'katib')).toEqual({ name: 'DB_USER', value: 'katib' });
  });
  test('fails when the engine is unknown', () => {
    expect(externalDatabaseProblems('db', { ...ok, engine: 'oracle' as DatabaseEngine })).toEqual(["db.engine 'oracle' is not supported; use DatabaseEngine.MYSQL or DatabaseEngine.POSTGRES"]);
  });
  test('fails when database and user are empty', () => {
    expect(externalDatabaseProblems('db', { ...ok, database: '', user: '' })).toEqual([
      'db.database is empty; name the database the component uses',
      'db.user is empty; give a user name or a Secret reference',
    ]);
  });
  test('fails when a Secret reference is malformed', () => {
    expect(secretKeyRefProblems('p', { name: '', key: '' })).toEqual([
      "p.name '' is not a valid Secret name (lower-case DNS subdomain)",
      "p.key '' is not a valid Secret key (letters, digits, '-', '_', '.')",
    ]);
  });
});

describe('KATIB-MYSQL-PROBE: probes of an included database', () => {
  const ping = { exec: { command: ['mysqladmin', 'ping'] } };
  test('a liveness probe needs a startup probe allowing the start window', () => {
    expect(() => databaseProbes('p/katib/katib-mysql', { liveness: { ...ping, initialDelaySeconds: 10, periodSeconds: 5 } })).toThrow(
      'p/katib/katib-mysql: the database\'s liveness probe can restart it while it initializes or recovers: its startup probe allows 0 s; '
        + `give a startup probe allowing at least ${DATABASE_START_WINDOW_SECONDS} s (initialDelaySeconds + periodSeconds x failureThreshold), or no liveness probe`,
    );
    expect(() => databaseProbes('db', { liveness: ping, startup: { ...ping, periodSeconds: 10, failureThreshold: 30 } })).toThrow('its startup probe allows 300 s');
    const ok = { liveness: ping, startup: { ...ping, periodSeconds: 15, failureThreshold: 60 } };
    expect(databaseProbes('db', ok)).toBe(ok);
  });
  test('readiness alone, or nothing, is fine; windows count Kubernetes\' defaults', () => {
    expect(databaseProbes('db', { readiness: ping })).toEqual({ readiness: ping });
    expect(probeWindowSeconds(ping)).toBe(30);
    expect(probeWindowSeconds({ ...ping, initialDelaySeconds: 10, periodSeconds: 15, failureThreshold: 60 })).toBe(910);
  });
});
