import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { TestComponent } from './support';
import { CERT_MANAGER } from '../../lib/component';
import { GitOpsSettings } from '../../lib/gitops';
import { Platform } from '../../lib/platform';
import { buildPlatform, PlatformApp, Progress } from '../../lib/synth';

function sink(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (s: string) => written.push(s) };
}

describe('Progress', () => {
  test('shows the platform, the step and the object count on a terminal once the synth is slow', () => {
    const out = sink(true);
    const p = new Progress(out, 0);
    p.show('serving', 'check', 71);
    p.clear();
    expect(out.written).toEqual(['\r\x1b[Ksynth serving: checking 71 objects…', '\r\x1b[K']);
  });

  test('is quiet when stderr is not a terminal', () => {
    const out = sink(false);
    const p = new Progress(out, 0);
    p.show('serving', 'check', 71);
    p.clear();
    expect(out.written).toEqual([]);
  });

  test('is quiet for synths shorter than its threshold', () => {
    const out = sink(true);
    const p = new Progress(out, 60_000);
    p.show('serving', 'render', 71);
    p.clear();
    expect(out.written).toEqual([]);
  });
});

describe('buildPlatform steps', () => {
  test('reports each step in order, with the object count once resolved', () => {
    const app = new PlatformApp({ outdir: '/nonexistent' });
    const platform = new Platform(app, 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
    new TestComponent(platform, 'widgets', 'widgets-system', (c) => c.namespaceObject());
    const steps: string[] = [];
    buildPlatform(platform, { onStep: (s, n) => steps.push(n === undefined ? s : `${s} ${n}`) });
    expect(steps).toEqual(['validate', 'resolve', 'check 1', 'render 1', 'done 1']);
  });
});

describe('PlatformApp', () => {
  function appWith(names: string[], props: { platforms?: string[]; gitops?: GitOpsSettings | false } = {}) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-synth-'));
    const app = new PlatformApp({ outdir, ...props });
    for (const name of names) {
      const platform = new Platform(app, name, { name, prerequisites: [CERT_MANAGER] });
      new TestComponent(platform, 'widgets', 'widgets-system', (c) => c.namespaceObject());
    }
    return { app, outdir };
  }

  test('synthesizes only the platforms it is told to', () => {
    const { app, outdir } = appWith(['one', 'two'], { platforms: ['two'] });
    app.synth();
    expect(fs.readdirSync(outdir)).toEqual(['two']);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('writes nothing when a later platform fails, although an earlier one has built', () => {
    const { app, outdir } = appWith(['one', 'two']);
    const two = app.node.findChild('two') as Platform;
    const configMap = (c: TestComponent) => new ApiObject(c, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same', namespace: 'widgets-system' } });
    new TestComponent(two, 'clash', 'widgets-system', configMap);
    new TestComponent(two, 'clash2', 'widgets-system', configMap);
    expect(() => app.synth()).toThrow(/MLP004/);
    expect(fs.readdirSync(outdir)).toEqual([]);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('writes every platform with its GitOps files: Argo CD and Flux by default, Helm when chosen', () => {
    const { app, outdir } = appWith(['one', 'two']);
    app.synth();
    expect(fs.readdirSync(outdir).sort()).toEqual(['one', 'two']);
    for (const name of ['one', 'two']) {
      const files = fs.readdirSync(path.join(outdir, name)).sort();
      expect(files).toEqual(expect.arrayContaining(['REPORT.md', 'argocd', 'flux', 'kustomization.yaml']));
      // Helm repeats every object (several MB per platform): off unless chosen.
      expect(files).not.toContain('helm');
      expect(fs.readdirSync(path.join(outdir, name, 'argocd')).sort()).toEqual(['apps', 'argocd-cm-health.yaml', 'root.yaml']);
    }
    fs.rmSync(outdir, { recursive: true, force: true });
    const helm = appWith(['one'], { gitops: { repoURL: 'https://git.example.com/p.git', formats: { helm: true, argocd: false, flux: false } } });
    helm.app.synth();
    expect(fs.readdirSync(path.join(helm.outdir, 'one')).sort()).toEqual(['00-foundation', 'REPORT.md', 'helm', 'kustomization.yaml']);
    expect(fs.readFileSync(path.join(helm.outdir, 'one', 'helm', 'Chart.yaml'), 'utf8')).toContain('name: one');
    fs.rmSync(helm.outdir, { recursive: true, force: true });
  });

  test('fails when told to synthesize a platform it does not have, naming the ones it has', () => {
    const { app, outdir } = appWith(['one'], { platforms: ['three'] });
    expect(() => app.synth()).toThrow('no platform named three (the app has one)');
    fs.rmSync(outdir, { recursive: true, force: true });
  });
});

test('cdk8s addDependency is an error naming both paths, not silently ignored (issue 17.16)', () => {
  const app = new PlatformApp({ outdir: '/nonexistent' });
  const platform = new Platform(app, 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
  const a = new TestComponent(platform, 'a', 'a-system', (c) => c.namespaceObject());
  const b = new TestComponent(platform, 'b', 'b-system', (c) => c.namespaceObject());
  a.node.addDependency(b);
  b.node.addDependency(a); // a cycle: cdk8s would not notice either
  expect(() => buildPlatform(platform)).toThrow(/p\/a: addDependency\(p\/b\) is not honoured: a platform orders objects by phase and by the kinds components require;[\s\S]*p\/b: addDependency\(p\/a\) is not honoured/);
});
