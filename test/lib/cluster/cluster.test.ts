import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { reporterOf } from '../../../cli/cluster';
import { run } from '../../../cli/main';
import { READY_CONDITIONS } from '../../../lib/architecture';
import { pruneRank } from '../../../lib/cluster/apply';
import { applySetId, groupKind, withPartOf } from '../../../lib/cluster/applyset';
import { desiredFromDir, desiredFromModel } from '../../../lib/cluster/desired';
import { fieldChanges, formatPath, ignorePatterns, managersOf, normalize } from '../../../lib/cluster/diff';
import { conversionCaBundleReadiness, READY_CHECKS, webhookServices } from '../../../lib/cluster/waits';
import { REFERENCED_SECRETS_ANNOTATION } from '../../../lib/secrets';
import { buildPlatform, writeFiles } from '../../../lib/synth';
import { KubeflowPlatform, ServingPlatform, TrainingPlatform } from '../../../platforms';

jest.setTimeout(120_000);

async function cli(argv: string[], cwd = os.tmpdir()) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

describe('ApplySet', () => {
  test('the id follows KEP-3659 for a Secret parent: base64url(sha256(name.namespace.Secret.)) between applyset- and -v1', () => {
    // sha256("mlplatform-serving.default.Secret.") in unpadded base64url, computed independently.
    const hash = createHash('sha256').update('mlplatform-serving.default.Secret.').digest();
    const b64 = hash.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(applySetId({ name: 'mlplatform-serving', namespace: 'default' })).toBe(`applyset-${b64}-v1`);
    expect(applySetId({ name: 'mlplatform-serving', namespace: 'default' })).toMatch(/^applyset-[A-Za-z0-9_-]{43}-v1$/);
  });

  test('group-kinds are Kind.group, or Kind for the core group; the part-of label is added to a copy', () => {
    expect(groupKind({ apiVersion: 'apps/v1', kind: 'Deployment' })).toBe('Deployment.apps');
    expect(groupKind({ apiVersion: 'v1', kind: 'ConfigMap' })).toBe('ConfigMap');
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } } };
    expect(withPartOf(o, 'id').metadata.labels).toEqual({ 'x': 'y', 'applyset.kubernetes.io/part-of': 'id' });
    expect(o.metadata.labels).toEqual({ x: 'y' });
  });

  test('prune order: webhook configurations, custom resources, other objects, CRDs, Namespaces', () => {
    const kinds = [
      { apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
      { apiVersion: 'apps/v1', kind: 'Deployment' }, { apiVersion: 'example.com/v1', kind: 'Widget' },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration' },
    ];
    expect([...kinds].sort((a, b) => pruneRank(a) - pruneRank(b)).map((k) => k.kind))
      .toEqual(['MutatingWebhookConfiguration', 'Widget', 'Deployment', 'CustomResourceDefinition', 'Namespace']);
  });

  test('OPS-5: prune deletes workloads before the RBAC, ServiceAccounts, Services and configuration they use', () => {
    const kinds = [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding' }, { apiVersion: 'v1', kind: 'ServiceAccount' }, { apiVersion: 'v1', kind: 'Service' },
      { apiVersion: 'v1', kind: 'ConfigMap' }, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role' },
      { apiVersion: 'apps/v1', kind: 'Deployment' }, { apiVersion: 'apps/v1', kind: 'StatefulSet' }, { apiVersion: 'batch/v1', kind: 'CronJob' },
    ];
    const sorted = [...kinds].sort((a, b) => pruneRank(a) - pruneRank(b)).map((k) => k.kind);
    expect(sorted.slice(0, 3).sort()).toEqual(['CronJob', 'Deployment', 'StatefulSet']);
  });
});

describe('waits', () => {
  test('every readiness the cold-apply proof names has a check, and no other', () => {
    expect(Object.keys(READY_CHECKS).sort()).toEqual(Object.keys(READY_CONDITIONS).sort());
  });

  test('a Deployment is ready when Available for its current generation', () => {
    const d = (status: object, generation = 2) => READY_CHECKS.Deployment.check({ metadata: { generation }, status });
    expect(d({ observedGeneration: 2, conditions: [{ type: 'Available', status: 'True' }] })).toEqual({ ready: true, status: 'Available=True' });
    expect(d({ observedGeneration: 1, conditions: [{ type: 'Available', status: 'True' }] }).ready).toBe(false);
    expect(d({ conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] })).toEqual({ ready: false, status: 'Available=False (MinimumReplicasUnavailable)' });
  });

  test('a DaemonSet is rolled out only once its controller has observed it (the server\'s zero status is not enough)', () => {
    const zero = { desiredNumberScheduled: 0, numberReady: 0, currentNumberScheduled: 0, numberMisscheduled: 0 };
    expect(READY_CHECKS.DaemonSet.check({ metadata: { generation: 1 }, status: zero })).toEqual({ ready: false, status: '0/0 ready; not yet observed by its controller (observedGeneration unset, generation 1)' });
    expect(READY_CHECKS.DaemonSet.check({ metadata: { generation: 1 }, status: { ...zero, observedGeneration: 1 } }).ready).toBe(true);
    expect(READY_CHECKS.DaemonSet.check({ metadata: { generation: 1 }, status: { observedGeneration: 1, desiredNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2 } }).ready).toBe(false);
  });

  test('the Services of webhook configurations and of CRD conversion webhooks', () => {
    expect(webhookServices({ kind: 'ValidatingWebhookConfiguration', webhooks: [{ clientConfig: { service: { name: 's', namespace: 'n' } } }, { clientConfig: { service: { name: 's', namespace: 'n' } } }, { clientConfig: { url: 'https://x' } }] }))
      .toEqual([{ namespace: 'n', name: 's' }]);
    expect(webhookServices({ kind: 'CustomResourceDefinition', spec: { conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 'c', namespace: 'n' } } } } } })).toEqual([{ namespace: 'n', name: 'c' }]);
  });

  test('a CRD\'s conversion webhook is ready once given the CA bundle its injector was asked for; without a webhook or an injector nothing is waited for', () => {
    const crd = (annotations: Record<string, string>, caBundle?: string, strategy = 'Webhook') => ({
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.example.com', annotations },
      spec: { conversion: { strategy, webhook: { clientConfig: { service: { namespace: 'n', name: 'conv' }, ...(caBundle ? { caBundle } : {}) } } } },
    });
    const asked = { 'cert-manager.io/inject-ca-from': 'n/conv-cert' };
    expect(conversionCaBundleReadiness(crd(asked))).toEqual({ ready: false, status: "no caBundle in its conversion webhook (Service n/conv; cert-manager.io/inject-ca-from: n/conv-cert asks cert-manager's cainjector; is it running, and is the certificate issued?)" });
    expect(conversionCaBundleReadiness(crd(asked, 'Q0E='))).toEqual({ ready: true, status: 'caBundle injected' });
    expect(conversionCaBundleReadiness(crd({ 'service.beta.openshift.io/inject-cabundle': 'true' }))?.status).toMatch(/asks OpenShift's service CA operator/);
    expect(conversionCaBundleReadiness(crd({}))).toBeUndefined();
    expect(conversionCaBundleReadiness(crd({}), true)?.ready).toBe(false);
    expect(conversionCaBundleReadiness(crd(asked, undefined, 'None'))).toBeUndefined();
  });
});

describe('diff', () => {
  test('field changes leave out what the server keeps and the run-time fields of the ignore list', () => {
    const live = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w', resourceVersion: '5', managedFields: [] }, webhooks: [{ name: 'a', clientConfig: { caBundle: 'Q0E=' }, failurePolicy: 'Fail' }] };
    const want = { ...live, metadata: { name: 'w', resourceVersion: '6' }, webhooks: [{ name: 'a', clientConfig: { caBundle: 'b3Vycw==' }, failurePolicy: 'Ignore' }] };
    const ignored = [{ group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration', name: 'w', phase: '20-webhooks' as never, jsonPointers: [], jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'], reason: 'CA injected' }];
    const patterns = ignorePatterns(ignored, live);
    expect(patterns).toEqual([['webhooks', '*', 'clientConfig', 'caBundle']]);
    expect(fieldChanges(normalize(live), normalize(want), patterns).map((c) => formatPath(c.path))).toEqual(['webhooks[0].failurePolicy']);
    // Without the ignore list, the caBundle is a change too: the list is what leaves it out.
    expect(fieldChanges(normalize(live), normalize(want)).map((c) => formatPath(c.path))).toEqual(['webhooks[0].clientConfig.caBundle', 'webhooks[0].failurePolicy']);
  });

  test('drift names the field manager that owns the live value (keyed list items included)', () => {
    const live = {
      metadata: {
        managedFields: [
          { manager: 'mlplatform', operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
          { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"manager"}': { 'f:image': {} } } } } } } },
        ],
      },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'manager', image: 'x:2' }] } } },
    };
    expect(managersOf(live, ['spec', 'template', 'spec', 'containers', 0, 'image'], 'mlplatform')).toEqual(['kubectl-edit']);
    expect(managersOf(live, ['spec', 'replicas'], 'mlplatform')).toEqual([]);
  });
});

describe('desired state', () => {
  const build = buildPlatform(new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving'));

  test('from a built platform: objects in the order of the output files, cert-manager as a prerequisite with the kinds the objects use', () => {
    const d = desiredFromModel(build.model);
    const written = [...build.documents!.values()].flat();
    expect(d.objects.map((o) => o.json)).toEqual(written);
    const certManager = d.prerequisites.find((p) => p.name === 'cert-manager');
    expect(certManager?.kinds.map((k) => k.kind).sort()).toEqual(expect.arrayContaining(['Certificate']));
  });

  test('from a synthesized folder: the same objects, phases and components, and the same prerequisites by kind', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-desired-'));
    writeFiles(path.join(dir, 'serving'), build.files);
    // GitOps entry points next to the phases are not objects of the platform.
    writeFiles(path.join(dir, 'serving'), new Map([['argocd/root.yaml', 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: serving\n  namespace: argocd\n']]));
    const fromDir = desiredFromDir(path.join(dir, 'serving'), dir);
    expect(fromDir.objects.some((o) => o.json.kind === 'Application')).toBe(false);
    const fromModel = desiredFromModel(build.model);
    expect(fromDir.name).toBe('serving');
    expect(fromDir.objects.map((o) => `${o.phase} ${o.json.kind} ${o.json.metadata.name}`)).toEqual(fromModel.objects.map((o) => `${o.phase} ${o.json.kind} ${o.json.metadata.name}`));
    const components = new Set(fromModel.objects.map((o) => o.component));
    for (const o of fromDir.objects) if (o.json.kind !== 'Namespace') expect(components.has(o.component)).toBe(true);
    const kinds = (ps: typeof fromDir.prerequisites) => ps.flatMap((p) => p.kinds.map((k) => `${p.name} ${k.group}/${k.kind}`)).sort();
    expect(kinds(fromDir.prerequisites)).toEqual(kinds(fromModel.prerequisites.filter((p) => fromDir.prerequisites.some((q) => q.name === p.name))));
    expect(fromDir.prerequisites.map((p) => p.name)).toContain('cert-manager');
  });

  test('from a synthesized folder: the minimum Kubernetes of each component that needs a newer one than the oldest modelled, as from the model (its CRDs carry it)', () => {
    const training = buildPlatform(new TrainingPlatform(new App({ outdir: '/nonexistent' }), 'training'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-desired-'));
    writeFiles(path.join(dir, 'training'), training.files);
    const fromDir = desiredFromDir(path.join(dir, 'training'), dir);
    const gated = desiredFromModel(training.model).kubernetes!.filter((k) => k.min !== '1.28');
    expect(gated.map((k) => k.component).sort()).toEqual(['jobset', 'kueue', 'trainer']);
    expect([...fromDir.kubernetes!].sort((a, b) => a.component.localeCompare(b.component))).toEqual([...gated].sort((a, b) => a.component.localeCompare(b.component)));
    // A platform whose components all run on the oldest modelled Kubernetes carries none.
    writeFiles(path.join(dir, 'serving'), build.files);
    expect(desiredFromDir(path.join(dir, 'serving'), dir).kubernetes).toEqual([]);
  });

  test('from a synthesized folder: the referenced Secrets apply generates or requires, as from the model (the declaring components\' first workloads carry them, no value)', () => {
    const kubeflow = buildPlatform(new KubeflowPlatform(new App({ outdir: '/nonexistent' }), 'kubeflow'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-desired-'));
    writeFiles(path.join(dir, 'kubeflow'), kubeflow.files);
    const fromModel = desiredFromModel(kubeflow.model).secrets!;
    expect(fromModel.map((s) => `${s.namespace}/${s.name}`)).toEqual(expect.arrayContaining(['auth/dex-oidc-client', 'auth/dex-passwords', 'oauth2-proxy/oauth2-proxy']));
    const key = (s: { namespace: string; name: string }) => `${s.namespace}/${s.name}`;
    const sorted = <T extends { namespace: string; name: string }>(l: readonly T[]) => [...l].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sorted(desiredFromDir(path.join(dir, 'kubeflow'), dir).secrets!)).toEqual(sorted(fromModel));
    // A folder whose annotation was edited into something else says so, naming the object.
    const file = Object.keys(Object.fromEntries(kubeflow.files)).find((f) => kubeflow.files.get(f)!.includes(REFERENCED_SECRETS_ANNOTATION))!;
    const text = fs.readFileSync(path.join(dir, 'kubeflow', file), 'utf8');
    fs.writeFileSync(path.join(dir, 'kubeflow', file), text.replace(new RegExp(`${REFERENCED_SECRETS_ANNOTATION}: .*`), `${REFERENCED_SECRETS_ANNOTATION}: '{"not": "a list"}'`));
    expect(() => desiredFromDir(path.join(dir, 'kubeflow'), dir)).toThrow(/: annotation mlplatform\/referenced-secrets is not a list of referenced Secrets; synthesize the folder again$/);
  });
});

describe('wait progress', () => {
  const io = (isTTY: boolean) => {
    let err = '';
    return { io: { stdout: { write: () => true }, stderr: { isTTY, write: (s: string) => (err += s) }, cwd: '/' }, text: () => err };
  };

  test('on a terminal, progress overwrites one line and the next line replaces it', () => {
    const t = io(true);
    const r = reporterOf(t.io);
    r.line('  waiting for x: Available');
    r.progress('  waiting for x: Available (1 s; no Available condition)');
    r.progress('  waiting for x: Available (2 s; no Available condition)');
    r.line('  x: Available after 2 s');
    expect(t.text()).toBe('  waiting for x: Available\n\r\x1b[K  waiting for x: Available (1 s; no Available condition)\r\x1b[K  waiting for x: Available (2 s; no Available condition)\r\x1b[K  x: Available after 2 s\n');
  });

  test('elsewhere, plain lines only', () => {
    const t = io(false);
    const r = reporterOf(t.io);
    r.line('  waiting for x: Available');
    r.progress('  waiting for x: Available (1 s; no Available condition)');
    r.line('  x: Available after 1 s');
    expect(t.text()).toBe('  waiting for x: Available\n  x: Available after 1 s\n');
  });
});

describe('mlplatform apply and diff: usage', () => {
  test('fail with the option and the fix', async () => {
    expect((await cli(['apply'])).stderr).toMatch(/^mlplatform apply: --platform NAME or --dir FOLDER is required \(platforms: serving, /);
    expect((await cli(['apply', '--platform', 'nope'])).stderr).toMatch(/^mlplatform apply: no platform named 'nope'/);
    expect((await cli(['apply', '--platform', 'serving', '--dir', 'x'])).stderr).toMatch(/^mlplatform apply: give --platform NAME \(with --app FILE for your own app\) or --dir FOLDER, not both/);
    expect((await cli(['apply', '--platform', 'serving', '--dry-run=client'])).stderr).toMatch(/^mlplatform apply: --dry-run 'client' is not one of server/);
    expect((await cli(['apply', '--platform', 'serving', '--prune-crds'])).stderr).toMatch(/^mlplatform apply: --prune-crds works with --prune; add --prune/);
    expect((await cli(['apply', '--platform', 'serving', '--timeout', 'soon'])).stderr).toMatch(/^mlplatform apply: --timeout 'soon' is not a duration; give seconds or minutes, e.g. 300s or 5m/);
    expect((await cli(['apply', '--dir', 'no-such-folder'])).stderr).toMatch(/^mlplatform apply: --dir 'no-such-folder' is not a folder/);
    const diff = await cli(['diff', '--platform', 'serving', '--kubeconfig', 'no-such-kubeconfig']);
    expect(diff.stderr).toMatch(/^mlplatform diff: --kubeconfig 'no-such-kubeconfig' does not exist/);
    expect(diff.code).toBe(2);
  });

  test('a cluster that does not answer: apply exits 1, diff exits 2, each naming the server', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-kc-'));
    const kc = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kc, [
      'apiVersion: v1', 'kind: Config', 'current-context: c',
      'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
      'users: [{name: u, user: {token: t}}]', 'contexts: [{name: c, context: {cluster: c, user: u}}]',
    ].join('\n'));
    // Connection refused is retried within --timeout, then named.
    const d = await cli(['diff', '--platform', 'serving', '--kubeconfig', kc, '--timeout', '1s']);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/^mlplatform diff failed: .*ECONNREFUSED/);
    const a = await cli(['apply', '--platform', 'serving', '--kubeconfig', kc, '--timeout', '1s']);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain('to https://127.0.0.1:1');
    expect(a.stderr).toMatch(/mlplatform apply failed: cannot reach the API server at https:\/\/127\.0\.0\.1:1; re-run apply to resume \(ECONNREFUSED/);
    expect((await cli(['apply', '--platform', 'serving', '--kubeconfig', kc, '--context', 'other'])).stderr).toMatch(/^mlplatform apply: --context 'other' is not in the kubeconfig \(contexts: c\)/);
  });
});
