/**
 * The referenced Secrets (lib/secrets.ts, lib/cluster/secrets.ts) on a real API server: a
 * user-provided Secret that is missing stops apply before any change; generated ones are
 * created with the declared shape (a value shared by two namespaces, a bcrypt hash that
 * verifies against the plaintext Secret, a cookie secret of 32 bytes), never overwritten,
 * never pruned, listed by diff, and their values never printed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import bcrypt from 'bcryptjs';
import { stringify } from 'yaml';
import { applyPlatform, PreflightError } from '../../lib/cluster/apply';
import { APPLYSET_PART_OF } from '../../lib/cluster/applyset';
import { KubeClient, loadKubeClient } from '../../lib/cluster/client';
import { DesiredObject, desiredFromDir, DesiredPlatform, Manifest } from '../../lib/cluster/desired';
import { diffPlatform, diffText } from '../../lib/cluster/diff';
import { GENERATED_BY_ANNOTATION } from '../../lib/cluster/secrets';
import { ignoredFields } from '../../lib/gitops/ignore';
import { Phase } from '../../lib/phases';
import { collectReferencedSecrets, resolveSecretDeclaration, SecretDeclaration, SecretEncoding, SecretValue, stampReferencedSecrets } from '../../lib/secrets';
import { describeWithApiServer } from '../support/apiserver';
import { applyPlayed } from '../support/controllers';

type Declared = SecretDeclaration & { namespace: string };

/** Dex and oauth2-proxy in miniature: the Secrets as those components declare them, and a Deployment reading each. */
function declarations(auth: string, proxy: string, options: { externalClient?: boolean } = {}): Declared[] {
  const plain = { namespace: auth, name: 'initial-password', key: 'password' };
  const client = { namespace: auth, name: 'oidc-client', key: 'OIDC_CLIENT_SECRET' };
  return [
    { namespace: auth, name: 'initial-password', purpose: 'the initial password of the static user', generate: { password: SecretValue.alphanumeric(24) }, forPeople: true },
    { namespace: auth, name: 'passwords', purpose: 'the bcrypt hash of the static user\'s password', generate: { USER_PASSWORD: SecretValue.bcryptOf(plain, 10) } },
    { namespace: auth, name: 'oidc-client', purpose: 'the OAuth2 client secret', generate: { OIDC_CLIENT_SECRET: SecretValue.alphanumeric(40) } },
    options.externalClient
      ? { namespace: proxy, name: 'proxy-client', purpose: 'the client secret at the external provider', keys: ['client-secret'], userProvided: `kubectl -n ${proxy} create secret generic proxy-client --from-literal=client-secret=...` }
      : { namespace: proxy, name: 'proxy-client', purpose: 'the OAuth2 client secret (the value Dex holds)', generate: { 'client-secret': SecretValue.sameAs(client) } },
    { namespace: proxy, name: 'proxy-cookie', purpose: 'the cookie secret', generate: { 'cookie-secret': SecretValue.random(32, SecretEncoding.BASE64URL) } },
  ];
}

function deployment(ns: string, name: string, env: Array<[string, string, string]>): DesiredObject {
  const labels = { app: name };
  return {
    phase: Phase.CONTROLLERS,
    component: name,
    json: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: ns },
      spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name, image: `example.com/${name}:v1.0.0`, env: env.map(([n, s, k]) => ({ name: n, valueFrom: { secretKeyRef: { name: s, key: k } } })) }] } } },
    },
  };
}

function platform(name: string, auth: string, proxy: string, options: { externalClient?: boolean } = {}): DesiredPlatform {
  const objects: DesiredObject[] = [
    ...[auth, proxy].map((ns) => ({ json: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, phase: Phase.FOUNDATION, component: 'namespaces' })),
    deployment(auth, 'dex', [['OIDC_CLIENT_SECRET', 'oidc-client', 'OIDC_CLIENT_SECRET'], ['USER_PASSWORD', 'passwords', 'USER_PASSWORD']]),
    deployment(proxy, 'proxy', [['CLIENT_SECRET', 'proxy-client', 'client-secret'], ['COOKIE_SECRET', 'proxy-cookie', 'cookie-secret']]),
  ];
  const declared = declarations(auth, proxy, options).map((d) => ({ path: `p/${d.namespace}`, secret: resolveSecretDeclaration(d, d.namespace === auth ? 'dex' : 'proxy') }));
  const { secrets, problems } = collectReferencedSecrets(declared, objects);
  if (problems.length) throw new Error(problems.join('\n'));
  return { name, objects, prerequisites: [], ignored: ignoredFields({ objects: objects.map((o) => ({ json: o.json, phase: o.phase as Phase })), runtimeChanges: [] }), secrets };
}


const value = (s: any, key: string) => Buffer.from(s.data[key], 'base64').toString('utf8');

describeWithApiServer('referenced Secrets on a cluster', (server) => {
  const client = () => new KubeClient(server().kubeConfig);

  test('SECRETS-USER-MISSING: a user-provided Secret that is missing stops apply before any change, naming it, its key, the workload and the hint', async () => {
    const p = platform('usersecret', 'us-auth', 'us-proxy', { externalClient: true });
    const error = await applyPlatform(client(), p).catch((e) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect(error.message).toContain('Secret us-proxy/proxy-client (keys client-secret) does not exist: the client secret at the external provider, needed by Deployment us-proxy/proxy; '
      + 'the user provides it: kubectl -n us-proxy create secret generic proxy-client --from-literal=client-secret=...');
    expect(await client().get('v1', 'Namespace', undefined, 'us-auth')).toBeUndefined();
    expect(await client().get('v1', 'Secret', 'us-auth', 'oidc-client')).toBeUndefined();
    // diff says the same, and which Secrets apply would generate.
    const text = diffText(await diffPlatform(client(), p));
    expect(text).toContain('apply would refuse: Secret us-proxy/proxy-client (keys client-secret) does not exist');
    expect(text).toContain('  + v1 Secret us-auth/oidc-client (OIDC_CLIENT_SECRET): the OAuth2 client secret\n');
    expect(text).not.toContain('proxy-client (client-secret)');
  }, 60_000);

  test('SECRETS-DIR: apply of a synthesized folder generates the Secrets its annotations declare, as apply of the model does', async () => {
    const p = platform('dirsecret', 'dir-auth', 'dir-proxy');
    stampReferencedSecrets(p.secrets!, p.objects.map((o) => ({ json: o.json, component: { componentName: o.component } })));
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-secrets-')), 'dirsecret');
    for (const o of p.objects) {
      const file = path.join(dir, o.phase, `${o.component}.yaml`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `---\n${stringify(o.json)}`);
    }
    const fromDir = desiredFromDir(dir, os.tmpdir());
    expect(fromDir.secrets!.map((s) => `${s.namespace}/${s.name}`).sort()).toEqual(p.secrets!.map((s) => `${s.namespace}/${s.name}`).sort());
    const { result } = await applyPlayed(client(), fromDir);
    expect(result.outcomes.filter((o) => o.note === 'generated').map((o) => o.ref).sort()).toEqual([
      'v1 Secret dir-auth/initial-password', 'v1 Secret dir-auth/oidc-client', 'v1 Secret dir-auth/passwords', 'v1 Secret dir-proxy/proxy-client', 'v1 Secret dir-proxy/proxy-cookie',
    ]);
    const get = async (ns: string, name: string) => (await client().get('v1', 'Secret', ns, name))!;
    expect(value(await get('dir-proxy', 'proxy-client'), 'client-secret')).toBe(value(await get('dir-auth', 'oidc-client'), 'OIDC_CLIENT_SECRET'));
  }, 60_000);

  test('SECRETS-DRY-RUN: a server-side dry run lists the Secrets apply would generate and creates none', async () => {
    const p = platform('drysecret', 'dry-auth', 'dry-proxy');
    const { result, lines } = await applyPlayed(client(), p, { dryRun: true });
    expect(result.outcomes.filter((o) => o.note === 'generated').map((o) => o.ref).sort()).toEqual([
      'v1 Secret dry-auth/initial-password', 'v1 Secret dry-auth/oidc-client', 'v1 Secret dry-auth/passwords', 'v1 Secret dry-proxy/proxy-client', 'v1 Secret dry-proxy/proxy-cookie',
    ]);
    expect(lines).toContain('  would generate v1 Secret dry-proxy/proxy-cookie (cookie-secret): the cookie secret');
    expect(await client().get('v1', 'Namespace', undefined, 'dry-auth')).toBeUndefined();
  }, 60_000);

  test('SECRETS-GENERATED: apply creates the missing Secrets before the workloads: shared value equal in both namespaces, bcrypt hash of the plaintext Secret, 32-byte cookie secret; no value in the log', async () => {
    const p = platform('gensecret', 'gen-auth', 'gen-proxy');
    const planned = await diffPlatform(client(), p);
    expect([...planned.generate!].sort()).toEqual([
      'v1 Secret gen-auth/initial-password (password): the initial password of the static user',
      'v1 Secret gen-auth/oidc-client (OIDC_CLIENT_SECRET): the OAuth2 client secret',
      'v1 Secret gen-auth/passwords (USER_PASSWORD): the bcrypt hash of the static user\'s password',
      'v1 Secret gen-proxy/proxy-client (client-secret): the OAuth2 client secret (the value Dex holds)',
      'v1 Secret gen-proxy/proxy-cookie (cookie-secret): the cookie secret',
    ]);
    const { result, lines } = await applyPlayed(client(), p);
    const get = async (ns: string, name: string) => (await client().get('v1', 'Secret', ns, name))!;
    const [plain, hash, dexClient, proxyClient, cookie] = await Promise.all([
      get('gen-auth', 'initial-password'), get('gen-auth', 'passwords'), get('gen-auth', 'oidc-client'), get('gen-proxy', 'proxy-client'), get('gen-proxy', 'proxy-cookie'),
    ]);
    expect(value(plain, 'password')).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(bcrypt.compareSync(value(plain, 'password'), value(hash, 'USER_PASSWORD'))).toBe(true);
    expect(value(hash, 'USER_PASSWORD')).toMatch(/^\$2[aby]\$10\$/);
    expect(value(dexClient, 'OIDC_CLIENT_SECRET')).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(value(proxyClient, 'client-secret')).toBe(value(dexClient, 'OIDC_CLIENT_SECRET'));
    expect(Buffer.from(value(cookie, 'cookie-secret'), 'base64url')).toHaveLength(32);
    expect(value(cookie, 'cookie-secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Not in the ApplySet (prune leaves them), marked as generated for the platform.
    for (const s of [plain, hash, dexClient, proxyClient, cookie]) {
      expect(s.metadata.labels?.[APPLYSET_PART_OF]).toBeUndefined();
      expect(s.metadata.annotations[GENERATED_BY_ANNOTATION]).toBe('gensecret');
    }
    // Created before the workloads' phase, each once; the person's Secret with how to read it.
    const log = lines.join('\n');
    expect(lines.indexOf('10-controllers: 2 objects')).toBeLessThan(lines.findIndex((l) => l.includes('generated v1 Secret gen-auth/oidc-client')));
    expect(lines.findIndex((l) => l.includes('generated v1 Secret gen-auth/oidc-client'))).toBeLessThan(lines.findIndex((l) => /^ {2}dex: 1 created$/.test(l)));
    expect(log).toContain('  generated v1 Secret gen-auth/initial-password: the initial password of the static user; read it with: kubectl -n gen-auth get secret initial-password -o jsonpath=\'{.data.password}\' | base64 -d');
    for (const s of [plain, hash, dexClient, proxyClient, cookie]) for (const v of Object.values(s.data as Record<string, string>)) expect(log).not.toContain(Buffer.from(v, 'base64').toString('utf8'));
    expect(result.outcomes.filter((o) => o.note === 'generated').map((o) => o.ref).sort()).toEqual([
      'v1 Secret gen-auth/initial-password', 'v1 Secret gen-auth/oidc-client', 'v1 Secret gen-auth/passwords', 'v1 Secret gen-proxy/proxy-client', 'v1 Secret gen-proxy/proxy-cookie',
    ]);

    // SECRETS-KEPT: a second apply (with prune, the Secrets out of the output's objects) changes none of them.
    const live = await Promise.all([plain, hash, dexClient, proxyClient, cookie].map((s) => get(s.metadata.namespace, s.metadata.name)));
    const before = new Map(live.map((s) => [s.metadata.name, s.metadata.resourceVersion]));
    const again = await applyPlayed(client(), p, { prune: true });
    expect(again.result.unchanged).toBe(true);
    expect(again.result.outcomes.filter((o) => o.note === 'generated')).toEqual([]);
    for (const [name, rv] of before) {
      const ns = name.startsWith('proxy') ? 'gen-proxy' : 'gen-auth';
      expect((await get(ns, name)).metadata.resourceVersion).toBe(rv);
    }
    expect((await diffPlatform(client(), p)).generate).toEqual([]);
  }, 120_000);

  test('SECRETS-SHARED-EXISTING: a shared value is taken from the holder that exists; the person\'s Secret is not made again once its hash exists', async () => {
    const p = platform('sharedsecret', 'sh-auth', 'sh-proxy');
    await client().apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sh-proxy' } }, { fieldManager: 'test' });
    await client().apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sh-auth' } }, { fieldManager: 'test' });
    await client().apply(<Manifest>{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'proxy-client', namespace: 'sh-proxy' }, stringData: { 'client-secret': 'set-by-the-team' } }, { fieldManager: 'test' });
    await client().apply(<Manifest>{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'passwords', namespace: 'sh-auth' }, stringData: { USER_PASSWORD: bcrypt.hashSync('own', 10) } }, { fieldManager: 'test' });
    const { lines } = await applyPlayed(client(), p);
    expect(value((await client().get('v1', 'Secret', 'sh-auth', 'oidc-client'))!, 'OIDC_CLIENT_SECRET')).toBe('set-by-the-team');
    expect(value((await client().get('v1', 'Secret', 'sh-proxy', 'proxy-client'))!, 'client-secret')).toBe('set-by-the-team');
    expect(await client().get('v1', 'Secret', 'sh-auth', 'initial-password')).toBeUndefined();
    expect(lines).toContain('not generating Secret sh-auth/initial-password: no workload reads it and what derives from it exists already (a new value would not match)');
  }, 120_000);

  test('SECRETS-RBAC: preflight asks for get and create of Secrets in the namespaces of the Secrets it generates, and names what a token lacks', async () => {
    const admin = client();
    const write = (o: object) => admin.apply(o as Manifest, { fieldManager: 'test' });
    await write({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tokens-secrets' } });
    await write({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'applier', namespace: 'tokens-secrets' } });
    // Everything the run needs but creating Secrets outside 'default' (where the ApplySet parent lives).
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'test-secrets-applier' },
      rules: [
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'create', 'patch'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'create', 'patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
      ],
    });
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'test-secrets-applier' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'test-secrets-applier' },
      subjects: [{ kind: 'ServiceAccount', name: 'applier', namespace: 'tokens-secrets' }],
    });
    await write({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'test-secrets-parent', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'patch'] }] });
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'test-secrets-parent', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'test-secrets-parent' },
      subjects: [{ kind: 'ServiceAccount', name: 'applier', namespace: 'tokens-secrets' }],
    });
    const tr = await admin.request('POST', '/api/v1/namespaces/tokens-secrets/serviceaccounts/applier/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    const kc = new (loadKubeClient().KubeConfig)();
    const cluster = admin.kubeConfig.getCurrentCluster()!;
    kc.loadFromOptions({ clusters: [{ name: 'envtest', server: cluster.server, caData: cluster.caData }], users: [{ name: 'applier', token: tr.status.token }], contexts: [{ name: 'applier', cluster: 'envtest', user: 'applier' }], currentContext: 'applier' });
    const limited = new KubeClient(kc);
    const p = platform('rbacsecret', 'rb-auth', 'rb-proxy');
    let error: Error | undefined;
    // The RBAC authorizer learns of the bindings from a watch: until then every review is denied.
    for (let i = 0; i < 50; i++) {
      error = await applyPlatform(limited, p).then(() => undefined, (e) => e);
      if (error && !/not allowed to get core\/namespaces/.test(error.message)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(error).toBeInstanceOf(PreflightError);
    expect(error!.message).toContain('not allowed to create core/secrets in namespace rb-auth');
    expect(error!.message).toContain('not allowed to create core/secrets in namespace rb-proxy');
    expect(error!.message).not.toContain('not allowed to get core/secrets');
    expect(await admin.get('v1', 'Namespace', undefined, 'rb-auth')).toBeUndefined();
  }, 60_000);

  test('SECRETS-KEY-MISSING: a generated Secret that exists without one of its keys stops apply (it is never changed)', async () => {
    const p = platform('keysecret', 'ks-auth', 'ks-proxy');
    await client().apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ks-proxy' } }, { fieldManager: 'test' });
    await client().apply(<Manifest>{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'proxy-cookie', namespace: 'ks-proxy' }, stringData: { other: 'x' } }, { fieldManager: 'test' });
    await expect(applyPlatform(client(), p)).rejects.toThrow('Secret ks-proxy/proxy-cookie exists without key cookie-secret, which apply generates only in a Secret it creates (it never changes one that exists): the cookie secret, needed by Deployment ks-proxy/proxy; add the key, or delete the Secret so that apply generates it whole');
    expect(await client().get('v1', 'Namespace', undefined, 'ks-auth')).toBeUndefined();
  }, 60_000);
});
