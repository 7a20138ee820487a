/**
 * apply, diff and prune of small hand-made platforms on a real API server (webhook admission
 * off), the test playing the controllers: phase order and waits, a wait that times out,
 * drift by another field manager, run-time fields ignored, the prune set, prune order and
 * CRDs kept while custom resources remain.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'yaml';
import { run } from '../../cli/main';
import { Kueue } from '../../constructs/kueue';
import { applyPlatform, conflictsOf, PreflightError, PrerequisiteError } from '../../lib/cluster/apply';
import { APPLYSET_GROUP_KINDS, APPLYSET_PART_OF, applySetId, applySetParent, listMembers, readApplySet, UnresolvedKindError, withPartOf } from '../../lib/cluster/applyset';
import { ApiError, KubeClient, loadKubeClient } from '../../lib/cluster/client';
import { DesiredObject, DesiredPlatform, Manifest } from '../../lib/cluster/desired';
import { diffPlatform, formatPath } from '../../lib/cluster/diff';
import { fieldManagerFor } from '../../lib/cluster/options';
import { CERT_MANAGER } from '../../lib/component';
import { ignoredFields } from '../../lib/gitops/ignore';
import { Phase } from '../../lib/phases';
import { Platform } from '../../lib/platform';
import { buildPlatform, PlatformApp, writeFiles } from '../../lib/synth';
import { ApiServer, describeWithApiServer } from '../support/apiserver';
import { applyPlayed, playControllers } from '../support/controllers';
import { startFaultProxy } from '../support/fault-proxy';

/** One component of a hand-made platform: a CRD, a controller with a webhook, and a custom resource, in namespace `ns`. */
function component(name: string, ns: string, options: { caInjected?: boolean } = {}): DesiredObject[] {
  const group = `${name}.example.com`;
  const kind = name[0].toUpperCase() + name.slice(1, -1);
  const labels = { 'app.kubernetes.io/name': name };
  const o = (phase: Phase, json: Manifest): DesiredObject => ({ json, phase, component: name });
  return [
    o(Phase.FOUNDATION, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${name}.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { kind, plural: name, singular: kind.toLowerCase(), listKind: `${kind}List` },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    }),
    o(Phase.CONTROLLERS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `${name}-controller`, namespace: ns } }),
    o(Phase.CONTROLLERS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-config`, namespace: ns }, data: { level: 'info' } }),
    o(Phase.CONTROLLERS, { apiVersion: 'v1', kind: 'Service', metadata: { name: `${name}-webhook`, namespace: ns }, spec: { selector: labels, ports: [{ port: 443, targetPort: 9443 }] } }),
    o(Phase.CONTROLLERS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `${name}-controller`, namespace: ns },
      spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { serviceAccountName: `${name}-controller`, containers: [{ name: 'manager', image: `example.com/${name}:v1.0.0` }] } } },
    }),
    o(Phase.WEBHOOKS, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: `${name}-validating`, ...(options.caInjected ? { annotations: { 'cert-manager.io/inject-ca-from': `${ns}/${name}-cert` } } : {}) },
      webhooks: [{
        name: `v${kind.toLowerCase()}.${group}`,
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Fail',
        clientConfig: { service: { name: `${name}-webhook`, namespace: ns, path: '/validate' } },
        rules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [name] }],
      }],
    }),
    o(Phase.RESOURCES, { apiVersion: `${group}/v1`, kind, metadata: { name: 'default', namespace: ns }, spec: { size: 1 } }),
  ];
}

function platform(name: string, ns: string, components: DesiredObject[][]): DesiredPlatform {
  const objects = [
    { json: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, phase: Phase.FOUNDATION, component: 'namespaces' },
    ...components.flat(),
  ];
  const ordered = [Phase.FOUNDATION, Phase.CONTROLLERS, Phase.WEBHOOKS, Phase.RESOURCES].flatMap((p) => objects.filter((o) => o.phase === p));
  return { name, objects: ordered, prerequisites: [], ignored: ignoredFields({ objects: ordered.map((o) => ({ json: o.json, phase: o.phase as Phase })), runtimeChanges: [] }) };
}

/** Writes a platform as a synthesized folder (<phase>/<nn>-<component>.yaml). */
function writeDir(p: DesiredPlatform): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-cluster-')), p.name);
  const files = new Map<string, unknown[]>();
  for (const o of p.objects) {
    const file = path.join(dir, o.phase, `01-${o.component}.yaml`);
    files.set(file, [...(files.get(file) ?? []), o.json]);
  }
  for (const [file, docs] of files) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
  }
  return dir;
}

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd: os.tmpdir() });
  return { code, stdout, stderr };
}


/** A CRD of group multi.example.com served at the given versions (the first is stored). */
function multiCrd(kind: string, plural: string, versions: string[]): Manifest {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.multi.example.com` },
    spec: {
      group: 'multi.example.com',
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: versions.map((v, i) => ({ name: v, served: true, storage: i === 0, schema })),
    },
  };
}

/**
 * A kubeconfig for a ServiceAccount token that holds exactly `rules` cluster-wide (made by the
 * admin through the TokenRequest API), written to a file for the CLI.
 */
async function limitedKubeconfig(admin: KubeClient, name: string, rules: object[]) {
  await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tokens' } }, { fieldManager: 'test' });
  await admin.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'tokens' } }, { fieldManager: 'test' });
  await admin.apply({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: `test-${name}` }, rules } as Manifest, { fieldManager: 'test' });
  await admin.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `test-${name}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `test-${name}` },
    subjects: [{ kind: 'ServiceAccount', name, namespace: 'tokens' }],
  } as Manifest, { fieldManager: 'test' });
  const tr = await admin.request('POST', `/api/v1/namespaces/tokens/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
  const cluster = admin.kubeConfig.getCurrentCluster()!;
  const kc = new (loadKubeClient().KubeConfig)();
  kc.loadFromOptions({
    clusters: [{ name: 'envtest', server: cluster.server, caData: cluster.caData, skipTLSVerify: false }],
    users: [{ name, token: tr.status.token }],
    contexts: [{ name, cluster: 'envtest', user: name }],
    currentContext: name,
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-token-')), 'kubeconfig');
  fs.writeFileSync(file, kc.exportConfig(), { mode: 0o600 });
  const client = new KubeClient(kc);
  // The RBAC authorizer learns of the binding from a watch: wait until the token may read namespaces.
  for (let i = 0; i < 50; i++) {
    const r = await client.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'namespaces' } } });
    if (r.status.allowed) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  return { client, file };
}

/** A kubeconfig file for the admin user of `server`, reaching it at `url` (a proxy in front of it). */
function kubeconfigVia(server: ApiServer, url: string): string {
  const kc = new (loadKubeClient().KubeConfig)();
  const cluster = server.kubeConfig.getCurrentCluster()!;
  kc.loadFromOptions({
    clusters: [{ name: 'proxied', server: url, caData: cluster.caData, skipTLSVerify: false }],
    users: [{ name: 'admin', token: server.kubeConfig.getCurrentUser()!.token }],
    contexts: [{ name: 'proxied', cluster: 'proxied', user: 'admin' }],
    currentContext: 'proxied',
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-proxied-')), 'kubeconfig');
  fs.writeFileSync(file, kc.exportConfig(), { mode: 0o600 });
  return file;
}

describeWithApiServer('mlplatform apply, diff and prune of hand-made platforms', (server) => {
  const client = () => new KubeClient(server().kubeConfig);

  test('applies in phase order: custom resources after their CRD is Established, webhooks after their Service has a ready endpoint', async () => {
    const p = platform('order', 'order', [component('widgets', 'order')]);
    const { result, lines } = await applyPlayed(client(), p);
    expect(result.outcomes.map((o) => o.phase)).toEqual(p.objects.map((o) => o.phase));
    expect(result.outcomes.every((o) => o.action === 'created')).toBe(true);
    // The webhook phase began only after its Service had an endpoint, and that after the Deployment was Available.
    // In the log, each of these follows the one before it.
    const sequence = [
      /^00-foundation: 2 objects$/, /^ {2}widgets: 1 created$/, /CustomResourceDefinition widgets.widgets.example.com: Established/,
      /^10-controllers: 4 objects$/, /^ {2}widgets: 4 created$/, /Deployment order\/widgets-controller: Available/,
      /^20-webhooks: 1 objects$/, /Service order\/widgets-webhook: a ready endpoint/, /^ {2}widgets: 1 created$/,
      /^30-resources: 1 objects$/, /^ {2}widgets: 1 created$/,
    ];
    let from = -1;
    for (const re of sequence) {
      const i = lines.findIndex((l, n) => n > from && re.test(l));
      expect({ re: String(re), found: i > from }).toEqual({ re: String(re), found: true });
      from = i;
    }
    expect(lines[lines.length - 1]).toBe(`${p.objects.length} created, 0 configured, 0 unchanged, 0 pruned`);
    expect(await client().get('widgets.example.com/v1', 'Widget', 'order', 'default')).toBeDefined();
  }, 120_000);

  test('a webhook whose backend comes in the same phase is not waited for (it could not be up), and says so', async () => {
    const objects = component('sames', 'same').map((o) => (o.json.kind === 'ValidatingWebhookConfiguration' ? { ...o, phase: Phase.CONTROLLERS } : o));
    const p = platform('same', 'same', [objects]);
    const { result, lines } = await applyPlayed(client(), p);
    expect(lines).toContain('  not waiting for v1 Service same/sames-webhook: it is applied in 10-controllers, not before (see the cold-apply order in REPORT.md)');
    expect(result.outcomes.every((o) => o.action === 'created')).toBe(true);
  }, 60_000);

  test('a wait that times out names the object, the condition and the last status seen', async () => {
    const p = platform('stuck', 'stuck', [component('stalls', 'stuck')]);
    const player = playControllers(client(), { available: () => false });
    try {
      await expect(applyPlatform(client(), p, { timeoutMs: 1500, intervalMs: 200 }))
        .rejects.toThrow('apps/v1 Deployment stuck/stalls-controller: not Available after 2 s; last seen: no Available condition');
    } finally {
      await player.stop();
    }
    // The webhook configuration was never applied.
    expect(await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'stalls-validating')).toBeUndefined();
  }, 60_000);

  test('CONVERSION-CA: an object at a version its CRD converts waits for the conversion webhook\'s CA bundle, naming the CRD and who was asked; it is not sent before', async () => {
    const objects = component('converts', 'conv', { caInjected: true }).filter((o) => o.json.kind !== 'ValidatingWebhookConfiguration').map((o) => {
      const json = o.json;
      if (json.kind === 'CustomResourceDefinition') {
        const schema = json.spec.versions[0].schema;
        return {
          ...o,
          json: {
            ...json,
            metadata: { ...json.metadata, annotations: { 'cert-manager.io/inject-ca-from': 'conv/converts-cert' } },
            spec: {
              ...json.spec,
              versions: [{ name: 'v1', served: true, storage: true, schema }, { name: 'v1beta1', served: true, storage: false, schema }],
              conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'conv', name: 'converts-webhook', path: '/convert' } } } },
            },
          },
        };
      }
      return o.phase === Phase.RESOURCES ? { ...o, json: { ...json, apiVersion: 'converts.example.com/v1beta1' } } : o;
    });
    const p = platform('conv', 'conv', [objects]);
    const { lines } = await applyPlayed(client(), p, { timeoutMs: 1500 }).then(() => ({ lines: [] as string[] }), (e: Error) => {
      expect(e.message).toBe('apiextensions.k8s.io/v1 CustomResourceDefinition converts.converts.example.com: not given its CA bundle for the conversion webhook (converts.example.com/v1beta1 objects are converted to v1) after 2 s; '
        + "last seen: no caBundle in its conversion webhook (Service conv/converts-webhook; cert-manager.io/inject-ca-from: conv/converts-cert asks cert-manager's cainjector; is it running, and is the certificate issued?)");
      return { lines: ['failed'] };
    });
    expect(lines).toEqual(['failed']);
    // The custom resource was not sent (the API server would have called a webhook it cannot trust).
    expect(await client().get('converts.example.com/v1', 'Convert', 'conv', 'default')).toBeUndefined();
  }, 60_000);

  test('stops before any change when a prerequisite is not served', async () => {
    const p = { ...platform('prereq', 'prereq', [component('needs', 'prereq')]), prerequisites: [{ name: 'cert-manager', kinds: [{ group: 'cert-manager.io', version: 'v1', kind: 'Certificate' }] }] };
    await expect(applyPlatform(client(), p)).rejects.toThrow(PrerequisiteError);
    await expect(applyPlatform(client(), p)).rejects.toThrow('prerequisite cert-manager is missing: the server does not serve cert-manager.io/v1 Certificate');
    expect(await client().get('v1', 'Namespace', undefined, 'prereq')).toBeUndefined();
  }, 60_000);

  test('PREFLIGHT-NAMESPACE: stops before any change when a namespace the output uses but does not create is missing, naming it and an object there', async () => {
    const p = platform('nsless', 'nsless', [component('nsuser', 'nsless')]);
    const elsewhere = { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gateway-settings', namespace: 'istio-system-missing' }, data: { a: 'b' } }, phase: Phase.CONTROLLERS, component: 'nsuser' };
    const withOutside = { ...p, objects: [...p.objects, elsewhere] };
    await expect(applyPlatform(client(), withOutside)).rejects.toThrow(PrerequisiteError);
    await expect(applyPlatform(client(), withOutside)).rejects.toThrow('namespace istio-system-missing does not exist and the output does not create it: 1 object goes there (');
    expect(await client().get('v1', 'Namespace', undefined, 'nsless')).toBeUndefined();
  }, 60_000);

  test('a server-side dry run stores nothing', async () => {
    const p = platform('dry', 'dry', [component('drafts', 'dry')]);
    const r = await cli(['apply', '--dir', writeDir(p), '--kubeconfig', server().kubeconfigPath, '--dry-run=server']);
    expect(r.stderr).toContain(`dry run (server): ${p.objects.length} created`);
    expect(r.code).toBe(0);
    expect(await client().get('v1', 'Namespace', undefined, 'dry')).toBeUndefined();
    expect(await client().get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'drafts.drafts.example.com')).toBeUndefined();
  }, 60_000);

  test('diff names drift by another field manager and exits 1; 0 once applied again; a CA injected meanwhile stays', async () => {
    const p = platform('drift', 'drift', [component('gizmos', 'drift', { caInjected: true })]);
    const dir = writeDir(p);
    await applyPlayed(client(), p);
    expect((await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath])).code).toBe(0);
    // Someone edits the ConfigMap; a CA injector fills the caBundle (a run-time field).
    const edited: Manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gizmos-config', namespace: 'drift' }, data: { level: 'debug' } };
    await client().apply(edited, { fieldManager: 'kubectl-edit' });
    const vwc = (await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'gizmos-validating'))!;
    await client().request('PUT', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/gizmos-validating?fieldManager=cainjector',
      { ...vwc, webhooks: vwc.webhooks.map((w: { clientConfig: object }) => ({ ...w, clientConfig: { ...w.clientConfig, caBundle: Buffer.from('a CA').toString('base64') } })) });

    const d = await diffPlatform(client(), p);
    const changed = d.objects.filter((o) => o.action !== 'unchanged');
    expect(changed.map((o) => o.ref)).toEqual(['v1 ConfigMap drift/gizmos-config']);
    expect(changed[0].changes.map((c) => ({ path: formatPath(c.path), from: c.from, to: c.to, managers: c.managers })))
      .toEqual([{ path: 'data.level', from: 'debug', to: 'info', managers: ['kubectl-edit'] }]);

    const r = await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath]);
    expect(r.stdout).toContain('gizmos (10-controllers):\n  ~ v1 ConfigMap drift/gizmos-config\n      data.level: "debug" -> "info"  [drift: set by kubectl-edit]\n');
    expect(r.stdout).toContain('0 to create, 1 to change, 0 to prune');
    expect(r.code).toBe(1);

    const again = await cli(['apply', '--dir', dir, '--kubeconfig', server().kubeconfigPath]);
    // The forced apply says whose field it took.
    expect(again.stderr).toContain('configured v1 ConfigMap drift/gizmos-config (took over fields of kubectl-edit: .data.level)');
    expect(again.code).toBe(0);
    expect((await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath])).code).toBe(0);
    // The caBundle stays as the injector wrote it.
    const after = await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'gizmos-validating');
    expect(after?.webhooks[0].clientConfig.caBundle).toBe(Buffer.from('a CA').toString('base64'));
  }, 120_000);

  test('UNCHANGED: applying an unchanged platform again sends no dry run where the live objects show nothing would change; a field another manager changed, one left out of the output and one added are still applied', async () => {
    const p = platform('again', 'again', [component('sprockets', 'again', { caInjected: true })]);
    await applyPlayed(client(), p);
    // A client that records the dry runs apply sends.
    const c = client();
    const dryRuns: string[] = [];
    const apply = c.apply.bind(c);
    c.apply = (obj, options) => {
      if (options.dryRun) dryRuns.push(`${obj.kind} ${obj.metadata.name}`);
      return apply(obj, options);
    };
    // A CA injector fills the caBundle (a field apply does not set) meanwhile.
    const vwc = (await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'sprockets-validating'))!;
    await client().request('PUT', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/sprockets-validating?fieldManager=cainjector',
      { ...vwc, webhooks: vwc.webhooks.map((w: { clientConfig: object }) => ({ ...w, clientConfig: { ...w.clientConfig, caBundle: Buffer.from('a CA').toString('base64') } })) });
    const again = await applyPlayed(c, p);
    expect(again.result.unchanged).toBe(true);
    expect(again.result.outcomes.map((o) => o.action)).toEqual(p.objects.map(() => 'unchanged'));
    // All but two: the webhook configuration, whose rules are a list owned whole to which the
    // server adds a default (scope: *), so whether it equals the output is the server's to say;
    // and the custom resource its webhook guards (a dry run calls the webhook: a re-apply still
    // finds a webhook that no longer answers).
    const asked = ['ValidatingWebhookConfiguration sprockets-validating', 'Sprocket default'];
    expect(dryRuns).toEqual(asked);
    // diff knows the same: the same two dry runs, every object unchanged.
    dryRuns.length = 0;
    const same = await diffPlatform(c, p);
    expect([same.objects.filter((o) => o.action !== 'unchanged'), same.errors, dryRuns]).toEqual([[], [], asked]);

    // Someone else sets a field apply owns: the dry run finds it, and the forced apply takes it back.
    const edit: Manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sprockets-config', namespace: 'again' }, data: { level: 'debug' } };
    await client().apply(edit, { fieldManager: 'kubectl-edit' });
    // diff sends its dry run for it, and names the change.
    dryRuns.length = 0;
    const drift = await diffPlatform(c, p);
    expect(drift.objects.filter((o) => o.action !== 'unchanged').map((o) => `${o.ref}: ${o.changes.map((x) => `${formatPath(x.path)} ${x.managers.join()}`).join()}`))
      .toEqual(['v1 ConfigMap again/sprockets-config: data.level kubectl-edit']);
    expect(dryRuns).toEqual(['ConfigMap sprockets-config', ...asked]);
    dryRuns.length = 0;
    const edited = await applyPlayed(c, p);
    expect(edited.result.outcomes.filter((o) => o.action !== 'unchanged').map((o) => `${o.ref}: ${o.action} ${o.overrode?.join() ?? ''}`))
      .toEqual(['v1 ConfigMap again/sprockets-config: configured kubectl-edit: .data.level']);
    // (A dry run that conflicts is made again after a fresh read: twice for the ConfigMap.)
    expect([...new Set(dryRuns)]).toEqual(['ConfigMap sprockets-config', ...asked]);
    expect((await client().get('v1', 'ConfigMap', 'again', 'sprockets-config'))?.data).toEqual({ level: 'info' });

    // A field added to the output, then left out again: each applied, the second removes it.
    const withExtra = (extra?: string): DesiredPlatform => ({ ...p, objects: p.objects.map((o) => (o.json.kind === 'ConfigMap' ? { ...o, json: { ...o.json, data: { level: 'info', ...(extra ? { extra } : {}) } } } : o)) });
    for (const [q, data] of [[withExtra('1'), { level: 'info', extra: '1' }], [withExtra(), { level: 'info' }]] as const) {
      dryRuns.length = 0;
      const r = await applyPlayed(c, q);
      expect(r.result.outcomes.filter((o) => o.action !== 'unchanged').map((o) => `${o.ref}: ${o.action}`)).toEqual(['v1 ConfigMap again/sprockets-config: configured']);
      expect(dryRuns).toEqual(['ConfigMap sprockets-config', ...asked]);
      expect((await client().get('v1', 'ConfigMap', 'again', 'sprockets-config'))?.data).toEqual(data);
    }
    // The caBundle stays as the injector wrote it.
    expect((await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'sprockets-validating'))?.webhooks[0].clientConfig.caBundle)
      .toBe(Buffer.from('a CA').toString('base64'));
  }, 120_000);

  test('prune deletes what left the output: webhooks first, in reverse phase order; keeps a CRD with custom resources unless --prune-crds', async () => {
    const both = platform('prune', 'prune', [component('keeps', 'prune'), component('leaves', 'prune')]);
    await applyPlayed(client(), both);
    // A custom resource of the leaving CRD made by someone else (not in the ApplySet).
    const users: Manifest = { apiVersion: 'leaves.example.com/v1', kind: 'Leave', metadata: { name: 'users', namespace: 'prune' } };
    await client().apply(users, { fieldManager: 'a-user' });
    const one = platform('prune', 'prune', [component('keeps', 'prune')]);

    // diff shows the prune set.
    const d = await diffPlatform(client(), one);
    expect(d.prune.sort()).toEqual([
      'admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration leaves-validating',
      'apiextensions.k8s.io/v1 CustomResourceDefinition leaves.leaves.example.com',
      'apps/v1 Deployment prune/leaves-controller',
      'leaves.example.com/v1 Leave prune/default',
      'v1 ConfigMap prune/leaves-config',
      'v1 Service prune/leaves-webhook',
      'v1 ServiceAccount prune/leaves-controller',
    ]);

    // Without --prune, nothing is deleted.
    const { lines: noPrune } = await applyPlayed(client(), one);
    expect(noPrune.filter((l) => l.includes('pruned'))).toEqual([]);
    expect(await client().get('v1', 'ConfigMap', 'prune', 'leaves-config')).toBeDefined();

    const { result, lines } = await applyPlayed(client(), one, { prune: true });
    const pruned = lines.filter((l) => /^ {2}(pruned|kept) /.test(l));
    expect(pruned[0]).toBe('  pruned admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration leaves-validating');
    expect(pruned[1]).toBe('  pruned leaves.example.com/v1 Leave prune/default');
    expect(pruned[pruned.length - 1]).toBe('  kept apiextensions.k8s.io/v1 CustomResourceDefinition leaves.leaves.example.com: 1 custom resources of it remain; delete them, or pass --prune-crds to delete the CRD and them');
    expect(result.outcomes.filter((o) => o.action === 'pruned').length).toBe(6);
    expect(await client().get('v1', 'ConfigMap', 'prune', 'leaves-config')).toBeUndefined();
    expect(await client().get('v1', 'ConfigMap', 'prune', 'keeps-config')).toBeDefined();
    expect(await client().get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'leaves.leaves.example.com')).toBeDefined();

    const { lines: crdLines } = await applyPlayed(client(), one, { prune: true, pruneCrds: true });
    expect(crdLines).toContain('  pruned apiextensions.k8s.io/v1 CustomResourceDefinition leaves.leaves.example.com');
    const parent = applySetParent('prune');
    const secret = await client().get('v1', 'Secret', parent.namespace, parent.name);
    expect(secret?.metadata.annotations['applyset.kubernetes.io/contains-group-kinds'])
      .toBe('ConfigMap,CustomResourceDefinition.apiextensions.k8s.io,Deployment.apps,Keep.keeps.example.com,Namespace,Service,ServiceAccount,ValidatingWebhookConfiguration.admissionregistration.k8s.io');
  }, 180_000);
  test('OPS-1: prune finds members whatever version of their group serves their kind; a member kind served in no version fails the prune', async () => {
    // multi.example.com prefers v1beta1 (Gadget); Relic is served only at v1alpha1, as ClusterServingRuntime in serving.kserve.io.
    const o = (phase: Phase, json: Manifest): DesiredObject => ({ json, phase, component: 'multi' });
    const crds = [o(Phase.FOUNDATION, multiCrd('Gadget', 'gadgets', ['v1beta1', 'v1alpha1'])), o(Phase.FOUNDATION, multiCrd('Relic', 'relics', ['v1alpha1']))];
    const gadget = o(Phase.RESOURCES, { apiVersion: 'multi.example.com/v1beta1', kind: 'Gadget', metadata: { name: 'g', namespace: 'versions' } });
    const relic = o(Phase.RESOURCES, { apiVersion: 'multi.example.com/v1alpha1', kind: 'Relic', metadata: { name: 'r', namespace: 'versions' } });
    await applyPlayed(client(), platform('versions', 'versions', [[...crds, gadget, relic]]));
    expect((await client().request('GET', '/apis/multi.example.com')).preferredVersion.groupVersion).toBe('multi.example.com/v1beta1');

    const without = platform('versions', 'versions', [[...crds, gadget]]);
    expect((await diffPlatform(client(), without)).prune).toEqual(['multi.example.com/v1alpha1 Relic versions/r']);
    const { lines } = await applyPlayed(client(), without, { prune: true });
    expect(lines).toContain('  pruned multi.example.com/v1alpha1 Relic versions/r');
    expect(await client().get('multi.example.com/v1alpha1', 'Relic', 'versions', 'r')).toBeUndefined();
    expect(await client().get('multi.example.com/v1beta1', 'Gadget', 'versions', 'g')).toBeDefined();

    // The parent names a kind nothing serves (its CRD was deleted by hand): prune stops and says why.
    const parent = applySetParent('versions');
    await client().request('PATCH', `/api/v1/namespaces/${parent.namespace}/secrets/${parent.name}`,
      { metadata: { annotations: { [APPLYSET_GROUP_KINDS]: 'Gadget.multi.example.com,Ghost.ghosts.example.com' } } }, 'application/merge-patch+json');
    // It is found before the first write (preflight), and listMembers itself refuses it.
    await expect(applyPlayed(client(), without, { prune: true })).rejects.toThrow(/^nothing was changed:\n {2}ApplySet default\/mlplatform-versions lists Ghost/);
    await expect(listMembers(client(), applySetId(parent), await readApplySet(client(), parent), parent)).rejects.toThrow(UnresolvedKindError);
    await expect(applyPlayed(client(), without, { prune: true })).rejects.toThrow(
      `ApplySet default/mlplatform-versions lists Ghost.ghosts.example.com in ${APPLYSET_GROUP_KINDS}, but the server serves this kind in no version of its group, so members of it cannot be found and nothing was pruned`);
  }, 120_000);
  test('OPS-2: a second platform stops before writing when an object belongs to another ApplySet; --adopt takes it and says so', async () => {
    const cm = (name: string): DesiredObject => ({ json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shared' }, data: { a: name } }, phase: Phase.CONTROLLERS, component: name });
    const first = platform('first', 'shared', [[cm('one')]]);
    const second = platform('second', 'shared', [[cm('two')]]);
    await applyPlayed(client(), first);
    const ns = await client().get('v1', 'Namespace', undefined, 'shared');
    expect(ns?.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain(fieldManagerFor('first'));
    const firstId = ns?.metadata.labels['applyset.kubernetes.io/part-of'];

    const stopped = applyPlayed(client(), second);
    await expect(stopped).rejects.toThrow(PreflightError);
    const message = await applyPlayed(client(), second).catch((e: Error) => e.message);
    expect(message).toContain('nothing was changed:');
    expect(message).toContain(`v1 Namespace shared belongs to ApplySet ${firstId} (parent Secret default/mlplatform-first), field manager mlplatform-first: ` +
      'applying would take it over; pass --adopt Namespace/shared (or --adopt all) to take it, or leave it out of this platform');
    // Nothing written: the label stays, the second platform's objects and parent are not there.
    expect((await client().get('v1', 'Namespace', undefined, 'shared'))?.metadata.labels['applyset.kubernetes.io/part-of']).toBe(firstId);
    expect(await client().get('v1', 'ConfigMap', 'shared', 'two')).toBeUndefined();
    expect(await client().get('v1', 'Secret', 'default', 'mlplatform-second')).toBeUndefined();

    const r = await cli(['apply', '--dir', writeDir(second), '--kubeconfig', server().kubeconfigPath, '--adopt', 'Namespace/shared']);
    expect(r.stderr).toContain(`adopting v1 Namespace shared from ApplySet ${firstId} (parent Secret default/mlplatform-first), field manager mlplatform-first (--adopt)`);
    expect(r.code).toBe(0);
    expect(await client().get('v1', 'ConfigMap', 'shared', 'two')).toBeDefined();
    const adopted = await client().get('v1', 'Namespace', undefined, 'shared');
    expect(adopted?.metadata.labels['applyset.kubernetes.io/part-of']).not.toBe(firstId);
  }, 120_000);

  test('CLIENT: an apply or GET asked for metadata only answers with apiVersion, kind and metadata (managedFields included), not the object', async () => {
    const cm: Manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'meta-only', namespace: 'default' }, data: { big: 'x'.repeat(10_000) } };
    for (const dryRun of [true, false]) {
      const answer = await client().apply(cm, { fieldManager: 'meta-test', metadataOnly: true, dryRun });
      expect(Object.keys(answer).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect([answer.apiVersion, answer.kind, answer.metadata.name, answer.metadata.managedFields.map((m: { manager: string }) => m.manager)]).toEqual(['v1', 'ConfigMap', 'meta-only', ['meta-test']]);
    }
    expect((await client().apply(cm, { fieldManager: 'meta-test' })).data.big).toHaveLength(10_000);
    const got = await client().get('v1', 'ConfigMap', 'default', 'meta-only', { metadataOnly: true });
    expect([Object.keys(got!).sort(), got!.apiVersion, got!.kind, got!.metadata.name]).toEqual([['apiVersion', 'kind', 'metadata'], 'v1', 'ConfigMap', 'meta-only']);
    expect(await client().get('v1', 'ConfigMap', 'default', 'no-such', { metadataOnly: true })).toBeUndefined();
  }, 60_000);
  test('ADOPT: objects taken over (--adopt) are applied without a dry run first; what each took from the other manager is named as the conflict would name it; a dry run writes nothing', async () => {
    const cm = (name: string, a: string): DesiredObject => ({ json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'adoptees' }, data: { a, b: 'same' } }, phase: Phase.CONTROLLERS, component: 'cms' });
    const first = platform('adopt-first', 'adoptees', [[cm('shared', 'first'), cm('firsts', 'first')]]);
    const second = platform('adopt-second', 'adoptees', [[cm('shared', 'second'), cm('seconds', 'second')]]);
    await applyPlayed(client(), first);
    const c = client();
    const dryRuns: string[] = [];
    const apply = c.apply.bind(c);
    c.apply = (obj, options) => {
      if (options.dryRun && options.force === false) dryRuns.push(`${obj.kind} ${obj.metadata.name}`);
      return apply(obj, options);
    };
    // What the server names as conflicts for a dry run without force (what apply sent first before).
    const secondId = applySetId(applySetParent('adopt-second'));
    const conflicts = async (json: Manifest) => {
      const e = await client().apply(withPartOf(json, secondId), { fieldManager: fieldManagerFor('adopt-second'), dryRun: true, force: false }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      return conflictsOf(e as ApiError);
    };
    const expected = [
      `v1 Namespace adoptees: configured ${(await conflicts(second.objects[0].json)).join('; ')}`,
      `v1 ConfigMap adoptees/shared: configured ${(await conflicts(second.objects[1].json)).join('; ')}`,
      'v1 ConfigMap adoptees/seconds: created ',
    ];
    expect(expected[1]).toContain(`${fieldManagerFor('adopt-first')}: `);
    expect(expected[1]).toContain('.data.a');
    expect(expected[1]).not.toContain('.data.b'); // the same value: shared, not taken
    const summary = (r: Awaited<ReturnType<typeof applyPlayed>>) => r.result.outcomes.map((o) => `${o.ref}: ${o.action} ${o.overrode?.join('; ') ?? ''}`);

    const shared = async () => (await client().get('v1', 'ConfigMap', 'adoptees', 'shared'))!;
    const before = await shared();
    const dry = await applyPlayed(c, second, { adopt: ['all'], dryRun: true });
    expect(summary(dry)).toEqual(expected);
    expect((await shared()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(await client().get('v1', 'ConfigMap', 'adoptees', 'seconds')).toBeUndefined();

    const applied = await applyPlayed(c, second, { adopt: ['all'] });
    expect(summary(applied)).toEqual(expected);
    expect(applied.lines).toContain(`    configured v1 ConfigMap adoptees/shared (took over fields of ${applied.result.outcomes[1].overrode!.join('; ')})`);
    expect(dryRuns).toEqual([]);
    const after = await shared();
    expect(after.data).toEqual({ a: 'second', b: 'same' });
    expect(after.metadata.labels[APPLYSET_PART_OF]).toBe(secondId);
    // The first platform's manager keeps only what both set alike.
    const firstEntry = after.metadata.managedFields.find((m: { manager: string }) => m.manager === fieldManagerFor('adopt-first'));
    expect(Object.keys(firstEntry.fieldsV1['f:data'])).toEqual(['f:b']);
    // Applied again: ours now, no longer adopted; unchanged.
    const again = await applyPlayed(c, second);
    expect(again.result.unchanged).toBe(true);
  }, 120_000);

  test('OPS-3: a server older than a component\'s minimum Kubernetes: nothing was changed, the reason listed', async () => {
    const p = { ...platform('tooold', 'tooold', [component('olds', 'tooold')]), kubernetes: [{ component: 'olds', min: '1.99', feature: 'a feature of 1.99' }] };
    const message = await applyPlatform(client(), p).catch((e: Error) => e.message);
    expect(message).toContain('nothing was changed:');
    expect(message).toContain(`component olds needs Kubernetes >= 1.99 (a feature of 1.99); the server is ${server().version}: upgrade the cluster, or disable olds`);
    for (const o of p.objects) expect(await client().get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name).catch(() => undefined)).toBeUndefined();
    expect(await client().get('v1', 'Secret', 'default', 'mlplatform-tooold')).toBeUndefined();
  }, 60_000);

  test('OPS-3: a token lacking one permission, and a read-only token: nothing was changed, what they lack listed', async () => {
    const p = platform('limited', 'limited', [component('tools', 'limited')]);
    const all = ['get', 'list', 'watch', 'patch', 'delete'];
    const lacking = await limitedKubeconfig(client(), 'no-deployment-create', [
      { apiGroups: ['*'], resources: ['*'], verbs: all },
      { apiGroups: ['', 'apiextensions.k8s.io', 'admissionregistration.k8s.io', 'tools.example.com'], resources: ['*'], verbs: ['create'] },
    ]);
    const message = await applyPlatform(lacking.client, p).catch((e: Error) => e.message);
    expect(message).toBe('nothing was changed:\n  not allowed to create apps/deployments in namespace limited');

    const readOnly = await limitedKubeconfig(client(), 'read-only', [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]);
    const r = await cli(['apply', '--dir', writeDir(p), '--kubeconfig', readOnly.file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was changed:');
    expect(r.stderr).toContain('not allowed to patch, create core/namespaces cluster-wide');
    expect(r.stderr).toContain('not allowed to patch, create apps/deployments in namespace limited');
    expect(r.stderr).toContain('not allowed to patch, create tools.example.com/tools in namespace limited');
    expect(r.stderr).toContain('not allowed to patch, create core/secrets in namespace default');
    // 0 objects written.
    for (const o of p.objects) expect(await client().get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name).catch(() => undefined)).toBeUndefined();
    expect(await client().get('v1', 'Secret', 'default', 'mlplatform-limited')).toBeUndefined();
  }, 60_000);
  test('OPS-5: through a proxy that answers 504 (context deadline exceeded) and resets connections, apply retries and completes', async () => {
    const p = platform('faults', 'faults', [component('flakes', 'faults')]);
    const proxy = await startFaultProxy(server(), (n) => (n % 11 === 0 ? 'reset' : n % 7 === 0 ? '504' : 'forward'));
    const player = playControllers(client());
    let r;
    try {
      r = await cli(['apply', '--dir', writeDir(p), '--kubeconfig', kubeconfigVia(server(), proxy.url), '--timeout', '60s']);
    } finally {
      await player.stop();
      await proxy.close();
    }
    expect(r.stderr).not.toContain('failed');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${p.objects.length} created, 0 configured, 0 unchanged, 0 pruned`);
    expect(proxy.log.filter((l) => l.fault === '504').length).toBeGreaterThan(1);
    expect(proxy.log.filter((l) => l.fault === 'reset').length).toBeGreaterThan(1);
    for (const o of p.objects) expect(await client().get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name)).toBeDefined();
  }, 120_000);

  test('OPS-5: the API server lost part way: "cannot reach the API server at URL; re-run apply to resume", with what was applied', async () => {
    const p = platform('lost', 'lost', [component('losts', 'lost')]);
    // After three writes (the ApplySet parent, the Namespace, the CRD), every connection is reset.
    let writes = 0;
    const proxy = await startFaultProxy(server(), (_n, method) => (writes >= 3 ? 'reset' : (method === 'PATCH' && writes++, 'forward')));
    const dir = writeDir(p);
    const player = playControllers(client());
    let r;
    try {
      r = await cli(['apply', '--dir', dir, '--kubeconfig', kubeconfigVia(server(), proxy.url), '--timeout', '2s']);
    } finally {
      await player.stop();
      await proxy.close();
    }
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`mlplatform apply failed: cannot reach the API server at ${proxy.url}; re-run apply to resume (ECONNRESET; `);
    expect(r.stderr).toMatch(/\nApplied before: 00-foundation: 2 created/);
    expect(r.stderr).toContain(`To resume: mlplatform apply --dir ${dir} --kubeconfig `);
  }, 120_000);

  test('OPS-5: SIGINT to a running apply: the request in flight finishes, exit 130, what was applied and how to resume', async () => {
    const p = platform('sigint', 'sigint', [component('halts', 'sigint')]);
    const dir = writeDir(p);
    const bin = path.join(__dirname, '../../bin/mlplatform.js');
    // Nothing makes the Deployment Available: apply waits for it until interrupted.
    const child = spawn(process.execPath, [bin, 'apply', '--dir', dir, '--kubeconfig', server().kubeconfigPath, '--timeout', '120s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('waiting for apps/v1 Deployment sigint/halts-controller')) resolve();
      });
      child.on('exit', () => reject(new Error(`apply exited before its wait:\n${stderr}`)));
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('interrupt: finishing the request in flight, then stopping');
    expect(stderr).toContain('interrupted: no request was sent after the interrupt; applied before it: 00-foundation: 2 created; 10-controllers: 4 created.');
    expect(stderr).toContain(`To resume (objects already applied are left as they are): mlplatform apply --dir ${dir} --kubeconfig ${server().kubeconfigPath} --timeout 120s`);
    // The webhook phase was never reached.
    expect(await client().get('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', undefined, 'halts-validating')).toBeUndefined();
  }, 180_000);
  test('OPS-3, OPS-6: apply --app FILE builds the user\'s platform; a component newer than the server (Kueue: 1.29) stops it before any write', async () => {
    const root = path.join(__dirname, '..', '..');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-app-'));
    fs.writeFileSync(path.join(dir, 'app.js'), [
      `const { PlatformApp } = require(${JSON.stringify(path.join(root, 'lib', 'synth'))});`,
      `const { Platform } = require(${JSON.stringify(path.join(root, 'lib', 'platform'))});`,
      `const { CERT_MANAGER } = require(${JSON.stringify(path.join(root, 'lib', 'component'))});`,
      `const { Kueue } = require(${JSON.stringify(path.join(root, 'constructs', 'kueue'))});`,
      'const app = new PlatformApp({ outdir: \'out\' });',
      'const platform = new Platform(app, \'mine\', { name: \'mine\', prerequisites: [CERT_MANAGER] });',
      'new Kueue(platform, \'kueue\');',
      'module.exports = { app };',
    ].join('\n'));
    let stderr = '';
    const r = await run(['apply', '--app', 'app.js', '--kubeconfig', server().kubeconfigPath], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, cwd: dir });
    expect(r).toBe(1);
    expect(stderr).toContain('apply mine (');
    expect(stderr).toContain('nothing was changed:');
    expect(stderr).toMatch(new RegExp(`component kueue needs Kubernetes >= 1\\.29 \\(.*\\); the server is ${server().version.replace('.', '\\.')}`));
    expect((await client().list('v1', 'Namespace')).map((n) => n.metadata.name)).not.toContain('kueue-system');
  }, 120_000);

  test('OPS-3: apply --dir of a written platform with a component newer than the server (Kueue: 1.29) stops before any write: the minimum travels with the output', async () => {
    const app = new PlatformApp({ outdir: '/nonexistent' });
    const mine = new Platform(app, 'mine-dir', { name: 'mine-dir', prerequisites: [CERT_MANAGER] });
    new Kueue(mine, 'kueue');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-dir-'));
    writeFiles(path.join(dir, 'mine-dir'), buildPlatform(mine).files);
    let stderr = '';
    const r = await run(['apply', '--dir', path.join(dir, 'mine-dir'), '--kubeconfig', server().kubeconfigPath], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, cwd: dir });
    expect(r).toBe(1);
    expect(stderr).toContain('nothing was changed:');
    expect(stderr).toMatch(new RegExp(`component kueue needs Kubernetes >= 1\\.29 \\(.*\\); the server is ${server().version.replace('.', '\\.')}`));
    expect(await client().get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'workloads.kueue.x-k8s.io')).toBeUndefined();
  }, 120_000);

  test('OPS-6: diff shows drift only on fields we own; --show-foreign lists the keys other managers added inside our objects', async () => {
    const p = platform('foreign', 'foreign', [component('aliens', 'foreign')]);
    const dir = writeDir(p);
    await applyPlayed(client(), p);
    await client().apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'aliens-config', namespace: 'foreign', annotations: { note: 'hi' } }, data: { extra: 'x' } } as Manifest, { fieldManager: 'someone' });
    const plain = await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain('extra');
    const shown = await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath, '--show-foreign']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('fields other managers added inside objects we own (apply leaves them; not counted as changes):\n  v1 ConfigMap foreign/aliens-config\n' +
      '      data.extra  [someone]\n      metadata.annotations.note  [someone]\n');
    const help = await cli(['diff', '--help']);
    expect(help.stdout).toContain('Shows drift only on fields we own');
    expect(help.stdout).toContain('--show-foreign');
  }, 60_000);
}, { webhookAdmission: false });
