import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { gitopsBuild, gitopsPlatform } from './fixture';
import { TestComponent } from '../support';
import { parseDocs } from './support';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER } from '../../../lib/component';
import { ArgoCdFlavor, fluxKustomizations, gitopsFiles, GitOpsSettings, helmChart, phaseKustomization, phasePlan, resolveGitOpsSettings } from '../../../lib/gitops';
import { Phase } from '../../../lib/phases';
import { Platform } from '../../../lib/platform';
import { gitIgnores, gitopsSettingsFromEnvironment, PlatformApp, PlatformBuild, writePlatform } from '../../../lib/synth';

let build: PlatformBuild;
beforeAll(() => {
  build = gitopsBuild();
});

/** A temp folder holding a git repository's root (a `.git` folder), removed after `fn`. */
function withRepo(fn: (repo: string) => void): void {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-repo-'));
  fs.mkdirSync(path.join(repo, '.git'));
  try {
    fn(repo);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

function readDocs(file: string): any[] {
  return parseDocs(fs.readFileSync(file, 'utf8'));
}

describe('paths follow where the files are written', () => {
  test('PlatformApp: Argo CD and Flux paths are the output folder relative to the enclosing repository', () => {
    withRepo((repo) => {
      const outdir = path.join(repo, 'clusters', 'prod');
      const app = new PlatformApp({ outdir, gitops: { repoURL: 'https://git.example.com/p.git' } });
      gitopsPlatform(app, 'mine');
      app.synth();
      const root = readDocs(path.join(outdir, 'mine', 'argocd', 'root.yaml'))[0];
      expect(root.spec.source.path).toBe('clusters/prod/mine/argocd/apps');
      const app0 = readDocs(path.join(outdir, 'mine', 'argocd', 'apps', '00-foundation.yaml'))[0];
      expect(app0.spec.source.path).toBe('clusters/prod/mine/00-foundation');
      const flux = readDocs(path.join(outdir, 'mine', 'flux', 'kustomizations.yaml'));
      expect(flux[0].spec.path).toBe('./clusters/prod/mine/00-foundation');
      // Every path exists, relative to the repository root.
      for (const p of [root.spec.source.path, app0.spec.source.path, flux[0].spec.path]) expect(fs.existsSync(path.join(repo, p))).toBe(true);
    });
  });

  test('repositoryRoot names another checkout; an output folder outside it is an error naming the fix', () => {
    withRepo((repo) => {
      const gitops = resolveGitOpsSettings('app', { repoURL: 'https://g/r.git', repositoryRoot: repo }, { outdir: path.join(repo, 'a', 'b') });
      expect(gitops.path).toBe('a/b');
      expect(resolveGitOpsSettings('app', { repoURL: 'https://g/r.git', repositoryRoot: repo }, { outdir: repo }).path).toBe('.');
      expect(() => resolveGitOpsSettings('app', { repoURL: 'https://g/r.git', repositoryRoot: path.join(repo, 'a') }, { outdir: path.join(repo, 'c') }))
        .toThrow(/^app: GitOps settings: repositoryRoot ".*" does not contain the output folder .*; set repositoryRoot to the checkout of the GitOps repository/);
      // An explicit path wins.
      expect(resolveGitOpsSettings('app', { repoURL: 'https://g/r.git', path: 'x/y' }, { outdir: path.join(repo, 'a') }).path).toBe('x/y');
    });
  });

  test('at the repository root, paths have no leading folder', () => {
    const gitops = resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', path: '.' });
    const files = gitopsFiles(build, gitops);
    expect(readDocsText(files.get('argocd/root.yaml')!)[0].spec.source.path).toBe('gitops-test/argocd/apps');
    expect(readDocsText(files.get('flux/kustomizations.yaml')!)[0].spec.path).toBe('./gitops-test/00-foundation');
  });
});

function readDocsText(text: string): any[] {
  return parseDocs(text);
}

describe('one writer', () => {
  test('writePlatform writes the GitOps files too, as PlatformApp does', () => {
    withRepo((repo) => {
      const out = path.join(repo, 'out');
      writePlatform(build, out, { gitops: { repoURL: 'https://git.example.com/p.git' } });
      const viaApp = path.join(repo, 'app');
      const app = new PlatformApp({ outdir: viaApp, gitops: { repoURL: 'https://git.example.com/p.git', path: 'out' } });
      gitopsPlatform(app);
      app.synth();
      const list = (dir: string): string[] => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
      const files = list(path.join(out, 'gitops-test'));
      expect(files).toEqual(expect.arrayContaining(['argocd/root.yaml', 'flux/kustomizations.yaml', '00-foundation/kustomization.yaml', 'REPORT.md']));
      expect(files).toEqual(list(path.join(viaApp, 'gitops-test')));
      for (const f of files.filter((x) => x.includes('.'))) {
        expect([f, fs.readFileSync(path.join(viaApp, 'gitops-test', f), 'utf8')]).toEqual([f, fs.readFileSync(path.join(out, 'gitops-test', f), 'utf8')]);
      }
      // gitops: false writes only the platform.
      writePlatform(build, out, { gitops: false });
      expect(fs.readdirSync(path.join(out, 'gitops-test'))).not.toContain('argocd');
    });
  });
});

describe('formats, each on its own', () => {
  const settings = (formats: object) => resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', formats });
  const tops = (files: Map<string, string>) => [...new Set([...files.keys()].map((f) => f.split('/')[0]).filter((f) => !/^\d\d-/.test(f)))].sort();

  test('Argo CD and Flux by default; Helm and the plugin when chosen; phase kustomizations always', () => {
    expect(tops(gitopsFiles(build, settings({})))).toEqual(['argocd', 'flux']);
    expect([...gitopsFiles(build, settings({})).keys()].filter((f) => f.includes('cmp'))).toEqual([]);
    expect(tops(gitopsFiles(build, settings({ argocd: false }))).sort()).toEqual(['flux']);
    expect(tops(gitopsFiles(build, settings({ argocd: false, flux: false, helm: true })))).toEqual(['helm']);
    const cmp = gitopsFiles(build, settings({ configManagementPlugin: true }));
    expect(cmp.has('argocd/cmp-plugin.yaml') && cmp.has('argocd/cmp-application.yaml')).toBe(true);
    const none = gitopsFiles(build, settings({ argocd: false, flux: false }));
    expect([...none.keys()].every((f) => /^\d\d-[a-z-]+\/kustomization\.yaml$/.test(f))).toBe(true);
  });

  test('bad choices name the setting', () => {
    expect(() => settings({ configManagementPlugin: true, argocd: false })).toThrow('formats.configManagementPlugin true needs formats.argocd');
    expect(() => settings({ helm: 'yes' })).toThrow('formats.helm "yes" must be true or false');
  });
});

describe('CRDs and Namespaces are protected from automatic pruning', () => {
  test('phase kustomizations patch them with Argo CD\'s and Flux\'s annotations; other phases carry no patch', () => {
    const files = gitopsFiles(build, resolveGitOpsSettings('t', { repoURL: 'https://g/r.git' }));
    const foundation = parseDocs(files.get(`${Phase.FOUNDATION}/kustomization.yaml`)!)[0];
    expect(foundation.patches.map((p: any) => p.target)).toEqual([{ kind: 'CustomResourceDefinition' }, { kind: 'Namespace' }]);
    for (const p of foundation.patches) {
      expect(parseDocs(p.patch)[0].metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false', 'kustomize.toolkit.fluxcd.io/prune': 'disabled' });
    }
    expect(parseDocs(files.get(`${Phase.CONTROLLERS}/kustomization.yaml`)!)[0].patches).toBeUndefined();
    // Only the engines written get their annotation.
    const fluxOnly = gitopsFiles(build, resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', formats: { argocd: false } }));
    expect(parseDocs(parseDocs(fluxOnly.get(`${Phase.FOUNDATION}/kustomization.yaml`)!)[0].patches[0].patch)[0].metadata.annotations)
      .toEqual({ 'kustomize.toolkit.fluxcd.io/prune': 'disabled' });
    expect(phaseKustomization(phasePlan(build)[0])).not.toHaveProperty('patches');
  });

  test('Helm keeps Namespaces on uninstall (CRDs in crds/ it never deletes)', () => {
    const chart = helmChart(build, resolveGitOpsSettings('t', { repoURL: 'https://g/r.git' }));
    const namespaces = parseDocs(chart.get(`helm/templates/${Phase.FOUNDATION}/00-namespaces.yaml`)!);
    expect(namespaces.length).toBeGreaterThan(0);
    for (const n of namespaces) expect([n.kind, n.metadata.annotations['helm.sh/resource-policy']]).toEqual(['Namespace', 'keep']);
  });
});

describe('Flux', () => {
  test('health checks cover StatefulSets, DaemonSets and Certificates, not only Deployments', () => {
    const step = phasePlan(build).find((s) => s.phase === Phase.CONTROLLERS)!;
    const extra = [
      { ...step.objects[0], json: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'x' } } },
      { ...step.objects[0], json: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'metacontroller', namespace: 'x' } } },
      { ...step.objects[0], json: { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'serving-cert', namespace: 'x' } } },
    ];
    const withExtra = { ...build, model: { ...build.model, objects: [...build.model.objects, ...extra] } };
    const k = fluxKustomizations(withExtra, resolveGitOpsSettings('t', { repoURL: 'https://g/r.git' })).kustomizations.find((x) => x.metadata.name.endsWith(Phase.CONTROLLERS))!;
    expect(k.spec.healthChecks.slice(-3)).toEqual([
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', namespace: 'x' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'metacontroller', namespace: 'x' },
      { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', name: 'serving-cert', namespace: 'x' },
    ]);
  });
});

describe('OpenShift GitOps', () => {
  test('the namespace defaults to openshift-gitops, and the health check is the ArgoCD resource\'s resourceHealthChecks entry', () => {
    const s = resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', argocd: { flavor: ArgoCdFlavor.OPENSHIFT_GITOPS } });
    expect(s.argocd.namespace).toBe('openshift-gitops');
    const files = gitopsFiles(build, s);
    expect(files.has('argocd/argocd-cm-health.yaml')).toBe(false);
    const [cr] = parseDocs(files.get('argocd/argocd-health-check.yaml')!);
    expect(cr).toMatchObject({ apiVersion: 'argoproj.io/v1beta1', kind: 'ArgoCD', metadata: { name: 'openshift-gitops', namespace: 'openshift-gitops' } });
    expect(cr.spec.resourceHealthChecks).toEqual([{ group: 'argoproj.io', kind: 'Application', check: expect.stringContaining('obj.status.health.status') }]);
    expect(parseDocs(files.get('argocd/root.yaml')!)[0].metadata.namespace).toBe('openshift-gitops');
    // Another namespace and instance are settings.
    const other = resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', argocd: { flavor: ArgoCdFlavor.OPENSHIFT_GITOPS, namespace: 'team-gitops', instance: 'team' } });
    expect(parseDocs(gitopsFiles(build, other).get('argocd/argocd-health-check.yaml')!)[0].metadata).toEqual({ name: 'team', namespace: 'team-gitops' });
    expect(() => resolveGitOpsSettings('t', { repoURL: 'https://g/r.git', argocd: { flavor: 'rancher' as ArgoCdFlavor } })).toThrow('argocd.flavor "rancher" must be one of argocd, openshift-gitops');
  });
});

describe('settings from the environment', () => {
  test('MLP_REPO_URL and friends fill what the app leaves unset', () => {
    expect(gitopsSettingsFromEnvironment({ MLP_REPO_URL: 'https://git.example.com/mine.git', MLP_TARGET_REVISION: 'main', MLP_GITOPS_FORMATS: 'flux,helm' })).toEqual({
      repoURL: 'https://git.example.com/mine.git', targetRevision: 'main', formats: { argocd: false, flux: true, helm: true, configManagementPlugin: false },
    });
    expect(gitopsSettingsFromEnvironment({})).toEqual({});
    expect(() => gitopsSettingsFromEnvironment({ MLP_GITOPS_FORMATS: 'argo' })).toThrow('MLP_GITOPS_FORMATS: unknown format argo; list some of argocd, flux, helm, cmp');
  });

  test('PlatformApp writes the repository the environment names', () => {
    withRepo((repo) => {
      const before = process.env.MLP_REPO_URL;
      process.env.MLP_REPO_URL = 'https://git.example.com/from-env.git';
      try {
        const app = new PlatformApp({ outdir: path.join(repo, 'dist') });
        gitopsPlatform(app, 'envy');
        app.synth();
      } finally {
        if (before === undefined) delete process.env.MLP_REPO_URL;
        else process.env.MLP_REPO_URL = before;
      }
      expect(readDocs(path.join(repo, 'dist', 'envy', 'argocd', 'root.yaml'))[0].spec.source.repoURL).toBe('https://git.example.com/from-env.git');
    });
  });
});

test('a fixture app outside any repository still synthesizes (its folder is the root)', () => {
  const app = new App({ outdir: '/x' });
  expect(() => gitopsPlatform(app, 'other')).not.toThrow();
});

describe('output that git ignores (issue 17.14)', () => {
  test('gitIgnores tells whether the repository ignores the output folder; synth warns when a real repository is set', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-ignored-'));
    try {
      execFileSync('git', ['init', '-q', repo]);
      fs.writeFileSync(path.join(repo, '.gitignore'), '/dist/\n');
      fs.mkdirSync(path.join(repo, 'dist'));
      fs.mkdirSync(path.join(repo, 'clusters'));
      expect(gitIgnores(path.join(repo, 'dist'))).toBe(true);
      expect(gitIgnores(path.join(repo, 'clusters'))).toBe(false);
      const written: string[] = [];
      const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => { written.push(String(s)); return true; });
      try {
        const app = new PlatformApp({ outdir: path.join(repo, 'dist'), gitops: { repoURL: 'https://git.example.com/real.git' } });
        gitopsPlatform(app, 'mine');
        app.synth();
        const ok = new PlatformApp({ outdir: path.join(repo, 'clusters'), gitops: { repoURL: 'https://git.example.com/real.git' } });
        gitopsPlatform(ok, 'mine');
        ok.synth();
      } finally {
        spy.mockRestore();
      }
      expect(written.filter((w) => w.startsWith('warning:'))).toEqual([
        `warning: ${path.join(repo, 'dist')} is ignored by git, but the Argo CD and Flux files point at it in https://git.example.com/real.git; ` +
        'commit the output where it is not ignored, or synthesize into a checkout of the GitOps repository (README: "Getting the output into git")\n',
      ]);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

test('a platform on OpenShift (certificates from the service CA, as opendatahub) defaults to OpenShift GitOps; a set flavor wins (issue 17.15)', () => {
  withRepo((repo) => {
    const make = (gitops: GitOpsSettings, outdir: string) => {
      const app = new PlatformApp({ outdir: path.join(repo, outdir), gitops });
      const p = new Platform(app, 'ocp', { name: 'ocp', certificates: CertificateProvider.openShiftServiceCa(), prerequisites: [CERT_MANAGER] });
      new TestComponent(p, 'widgets', 'widgets-system', (c) => c.namespaceObject());
      app.synth();
      return path.join(repo, outdir, 'ocp', 'argocd');
    };
    const ocp = make({ repoURL: 'https://g/r.git' }, 'a');
    expect(fs.readdirSync(ocp).sort()).toEqual(['apps', 'argocd-health-check.yaml', 'root.yaml']);
    expect(readDocs(path.join(ocp, 'root.yaml'))[0].metadata.namespace).toBe('openshift-gitops');
    const upstream = make({ repoURL: 'https://g/r.git', argocd: { flavor: ArgoCdFlavor.ARGOCD } }, 'b');
    expect(fs.readdirSync(upstream).sort()).toEqual(['apps', 'argocd-cm-health.yaml', 'root.yaml']);
  });
});
