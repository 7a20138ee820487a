import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { UsageError } from '../../cli/io';
import { validateCommand } from '../../cli/validate';

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => { stdout += s; } }, stderr: { write: (s: string) => { stderr += s; } }, cwd };
  return validateCommand(args, io).then((code) => ({ code, stdout, stderr }));
}

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer, minimum: 1}
                owner:
                  type: string
                  x-kubernetes-validations: [{rule: "self == oldSelf"}]
`;

const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: ml}
spec:
  ports: [{name: http, port: 80}]
`;

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A GitOps repository: apps/ with objects, crds/ with the CRD (outside the validated path). */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mlp-validate-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('mlplatform validate', () => {
  test('a clean folder exits 0 and says so', async () => {
    const root = repo({ 'apps/web.yaml': SERVICE, 'apps/kustomization.yaml': 'resources: [web.yaml]\n' });
    const r = await run(['apps'], root);
    expect(r).toEqual({ code: 0, stdout: '0 errors, 0 warnings\n', stderr: '' });
  });

  test('findings: exit 1, text names file, document, kind, namespace/name, rule and message', async () => {
    const root = repo({ 'apps/b.yaml': `${SERVICE}---\n${SERVICE.replace('port: 80', 'port: 0')}`, 'apps/a/x.yml': SERVICE.replace('Service', 'Servic') });
    const r = await run(['apps'], root);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      'a/x.yml#0 Servic ml/web: [K8S-UNKNOWN-KIND] apiVersion: Kubernetes v1.32 does not serve Servic in v1',
      'b.yaml#1 Service ml/web: [K8S-RANGE] spec.ports[0].port: expected a number from 1 to 65535, got 0',
      // b.yaml defines ml/web twice, differently: one would be applied over the other.
      'b.yaml#1 Service ml/web: [K8S-DUPLICATE] Service ml/web is also defined in b.yaml#0 with different content; kubectl and GitOps engines would apply one over the other: keep one definition',
      '3 errors, 0 warnings',
      '',
    ]);
  });

  test('two files defining one object with different content is an error; identical copies and other namespaces pass (issue 17.16)', async () => {
    const reordered = 'kind: Service\napiVersion: v1\nspec:\n  ports: [{port: 80, name: http}]\nmetadata: {namespace: ml, name: web}\n';
    const same = await run(['apps'], repo({ 'apps/a.yaml': SERVICE, 'apps/b.yaml': reordered, 'apps/c.yaml': SERVICE.replace('namespace: ml', 'namespace: other') }));
    expect(same).toEqual({ code: 0, stdout: '0 errors, 0 warnings\n', stderr: '' });
    const differ = await run(['apps'], repo({ 'apps/a.yaml': SERVICE, 'apps/b.yaml': SERVICE.replace('port: 80', 'port: 81') }));
    expect(differ.code).toBe(1);
    expect(differ.stdout).toBe('b.yaml#0 Service ml/web: [K8S-DUPLICATE] Service ml/web is also defined in a.yaml#0 with different content; kubectl and GitOps engines would apply one over the other: keep one definition\n1 error, 0 warnings\n');
  });

  test('--format json prints exactly one JSON array of findings, files relative to the folder given', async () => {
    const root = repo({ 'apps/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ml}\nspec: {size: 0}\n', 'crds/widget.yaml': CRD });
    const r = await run(['apps', '--crds', 'crds', '--format', 'json'], root);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{
      file: 'w.yaml',
      index: 0,
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      namespace: 'ml',
      name: 'w',
      rule: 'K8S-RANGE',
      severity: 'error',
      message: 'spec.size: expected a number at least 1, got 0',
    }]);
  });

  test('a custom resource without its CRD is a finding; --crds=DIR supplies it', async () => {
    const root = repo({ 'apps/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 2}\n', 'crds/widget.yaml': CRD });
    const without = await run(['apps', '--format=json'], root);
    expect(without.code).toBe(1);
    expect(JSON.parse(without.stdout).map((f: any) => f.rule)).toEqual(['K8S-NO-CRD']);
    expect((await run(['apps', '--crds=crds'], root)).code).toBe(0);
  });

  describe('the kinds of the ecosystem our output emits and builds on (day two 10)', () => {
    const APPLICATION = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: serving, namespace: argocd}
spec:
  project: default
  source: {repoURL: 'https://git.example.com/platform.git', targetRevision: HEAD, path: serving/argocd/apps}
  destination: {server: 'https://kubernetes.default.svc', namespace: argocd}
  syncPolicy: {automated: {prune: true, selfHeal: true}}
`;
    const ECOSYSTEM = {
      'apps/application.yaml': APPLICATION,
      'apps/kustomization-flux.yaml': `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: serving, namespace: flux-system}
spec: {interval: 10m, path: ./serving, prune: true, sourceRef: {kind: GitRepository, name: flux-system}}
`,
      'apps/certificate.yaml': `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: serving-cert, namespace: kserve}
spec: {secretName: serving-cert, dnsNames: [kserve-webhook.kserve.svc], issuerRef: {kind: Issuer, name: selfsigned-issuer}}
`,
      'apps/istio.yaml': `apiVersion: security.istio.io/v1beta1
kind: AuthorizationPolicy
metadata: {name: ml-pipeline, namespace: kubeflow}
spec: {selector: {matchLabels: {app: ml-pipeline}}, rules: [{from: [{source: {principals: ['cluster.local/ns/kubeflow/sa/ml-pipeline-ui']}}]}]}
---
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: dashboard, namespace: kubeflow}
spec: {hosts: ['*'], gateways: [kubeflow-gateway], http: [{route: [{destination: {host: dashboard.kubeflow.svc.cluster.local, port: {number: 80}}}]}]}
`,
      'apps/more.yaml': `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: llm, namespace: serving}
spec: {parentRefs: [{name: gateway}], rules: [{backendRefs: [{name: llm, port: 8000}]}]}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: kserve, namespace: kserve}
spec: {selector: {matchLabels: {app: kserve}}, endpoints: [{port: metrics}]}
---
apiVersion: route.openshift.io/v1
kind: Route
metadata: {name: dashboard, namespace: opendatahub}
spec: {to: {kind: Service, name: dashboard}, tls: {termination: reencrypt}}
`,
    };

    test('Argo CD, Flux, cert-manager, Istio, Gateway API, Prometheus Operator and OpenShift kinds pass without their CRDs in the input', async () => {
      expect(await run(['apps'], repo(ECOSYSTEM))).toEqual({ code: 0, stdout: '0 errors, 0 warnings\n', stderr: '' });
    });

    test('a wrong Application fails naming the file, the object, the path, the fix and the schema\'s release', async () => {
      const root = repo({
        'apps/missing.yaml': APPLICATION.replace(/ {2}destination: .*\n/, ''),
        'apps/typo.yaml': APPLICATION.replace('  destination:', '  destinaton:').replace('name: serving,', 'name: typo,'),
      });
      const r = await run(['apps'], root);
      expect(r.code).toBe(1);
      const release = "(the Application schema of Argo CD v3.5.1; give your cluster's CRD with --crds to check against another release)";
      expect(r.stdout.split('\n')).toEqual([
        `missing.yaml#0 Application argocd/serving: [K8S-SCHEMA] spec.destination: required field is missing ${release}`,
        `typo.yaml#0 Application argocd/typo: [K8S-SCHEMA] spec.destination: required field is missing ${release}`,
        `typo.yaml#0 Application argocd/typo: [K8S-UNKNOWN-FIELD] spec.destinaton: unknown field (did you mean destination?) ${release}`,
        '3 errors, 0 warnings',
        '',
      ]);
    });

    test('a version the release does not serve, and a kind it does not have, are still findings', async () => {
      const root = repo({
        'apps/old.yaml': APPLICATION.replace('argoproj.io/v1alpha1', 'argoproj.io/v1'),
        'apps/other.yaml': 'apiVersion: cert-manager.io/v1\nkind: Certificat\nmetadata: {name: x, namespace: y}\nspec: {}\n',
      });
      const r = await run(['apps', '--format', 'json'], root);
      expect(JSON.parse(r.stdout).map((f: any) => `${f.file} ${f.rule}`)).toEqual(['old.yaml K8S-VERSION', 'other.yaml K8S-NO-CRD']);
    });

    test('a CRD in the input or under --crds is used instead of the ecosystem\'s', async () => {
      // An Application CRD of another release, whose schema has no spec.project: the input's CRD decides.
      const crd = CRD.replace(/widgets\.example\.com/, 'applications.argoproj.io').replace('group: example.com', 'group: argoproj.io')
        .replace('{kind: Widget, plural: widgets}', '{kind: Application, plural: applications}').replace('name: v1\n', 'name: v1alpha1\n');
      const root = repo({ 'apps/app.yaml': APPLICATION, 'crds/application.yaml': crd });
      const r = await run(['apps', '--crds', 'crds', '--format', 'json'], root);
      expect(JSON.parse(r.stdout).map((f: any) => f.message)).toEqual(expect.arrayContaining(['spec.project: unknown field']));
    });
  });

  test('--ignore-missing-crds makes a custom resource without its CRD a warning (exit 0); a CR failing its CRD still fails', async () => {
    const root = repo({ 'apps/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 2}\n', 'crds/widget.yaml': CRD, 'bad/w.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 0}\n' });
    const ignored = await run(['apps', '--ignore-missing-crds', '--format=json'], root);
    expect(ignored.code).toBe(0);
    expect(JSON.parse(ignored.stdout).map((f: any) => [f.rule, f.severity])).toEqual([['K8S-NO-CRD', 'warning']]);
    expect((await run(['bad', '--crds=crds', '--ignore-missing-crds'], root)).code).toBe(1);
  });

  test('a Helm chart (a folder with Chart.yaml) is skipped, named on stderr; the manifests beside it are validated', async () => {
    const root = repo({
      'out/helm/Chart.yaml': 'apiVersion: v2\nname: x\nversion: 0.1.0\n',
      'out/helm/templates/t.yaml': 'metadata: {name: {{ .Values.name }}}\n',
      'out/svc.yaml': SERVICE.replace('port: 80', 'port: 0'),
    });
    const r = await run(['out', '--format=json'], root);
    expect(r.stderr).toBe('mlplatform validate: skipped the Helm chart in out/helm (render it with helm template, then validate the output)\n');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).map((f: any) => [f.file, f.rule])).toEqual([['svc.yaml', 'K8S-RANGE']]);
  });

  test('warnings alone exit 0 and are printed', async () => {
    // A transition rule is not evaluated on create; with optionalOldSelf it would be, which this validator does not model.
    const crd = CRD.replace('rule: "self == oldSelf"}', 'rule: "self == oldSelf", optionalOldSelf: true}');
    const root = repo({ 'all.yaml': `${crd}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {owner: a}\n` });
    const r = await run(['all.yaml'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('all.yaml#1 Widget w: warning [K8S-CEL-UNEVALUATED] spec.owner: rule "self == oldSelf" was not evaluated');
    expect(r.stdout).toMatch(/0 errors, 1 warning\n$/);
  });

  test('an immutable field (a transition rule) gives no finding on create', async () => {
    const root = repo({ 'all.yaml': `${CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {owner: a}\n` });
    const r = await run(['all.yaml'], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0 errors, 0 warnings\n');
  });

  test('--kubernetes-version compiles CRD rules as that version\'s API server does', async () => {
    const crd = CRD.replace('rule: "self == oldSelf"}', 'rule: "quantity(self).isLessThan(quantity(\'1Gi\'))"}');
    const root = repo({ 'crd.yaml': crd });
    const old = await run(['crd.yaml', '--kubernetes-version', '1.28'], root);
    expect(old.code).toBe(1);
    expect(old.stdout).toContain('[K8S-CRD] spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.owner.x-kubernetes-validations[0].rule: '
      + '"quantity(self).isLessThan(quantity(\'1Gi\'))" does not compile on Kubernetes 1.28: isLessThan(), quantity() are part of the CEL quantity library, which the API server compiles in new CRD rules from Kubernetes 1.29 only (targeting 1.28)');
    expect((await run(['crd.yaml', '--kubernetes-version=1.29'], root)).code).toBe(0);
    expect((await run(['crd.yaml'], root)).code).toBe(0);
    await expect(run(['crd.yaml', '--kubernetes-version', 'latest'], root)).rejects.toThrow("--kubernetes-version: 'latest' is not a Kubernetes version: write MAJOR.MINOR, e.g. '1.30'");
    await expect(run(['crd.yaml', '--kubernetes-version', '1.27'], root)).rejects.toThrow('--kubernetes-version: 1.27 is older than 1.28, the oldest version modelled');
  });

  test('YAML that does not parse exits 2 with the file and document on stderr, nothing on stdout', async () => {
    const root = repo({ 'bad.yaml': `${SERVICE}---\nkind: [unclosed\n` });
    const r = await run(['bad.yaml', '--format', 'json'], root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mlplatform validate: bad\.yaml: document 1: /);
  });

  test('a path that does not exist exits 2', async () => {
    const r = await run(['nowhere'], repo({}));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read');
  });

  test('usage errors throw UsageError (the dispatcher prints help, exit 2)', async () => {
    const root = repo({});
    await expect(run([], root)).rejects.toThrow(UsageError);
    await expect(run(['x', '--format', 'yaml'], root)).rejects.toThrow('--format must be text or json');
    await expect(run(['x', '--strict'], root)).rejects.toThrow('unknown option --strict');
    await expect(run(['x', '--crds'], root)).rejects.toThrow('--crds needs a value');
  });

  test('--help prints the usage and exits 0', async () => {
    const r = await run(['--help'], repo({}));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: mlplatform validate PATH...');
  });

  test('output is deterministic: files in sorted order, walked depth first', async () => {
    const root = repo({ 'r/b.yaml': SERVICE.replace('port: 80', 'port: 0'), 'r/a/z.json': JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'A' } }), 'r/c.yml': SERVICE.replace('name: web', 'name: Web') });
    const first = await run(['r', '--format', 'json'], root);
    expect(JSON.parse(first.stdout).map((f: any) => f.file)).toEqual(['a/z.json', 'b.yaml', 'c.yml']);
    expect((await run(['r', '--format', 'json'], root)).stdout).toBe(first.stdout);
  });
});
