import { DatabaseEngine, defaultPort, envFrom, externalDatabaseProblems, secretKeyRefProblems } from '../../lib/database';

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
