import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { validateCommand } from '../../cli/validate';
import { crossObjectIssues } from '../../lib/validation/cross-objects';

// `mlplatform validate` runs the cross-object checks synth has over its whole input
// (issue 27 item 11): a webhook whose Service is missing, or a binding to a missing Role,
// no longer passes because each object alone is valid.

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => { stdout += s; } }, stderr: { write: (s: string) => { stderr += s; } }, cwd };
  return validateCommand(args, io).then((code) => ({ code, stdout, stderr }));
}

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function folder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mlp-cross-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const NAMESPACE = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ops}\n';
const ACCOUNT = 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: manager, namespace: ops}\n';
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: manager, namespace: ops}
spec:
  selector: {matchLabels: {app: manager}}
  template:
    metadata: {labels: {app: manager}}
    spec:
      serviceAccountName: manager
      containers:
        - name: manager
          image: example/manager:v1.0.0
          ports: [{name: webhook, containerPort: 9443}]
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: manager-webhook, namespace: ops}
spec:
  selector: {app: manager}
  ports: [{port: 443, targetPort: webhook}]
`;
const webhooks = (service: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: ops-validating}
webhooks:
  - name: widgets.ops.example.com
    admissionReviewVersions: [v1]
    sideEffects: None
    clientConfig:
      caBundle: Zm9v
      service: {name: ${service}, namespace: ops, path: /validate}
    rules:
      - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
`;
const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: leases, namespace: ops}
rules:
  - {apiGroups: [coordination.k8s.io], resources: [leases], verbs: [get, update]}
`;
const binding = (role: string) => `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: manager-leases, namespace: ops}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: ${role}}
subjects: [{kind: ServiceAccount, name: manager, namespace: ops}]
`;

describe('mlplatform validate: across objects', () => {
  test('a webhook, its Service and the workload behind it, an account and a bound Role pass', async () => {
    const dir = folder({ 'ops.yaml': [NAMESPACE, ACCOUNT, DEPLOYMENT, SERVICE, webhooks('manager-webhook'), ROLE, binding('leases')].join('---\n') });
    const r = await run([dir], dir);
    expect(r.stdout).toBe('0 errors, 0 warnings\n');
    expect(r.code).toBe(0);
  });

  test('a webhook whose Service is missing fails, naming the webhook, the Service and the fix', async () => {
    const dir = folder({ 'ops.yaml': [NAMESPACE, ACCOUNT, DEPLOYMENT, SERVICE].join('---\n'), 'webhooks.yaml': webhooks('manager-webhok') });
    const r = await run([dir], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'webhooks.yaml#0 ValidatingWebhookConfiguration ops-validating: [K8S-WEBHOOK-BACKEND] webhooks[0].clientConfig.service: '
      + 'webhook widgets.ops.example.com of ValidatingWebhookConfiguration ops-validating points at Service ops/manager-webhok, which is not in the input; '
      + 'add the Service and the workload behind it to the input, or point clientConfig.service at the Service that serves this webhook\n'
      + '1 error, 0 warnings\n');
  });

  test('a webhook whose Service selects no workload, or lacks the port, fails', async () => {
    const dir = folder({ 'ops.yaml': [NAMESPACE, ACCOUNT, SERVICE, webhooks('manager-webhook')].join('---\n') });
    const r = await run([dir], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[K8S-WEBHOOK-BACKEND] webhooks[0].clientConfig.service: webhook widgets.ops.example.com of ValidatingWebhookConfiguration ops-validating '
      + 'Service manager-webhook selects {"app":"manager"}, which matches no workload\'s pod labels in namespace ops');
  });

  test('a RoleBinding to a missing Role fails, naming the binding, the Role and the fix', async () => {
    const dir = folder({ 'rbac.yaml': [NAMESPACE, ACCOUNT, ROLE, binding('lease')].join('---\n') });
    const r = await run([dir], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'rbac.yaml#3 RoleBinding ops/manager-leases: [K8S-ROLE-REF] roleRef.name: RoleBinding ops/manager-leases binds Role ops/lease, which is not in the input: '
      + 'the binding grants nothing; add the Role in namespace ops or fix roleRef.name\n'
      + '1 error, 0 warnings\n');
  });

  test('a workload whose ServiceAccount is missing fails', async () => {
    const dir = folder({ 'ops.yaml': [NAMESPACE, DEPLOYMENT].join('---\n') });
    const r = await run([dir], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('ops.yaml#1 Deployment ops/manager: [K8S-SERVICE-ACCOUNT] spec.template.spec.serviceAccountName: Deployment ops/manager runs as ServiceAccount ops/manager, which is not in the input');
  });
});

describe('crossObjectIssues', () => {
  const docs = (...objects: unknown[]) => objects.map((object) => ({ object }));
  const cert = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'serving', namespace: 'ops' }, spec: {} };
  const configuration = (annotations: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'ops-mutating', annotations },
    webhooks: [{ name: 'm.ops.example.com', clientConfig: { service: { name: 'svc', namespace: 'ops' } }, ...extra }],
  });
  const rules = (d: readonly { object: unknown }[]) => crossObjectIssues(d).map((i) => `${i.index} ${i.issue.rule}${i.issue.severity ? ` ${i.issue.severity}` : ''}`);

  test('a cert-manager injection naming a Certificate not in the input is an error; one in the input passes', () => {
    const inject = { 'cert-manager.io/inject-ca-from': 'ops/serving' };
    expect(rules(docs(configuration(inject))).filter((r) => r.includes('CA'))).toEqual(['0 K8S-WEBHOOK-CA']);
    expect(rules(docs(configuration(inject), cert)).filter((r) => r.includes('CA'))).toEqual([]);
  });

  test('a webhook called by url is outside the input: not checked', () => {
    const byUrl = { ...configuration({}), webhooks: [{ name: 'm.ops.example.com', clientConfig: { url: 'https://hooks.example.com/mutate' } }] };
    expect(rules(docs(byUrl))).toEqual([]);
  });

  test('no CA source is a warning, unless an Argo CD Application of the input ignores its caBundle (patched at run time)', () => {
    expect(rules(docs(configuration({}))).filter((r) => r.includes('CA'))).toEqual(['0 K8S-WEBHOOK-CA warning']);
    const app = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'ops', namespace: 'argocd' },
      spec: { ignoreDifferences: [{ group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', name: 'ops-mutating', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] }] },
    };
    expect(rules(docs(configuration({}), app)).filter((r) => r.includes('CA'))).toEqual([]);
  });

  test('bindings to the ClusterRoles and kube-system Roles every cluster has pass; to another missing ClusterRole fail', () => {
    const crb = (name: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `b-${name}` }, roleRef: { kind: 'ClusterRole', name }, subjects: [] });
    const rb = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'auth-reader', namespace: 'kube-system' }, roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' }, subjects: [] };
    expect(rules(docs(crb('view'), crb('system:auth-delegator'), rb, crb('ops-manager')))).toEqual(['3 K8S-ROLE-REF']);
  });

  test('a Service selecting the pods of two workloads is reported; objects that are not Kubernetes objects are skipped', () => {
    const wl = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'ops' }, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name, tier: 'x' } }, spec: { containers: [] } } } });
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'both', namespace: 'ops' }, spec: { selector: { tier: 'x' }, ports: [{ port: 80 }] } };
    expect(rules(docs(null, 'text', wl('a'), wl('b'), svc))).toEqual(['4 K8S-SELECTOR-OVERLAP']);
  });
});
