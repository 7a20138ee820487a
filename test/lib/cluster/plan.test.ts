import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { run } from '../../../cli/main';
import { PLAN_CODES, planOutputs, versionJump } from '../../../lib/cluster/plan';
import { REFERENCED_SECRETS_ANNOTATION, ReferencedSecret, SecretValue } from '../../../lib/secrets';
import { buildPlatform, writeFiles } from '../../../lib/synth';
import { toYamlDocuments } from '../../../lib/yaml-writer';
import { ServingPlatform } from '../../../platforms';

jest.setTimeout(120_000);

type Json = Record<string, any>;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

const crd = (versions: Json[], name = 'widgets.example.com'): Json => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' }, versions },
});
const schema = (spec: Json) => ({ openAPIV3Schema: { type: 'object', properties: { spec } } });
const v1 = (spec: Json = { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } }, extra: Json = {}) => ({ name: 'v1', served: true, storage: true, schema: schema(spec), ...extra });
const webhooks = (hooks: Json[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'widgets' }, webhooks: hooks });
const hook = (extra: Json = {}) => ({ name: 'vwidget.example.com', failurePolicy: 'Ignore', clientConfig: { service: { name: 'widgets-webhook', namespace: 'widgets' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'] }], ...extra });
const deployment = (image: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'widgets', namespace: 'widgets' }, spec: { template: { spec: { containers: [{ name: 'manager', image }] } } } });
const rbac = (verbs: string[]) => [
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'widgets' }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'widgets' }, roleRef: { kind: 'ClusterRole', name: 'widgets' }, subjects: [{ kind: 'ServiceAccount', name: 'widgets', namespace: 'widgets' }] },
];

const codes = (from: Json[], to: Json[]) => planOutputs(from, to).map((f) => `${f.severity} ${f.code}: ${f.message}`);

describe('mlplatform plan: findings', () => {
  test('nothing changed: no findings', () => {
    expect(planOutputs([crd([v1()]), deployment('x:v1.0.0')], [crd([v1()]), deployment('x:v1.0.0')])).toEqual([]);
  });

  test('a served CRD version removed is dangerous; a version added is info; a storage change is a warning', () => {
    const v1beta1 = { ...v1(), name: 'v1beta1', storage: false };
    expect(codes([crd([v1beta1, v1()])], [crd([v1()])])).toEqual([expect.stringMatching(/^danger CRD_VERSION_UNSERVED: served version v1beta1 removed: .*status\.storedVersions/)]);
    expect(codes([crd([v1beta1, v1()])], [crd([{ ...v1beta1, served: false }, v1()])])).toEqual([expect.stringMatching(/^danger CRD_VERSION_UNSERVED: served version v1beta1 no longer served/)]);
    expect(codes([crd([v1()])], [crd([v1(), { ...v1(), name: 'v2', storage: false }])])).toEqual(['info CRD_VERSION_ADDED: version v2 added']);
    expect(codes([crd([v1beta1, v1()])], [crd([{ ...v1beta1, storage: true }, { ...v1(), storage: false }])]))
      .toEqual([expect.stringMatching(/^warning CRD_STORAGE_CHANGED: storage version v1 -> v1beta1/)]);
  });

  test('a schema field removed is dangerous; an open (preserve-unknown) parent keeps it', () => {
    expect(codes([crd([v1()])], [crd([v1({ type: 'object', properties: { size: { type: 'integer' } } })])]))
      .toEqual(['danger SCHEMA_FIELD_REMOVED: v1: field spec.color removed from the schema: the API server prunes it from stored objects when they are next written']);
    expect(codes([crd([v1()])], [crd([v1({ 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true })])])).toEqual([]);
    // A removed list is one finding, not one per field of its items.
    const list = v1({ type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } });
    expect(codes([crd([list])], [crd([v1({ type: 'object', properties: {} })])])).toEqual([expect.stringMatching(/^danger SCHEMA_FIELD_REMOVED: v1: field spec\.items removed/)]);
  });

  test('a newly required field and changed CEL rules are warnings', () => {
    const required = v1({ type: 'object', required: ['size'], properties: { size: { type: 'integer' }, color: { type: 'string' } } });
    expect(codes([crd([v1()])], [crd([required])])).toEqual(['warning FIELD_NEWLY_REQUIRED: v1: field spec.size now required: existing objects without it fail their next update']);
    const ruled = v1({ 'type': 'object', 'properties': { size: { type: 'integer' }, color: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.size > 0' }] });
    expect(codes([crd([v1()])], [crd([ruled])])).toEqual([expect.stringMatching(/^warning CEL_RULES_CHANGED: v1: CEL rules at spec changed: \+ self\.size > 0/)]);
  });

  test('webhooks added, removed, and changed in failurePolicy, rules, selectors or backend', () => {
    expect(codes([webhooks([])], [webhooks([hook()])])).toEqual(['info WEBHOOK_ADDED: webhook vwidget.example.com added (failurePolicy Ignore, backend Service widgets/widgets-webhook)']);
    expect(codes([], [webhooks([hook()])])).toEqual(['info WEBHOOK_ADDED: webhook vwidget.example.com added (failurePolicy Ignore, backend Service widgets/widgets-webhook)']);
    expect(codes([webhooks([hook()])], [webhooks([])])).toEqual([expect.stringMatching(/^warning WEBHOOK_REMOVED: webhook vwidget\.example\.com removed/)]);
    expect(codes([webhooks([hook()])], [webhooks([hook({ failurePolicy: 'Fail', objectSelector: { matchLabels: { a: 'b' } }, clientConfig: { service: { name: 'other', namespace: 'widgets' } } })])])).toEqual([
      'warning WEBHOOK_CHANGED: webhook vwidget.example.com: failurePolicy "Ignore" -> "Fail"',
      'warning WEBHOOK_CHANGED: webhook vwidget.example.com: objectSelector {} -> {"matchLabels":{"a":"b"}}',
      'warning WEBHOOK_CHANGED: webhook vwidget.example.com: backend "Service widgets/widgets-webhook" -> "Service widgets/other"',
    ]);
  });

  test('RBAC grants added or removed, per ServiceAccount', () => {
    expect(codes(rbac(['get', 'list']), rbac(['get', 'delete']))).toEqual([
      'warning RBAC_GRANT_REMOVED: ServiceAccount widgets/widgets loses: cluster-wide: list example.com/widgets',
      'info RBAC_GRANT_ADDED: ServiceAccount widgets/widgets gains: cluster-wide: delete example.com/widgets',
    ]);
  });

  test('images changed, with their version jump', () => {
    expect(codes([deployment('r/x:v1.2.0')], [deployment('r/x:v1.4.1')])).toEqual(['info IMAGE_CHANGED: container manager: r/x:v1.2.0 -> r/x:v1.4.1 (minor jump, 2 minor versions)']);
    expect(codes([deployment('r/x:v1.2.0')], [deployment('r/x:v2.0.0')])).toEqual(['warning IMAGE_MAJOR_CHANGE: container manager: r/x:v1.2.0 -> r/x:v2.0.0 (major jump (1.2 -> 2.0))']);
    expect(versionJump('v0.15.2', 'v0.16.0')).toEqual({ text: 'major jump (0.15 -> 0.16)', major: true });
    expect(versionJump('v1.2.0', 'v1.1.0')).toEqual({ text: 'downgrade', major: true });
    expect(versionJump('v1.2.0', 'v1.2.3')).toEqual({ text: 'patch', major: false });
  });

  test('objects pruned; namespaces and CRDs removed are dangerous', () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'widgets' } };
    expect(codes([ns, crd([v1()]), deployment('x:1')], [])).toEqual([
      'danger NAMESPACE_REMOVED: namespace removed: pruning it deletes everything in it, including objects not from this platform',
      'danger CRD_REMOVED: CRD removed: deleting it deletes every Widget on the cluster (apply --prune keeps it while custom resources remain)',
      'warning OBJECT_PRUNED: no longer in the output: apply --prune deletes it',
    ]);
  });

  test('OPS-4: a validating webhook\'s failurePolicy Fail -> Ignore is dangerous; Ignore -> Fail and a mutating webhook\'s are warnings', () => {
    expect(codes([webhooks([hook({ failurePolicy: 'Fail' })])], [webhooks([hook({ failurePolicy: 'Ignore' })])]))
      .toEqual(['danger WEBHOOK_FAILURE_POLICY_RELAXED: webhook vwidget.example.com: failurePolicy Fail -> Ignore: while its backend is down or slow, what it rejects is admitted unchecked']);
    // No failurePolicy means Fail.
    expect(codes([webhooks([hook({ failurePolicy: undefined })])], [webhooks([hook()])]).map((c) => c.split(':')[0])).toEqual(['danger WEBHOOK_FAILURE_POLICY_RELAXED']);
    const mutating = (policy: string) => ({ ...webhooks([hook({ failurePolicy: policy })]), kind: 'MutatingWebhookConfiguration' });
    expect(codes([mutating('Fail')], [mutating('Ignore')])).toEqual(['warning WEBHOOK_CHANGED: webhook vwidget.example.com: failurePolicy "Fail" -> "Ignore"']);
  });

  test('OPS-4: dangerous grants: wildcards, cluster-wide Secrets read, escalate/bind/impersonate, writes to webhook configurations or RBAC', () => {
    const role = (rules: Json[]) => [{ ...rbac([])[0], rules }, rbac([])[1]];
    const gained = (rules: Json[]) => codes(role([]), role(rules)).filter((c) => !c.startsWith('info RBAC_GRANT_ADDED'));
    expect(gained([{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }]))
      .toEqual(['danger RBAC_WILDCARD_GRANTED: ServiceAccount widgets/widgets gains a wildcard grant (every group, resource or verb, including those added later): cluster-wide: get */pods']);
    expect(gained([{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]))
      .toEqual(['danger RBAC_SECRETS_READ_CLUSTER_WIDE: ServiceAccount widgets/widgets gains read access to Secrets in every namespace: cluster-wide: list core/secrets']);
    // One named Secret, or Secrets in one namespace, are not cluster-wide reads.
    expect(gained([{ apiGroups: [''], resources: ['secrets'], resourceNames: ['one'], verbs: ['get'] }])).toEqual([]);
    expect(gained([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate', 'bind'] }]).map((c) => c.split(':')[0]))
      .toEqual(['danger RBAC_ESCALATION_GRANTED']);
    expect(gained([{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]).map((c) => c.split(':')[0])).toEqual(['danger RBAC_ESCALATION_GRANTED']);
    expect(gained([{ apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['patch'] }]))
      .toEqual([expect.stringMatching(/^danger RBAC_WRITES_WEBHOOKS: ServiceAccount widgets\/widgets gains write access to admission webhook configurations .*: cluster-wide: patch admissionregistration.k8s.io\/validatingwebhookconfigurations$/)]);
    // Reading them is not.
    expect(gained([{ apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], verbs: ['get'] }])).toEqual([]);
    expect(gained([{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: ['create'] }]).map((c) => c.split(':')[0])).toEqual(['danger RBAC_WRITES_RBAC']);
    // `*` everything: every risk at once.
    expect(gained([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]).map((c) => c.split(':')[0])).toEqual([
      'danger RBAC_WILDCARD_GRANTED', 'danger RBAC_SECRETS_READ_CLUSTER_WIDE', 'danger RBAC_ESCALATION_GRANTED', 'danger RBAC_WRITES_WEBHOOKS', 'danger RBAC_WRITES_RBAC',
    ]);
    // A grant kept is no finding.
    expect(codes(role([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), role([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]))).toEqual([]);
  });

  test('OPS-4: Pod Security enforce lowered or removed, and a NetworkPolicy removed, are dangerous; raised is no finding', () => {
    const ns = (level?: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'widgets', labels: level ? { 'pod-security.kubernetes.io/enforce': level } : {} } });
    expect(codes([ns('restricted')], [ns('baseline')])).toEqual(['danger POD_SECURITY_LOWERED: pod-security.kubernetes.io/enforce restricted -> baseline: pods the namespace refused are admitted']);
    expect(codes([ns('baseline')], [ns()]).map((c) => c.split(':')[0])).toEqual(['danger POD_SECURITY_LOWERED']);
    expect(codes([ns('baseline')], [ns('restricted')])).toEqual([]);
    const np = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny', namespace: 'widgets' }, spec: { podSelector: {} } };
    expect(codes([np], [])).toEqual(['danger NETWORK_POLICY_REMOVED: NetworkPolicy removed: apply --prune deletes it, and the pods it isolated accept traffic it denied']);
  });

  test('referenced Secrets (read by the platform, not in its output): one to provide, new keys, one apply generates, one no longer read', () => {
    const hint = (name: string) => `kubectl -n auth create secret generic ${name} --from-literal=client-secret=...`;
    const base = { namespace: 'auth', component: 'dex', purpose: 'the OIDC client', generate: {}, keys: ['client-secret'], forPeople: false, neededBy: ['Deployment auth/dex'] };
    const ref = (name: string, extra: Partial<ReferencedSecret> = {}): ReferencedSecret => ({ ...base, name, source: 'user', hint: hint(name), ...extra });
    const generated = (name: string, keys: string[]): ReferencedSecret => ({ ...ref(name), source: 'generated', hint: undefined, keys, generate: Object.fromEntries(keys.map((k) => [k, SecretValue.random(32)])) });
    const carrying = (secrets: ReferencedSecret[]) => ({ ...deployment('dex:v2.41.0'), metadata: { name: 'dex', namespace: 'auth', annotations: { [REFERENCED_SECRETS_ANNOTATION]: JSON.stringify(secrets) } } });
    expect(codes([carrying([])], [carrying([])])).toEqual([]);
    // A Secret to provide, newly read: a warning naming the keys, the reader and the hint.
    expect(codes([carrying([])], [carrying([ref('dex-oidc')])])).toEqual([
      'warning SECRET_REQUIRED: a Secret you provide, newly read (the OIDC client; read by Deployment auth/dex): create it with key client-secret before applying, ' +
      'or apply refuses to start (kubectl -n auth create secret generic dex-oidc --from-literal=client-secret=...)',
    ]);
    expect(planOutputs([carrying([])], [carrying([ref('dex-oidc')])])[0].object).toBe('v1 Secret auth/dex-oidc');
    // The same Secret gains a key; a generated one becomes the user's.
    expect(codes([carrying([ref('dex-oidc')])], [carrying([ref('dex-oidc', { keys: ['client-id', 'client-secret'] })])]).map((c) => c.split(' (')[0]))
      .toEqual(['warning SECRET_REQUIRED: a Secret you provide, now also needs key client-id']);
    expect(codes([carrying([generated('dex-oidc', ['client-secret'])])], [carrying([ref('dex-oidc')])]).map((c) => c.split(' (')[0]))
      .toEqual(['warning SECRET_REQUIRED: a Secret you provide, no longer generated by apply']);
    // Generated: info when new; a warning when it gains keys (apply never changes a Secret that exists).
    expect(codes([carrying([])], [carrying([generated('dex-passwords', ['admin'])])]))
      .toEqual(['info SECRET_GENERATED: newly read (the OIDC client; read by Deployment auth/dex): apply generates it when it is missing (key admin); an existing one is kept']);
    expect(codes([carrying([generated('dex-passwords', ['admin'])])], [carrying([generated('dex-passwords', ['admin', 'user'])])]))
      .toEqual([expect.stringMatching(/^warning SECRET_KEYS_ADDED: now also needs key user .*add the keys or delete the Secret so that apply generates it whole/)]);
    // No longer read: apply does not delete it.
    expect(codes([carrying([ref('dex-oidc')])], [carrying([])]))
      .toEqual(['info SECRET_NO_LONGER_READ: no longer read by the platform: apply neither checks nor deletes it; delete it when nothing else reads it']);
    // Unchanged declarations: nothing.
    expect(codes([carrying([ref('dex-oidc'), generated('dex-passwords', ['admin'])])], [carrying([generated('dex-passwords', ['admin']), ref('dex-oidc')])])).toEqual([]);
  });

  test('OPS-4: the README table gives every code its severity', () => {
    const readme = fs.readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
    for (const code of Object.keys(PLAN_CODES)) expect({ code, row: readme.includes(`| \`${code}\` | ${PLAN_CODES[code]} |`) }).toEqual({ code, row: true });
  });

  test('every code fires in the tests above (the table has no dead entries)', () => {
    const source = fs.readFileSync(__filename, 'utf8');
    for (const code of Object.keys(PLAN_CODES)) expect({ code, tested: source.includes(`${PLAN_CODES[code]} ${code}`) }).toEqual({ code, tested: true });
  });
});

describe('mlplatform plan: the command', () => {
  const build = buildPlatform(new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving'));
  const CRD = 'llminferenceservices.serving.kserve.io';

  /** The serving output with one served version of a KServe CRD removed. */
  function withoutVersion(): Map<string, string> {
    const files = new Map(build.files);
    for (const [file, docs] of build.documents!) {
      if (!docs.some((d) => d.metadata?.name === CRD)) continue;
      files.set(file, toYamlDocuments(docs.map((d) => {
        if (d.metadata?.name !== CRD) return d;
        const c = clone(d);
        c.spec.versions = c.spec.versions.filter((v: Json) => v.storage);
        return c;
      })));
    }
    return files;
  }

  test('a KServe CRD version removed between two outputs is dangerous: exit 1 until acknowledged', async () => {
    const removed = build.model.objects.find((o) => o.json.metadata.name === CRD)!.json.spec.versions.filter((v: Json) => !v.storage).map((v: Json) => v.name);
    expect(removed.length).toBeGreaterThan(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-'));
    writeFiles(path.join(dir, 'before'), build.files);
    writeFiles(path.join(dir, 'after'), withoutVersion());
    // GitOps entry points next to the phases are not compared (they are not platform objects).
    writeFiles(path.join(dir, 'before'), new Map([['flux/kustomizations.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: only-before\n  namespace: flux-system\n']]));

    const r = await cli(['plan', '--from', 'before', '--to', 'after'], dir);
    expect(r.code).toBe(1);
    for (const v of removed) expect(r.stdout).toContain(`DANGER  CRD_VERSION_UNSERVED apiextensions.k8s.io/v1 CustomResourceDefinition ${CRD}: served version ${v} removed`);
    expect(r.stdout).not.toContain('only-before');
    expect(r.stdout).toContain(`${removed.length} dangerous change${removed.length > 1 ? 's' : ''} not acknowledged`);

    const json = await cli(['plan', '--from', 'before', '--to', 'after', '--format', 'json'], dir);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.dangerous).toBe(removed.length);
    const keys = parsed.findings.filter((f: Json) => f.severity === 'danger').map((f: Json) => f.key);
    expect(keys).toEqual(removed.map((v: string) => `CRD_VERSION_UNSERVED:apiextensions.k8s.io/CustomResourceDefinition//${CRD}:${v}`));

    const ack = await cli(['plan', '--from', 'before', '--to', 'after', ...keys.flatMap((k: string) => ['--acknowledge', k])], dir);
    expect(ack.code).toBe(0);
    expect(ack.stdout).toContain('(acknowledged)');
    const accepted = await cli(['plan', '--from', 'before', '--to', 'after', '--accept-danger'], dir);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('(acknowledged)');

    expect((await cli(['plan', '--from', 'before', '--to', 'before'], dir))).toEqual({ code: 0, stdout: 'no changes that need review\n', stderr: '' });
  });

  test('--from REF:PATH reads the output at a git revision; --to defaults to PATH in the working tree', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-git-'));
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: repo });
      if (r.status !== 0) throw new Error(r.stderr.toString());
    };
    git('init', '-q');
    writeFiles(path.join(repo, 'out', 'serving'), build.files);
    git('add', '.');
    git('commit', '-qm', 'before');
    fs.rmSync(path.join(repo, 'out', 'serving'), { recursive: true });
    writeFiles(path.join(repo, 'out', 'serving'), withoutVersion());

    const r = await cli(['plan', '--from', 'HEAD:out/serving'], repo);
    expect(r.stdout).toContain(`CRD_VERSION_UNSERVED apiextensions.k8s.io/v1 CustomResourceDefinition ${CRD}`);
    expect(r.code).toBe(1);
    // From a subfolder, a path relative to it.
    const sub = await cli(['plan', '--from', 'HEAD:serving'], path.join(repo, 'out'));
    expect(sub.code).toBe(1);
    // A bare revision takes the path of --to.
    expect((await cli(['plan', '--from', 'HEAD', '--to', 'out/serving'], repo)).code).toBe(1);

    const bad = await cli(['plan', '--from', 'nosuchref:out/serving'], repo);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mlplatform plan: cannot read out\/serving at nosuchref: /);
  });

  test('--platform NAME: the output after is the platform built now (OPS-6)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-built-'));
    writeFiles(path.join(dir, 'same'), build.files);
    writeFiles(path.join(dir, 'older'), withoutVersion());
    expect(await cli(['plan', '--from', 'same', '--platform', 'serving'], dir)).toEqual({ code: 0, stdout: 'no changes that need review\n', stderr: '' });
    // The version the older output lacks is added now (not dangerous).
    const added = await cli(['plan', '--from', 'older', '--platform', 'serving'], dir);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(CRD);
    expect((await cli(['plan', '--from', 'same', '--platform', 'nosuch'], dir)).stderr).toMatch(/^mlplatform plan: no platform named 'nosuch'/);
    expect((await cli(['plan', '--from', 'same', '--platform', 'serving', '--to', 'older'], dir)).stderr).toMatch(/not both/);
  });

  test('--from REF:PATH where PATH is not committed: the revision is synthesized in a temporary worktree (OPS-6)', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-plan-synth-'));
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: repo });
      if (r.status !== 0) throw new Error(r.stderr.toString());
      return r.stdout.toString();
    };
    const BINDING = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: c\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: c\nsubjects:\n- kind: ServiceAccount\n  name: op\n  namespace: ops\n';
    // A cdk8s project whose app writes one platform folder where CDK8S_OUTDIR says; dist/ is ignored.
    const app = (rules: string) => [
      "const fs = require('fs'); const path = require('path');",
      "const dir = path.join(process.env.CDK8S_OUTDIR || 'dist', 'p', '10-controllers');",
      'fs.mkdirSync(dir, { recursive: true });',
      `fs.writeFileSync(path.join(dir, 'c.yaml'), ${JSON.stringify(BINDING)} + ${JSON.stringify('---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: c\nrules:\n')} + ${JSON.stringify(rules)});`,
    ].join('\n');
    git('init', '-q');
    fs.writeFileSync(path.join(repo, 'cdk8s.yaml'), 'language: typescript\napp: node app.js\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'dist/\n');
    fs.writeFileSync(path.join(repo, 'app.js'), app('- apiGroups: [""]\n  resources: [configmaps]\n  verbs: [get]\n'));
    git('add', '.');
    git('commit', '-qm', 'before');
    fs.writeFileSync(path.join(repo, 'app.js'), app('- apiGroups: ["*"]\n  resources: ["*"]\n  verbs: ["*"]\n'));
    spawnSync('node', ['app.js'], { cwd: repo });

    const r = await cli(['plan', '--from', 'HEAD:dist/p'], repo);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('DANGER  RBAC_WILDCARD_GRANTED');
    expect(r.code).toBe(1);
    // The temporary worktree is gone.
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);

    // A revision whose app fails: exit 2 with its output.
    fs.writeFileSync(path.join(repo, 'app.js'), "console.error('boom at synth'); process.exit(3);\n");
    git('commit', '-qam', 'broken');
    const bad = await cli(['plan', '--from', 'HEAD:dist/p', '--to', 'dist/p'], repo);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^mlplatform plan: synthesizing HEAD to read dist\/p failed \(node app.js, exit 3\):\nboom at synth/);
  });

  test('fails when --from is missing or --to does not exist', async () => {
    const dir = os.tmpdir();
    expect((await cli(['plan'], dir)).stderr).toMatch(/^mlplatform plan: --from REF:PATH or --from DIR is required/);
    expect((await cli(['plan', '--from', '.', '--to', 'no-such-dir-here'], dir)).stderr).toMatch(/^mlplatform plan: --to 'no-such-dir-here' does not exist/);
  });
});
