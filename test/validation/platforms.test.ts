import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { App } from 'cdk8s';
import { validateCommand } from '../../cli/validate';
import { buildPlatform, PlatformBuild, writePlatform } from '../../lib/synth';
import { crossObjectFindings, ManifestFinding, readManifest, readPath, validateDocuments } from '../../lib/validation';
import { DEFAULT_PLATFORMS } from '../../platforms';

/**
 * Every object of every default platform passes `mlplatform validate` (the checks of a
 * Kubernetes v1.32 API server with strict field validation), custom resources of kinds a
 * prerequisite serves (cert-manager, Istio, the Prometheus Operator...) included: their CRDs
 * are not in the output by design, and validate knows them (lib/validation/ecosystem.ts; day
 * two 10). Warnings are only CEL transition rules, which a validator of files cannot evaluate.
 */
function expectAccepted(findings: ManifestFinding[]): void {
  expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  expect([...new Set(findings.filter((f) => f.severity === 'warning').map((f) => f.rule))].filter((r) => r !== 'K8S-CEL-UNEVALUATED')).toEqual([]);
}

const builds = new Map<string, PlatformBuild>();
const buildOf = (name: string): PlatformBuild => {
  let b = builds.get(name);
  if (!b) builds.set(name, b = buildPlatform(DEFAULT_PLATFORMS.find((p) => p.name === name)!.create(new App({ outdir: '/nonexistent' }))));
  return b;
};

describe.each(DEFAULT_PLATFORMS.map((p) => p.name))('platform %s', (name) => {
  test('every object passes validate', () => {
    const build = buildOf(name);
    const docs = build.model.objects.map((o, index) => ({ file: o.path, index, prefix: '', object: o.json }));
    expectAccepted(validateDocuments(docs));
  });

  test('its GitOps files (Argo CD Applications, Flux Kustomizations, OpenShift GitOps ArgoCD) pass validate (day two 10)', () => {
    const build = buildOf(name);
    const dir = mkdtempSync(join(tmpdir(), `mlp-gitops-${name}-`));
    try {
      const out = writePlatform(build, dir);
      // The files synth writes besides the phase files (which the test above validates as objects).
      const gitops = [...out.files.keys()].filter((f) => !build.files.has(f) && /\.ya?ml$/.test(f) && !/(^|\/)kustomization\.ya?ml$/.test(f));
      expect(gitops).toEqual(expect.arrayContaining([expect.stringMatching(/^argocd\//), expect.stringMatching(/^flux\//)]));
      const docs = gitops.flatMap((f) => readManifest(join(out.dir, f), f));
      expect(docs.map((d: any) => d.object.kind)).toEqual(expect.arrayContaining(['Application', 'Kustomization']));
      expectAccepted(validateDocuments(docs));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DEFAULT_PLATFORMS.map((p) => p.name))('platform %s', (name) => {
  test('has no cross-object errors (webhook backends and CA sources, role references, ServiceAccounts, selectors)', () => {
    const build = buildOf(name);
    const docs = build.model.objects.map((o, index) => ({ file: o.path, index, prefix: '', object: o.json }));
    const findings = crossObjectFindings(docs);
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    // Without the GitOps files (whose Argo CD Applications ignore run-time caBundles), a self-rotating
    // webhook's missing CA source is a warning: only the ones the platform declares patched at run time.
    const patched = new Set(build.model.runtimeChanges.filter((c) => c.jsonPointers.some((p) => p.endsWith('/caBundle'))).map((c) => `${c.kind}/${c.name}`));
    expect(findings.filter((f) => !(f.rule === 'K8S-WEBHOOK-CA' && patched.has(`${f.kind}/${f.name}`)))).toEqual([]);
  });
});

test('the serving platform as written by synth (files, YAML, GitOps files) passes `mlplatform validate`: exit 0', async () => {
  // End to end through the files and the command; one platform, since reading YAML costs about 1 s per MB.
  const build = buildOf('serving');
  const dir = mkdtempSync(join(tmpdir(), 'mlp-serving-'));
  const out = writePlatform(build, dir);
  let stdout = '';
  const code = await validateCommand([out.dir], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true }, cwd: dir });
  expect({ code, stdout }).toEqual({ code: 0, stdout: '0 errors, 0 warnings\n' });
  const docs = readPath(out.dir, '/');
  rmSync(dir, { recursive: true, force: true });
  // Every object of the model was read back from the files.
  const read = new Set(docs.map((d: any) => `${d.object.kind}/${d.object.metadata?.namespace ?? ''}/${d.object.metadata?.name}`));
  expect(build.model.objects.map((o) => `${o.json.kind}/${o.json.metadata?.namespace ?? ''}/${o.json.metadata?.name}`).filter((k) => !read.has(k))).toEqual([]);
});
