import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Kueue } from '../../../constructs/kueue';
import { CERT_MANAGER } from '../../../lib/component';
import { gitopsFiles, resolveGitOpsSettings } from '../../../lib/gitops';
import { Platform } from '../../../lib/platform';
import { buildPlatform, PlatformBuild } from '../../../lib/synth';

// Day two 7: Argo CD Application and Flux Kustomization names were `<platform>-<phase>`, so two
// environments (clusters/prod, clusters/staging) synced by one Argo CD or Flux collided.

let build: PlatformBuild;
let root: string;
beforeAll(() => {
  const p = new Platform(new App(), 'mine', { name: 'mine', prerequisites: [CERT_MANAGER] });
  new Kueue(p, 'kueue');
  build = buildPlatform(p);
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'name-prefix-'));
  fs.mkdirSync(path.join(root, '.git'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function names(outdir: string, settings: object = {}) {
  const resolved = resolveGitOpsSettings('test', { repoURL: 'https://git.example.com/gitops.git', ...settings }, { outdir });
  const files = gitopsFiles(build, resolved);
  const docs = (f: string) => parseAllDocuments(files.get(f)!).map((d) => d.toJSON());
  const apps = [...files.keys()].filter((f) => f.startsWith('argocd/apps/')).flatMap(docs);
  const flux = docs('flux/kustomizations.yaml');
  return {
    root: docs('argocd/root.yaml')[0].metadata.name as string,
    apps: apps.map((a) => a.metadata.name as string),
    flux: flux.map((k) => k.metadata.name as string),
    dependsOn: flux.flatMap((k) => (k.spec.dependsOn ?? []).map((d: { name: string }) => d.name)),
  };
}

test('two environments of one platform get different Application and Kustomization names, from their output paths (day two 7)', () => {
  const prod = names(path.join(root, 'clusters', 'prod'));
  const staging = names(path.join(root, 'clusters', 'staging'));
  expect(prod.root).toBe('clusters-prod-mine');
  expect(prod.apps).toContain('clusters-prod-mine-10-controllers');
  expect(prod.flux).toContain('clusters-prod-mine-10-controllers');
  for (const d of prod.dependsOn) expect(prod.flux).toContain(d);
  const all = [prod.root, ...prod.apps, ...prod.flux, staging.root, ...staging.apps, ...staging.flux];
  expect(new Set([prod.root, ...prod.apps, staging.root, ...staging.apps]).size).toBe(2 + prod.apps.length + staging.apps.length);
  expect(all.filter((n) => n.startsWith('clusters-staging-')).length).toBe(1 + staging.apps.length + staging.flux.length);
});

test('the default output folder keeps the plain names; namePrefix sets or removes the prefix', () => {
  expect(names(path.join(root, 'dist')).root).toBe('mine');
  expect(names(path.join(root, 'clusters', 'prod'), { namePrefix: 'prod' }).apps).toContain('prod-mine-00-foundation');
  expect(names(path.join(root, 'clusters', 'prod'), { namePrefix: '' }).root).toBe('mine');
  expect(() => names(path.join(root, 'dist'), { namePrefix: 'Prod_1' })).toThrow('test: GitOps settings: namePrefix "Prod_1" must be a lower-case DNS label of at most 40 characters');
});

test('flux/root.yaml is the one Kustomization to apply by hand: it syncs the flux/ folder from the GitRepository (day two 8)', () => {
  const resolved = resolveGitOpsSettings('test', { repoURL: 'https://git.example.com/gitops.git' }, { outdir: path.join(root, 'dist') });
  const files = gitopsFiles(build, resolved);
  const [rootKustomization] = parseAllDocuments(files.get('flux/root.yaml')!).map((d) => d.toJSON());
  expect(rootKustomization).toEqual({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'mine', namespace: 'flux-system', labels: { 'app.kubernetes.io/part-of': 'mine' } },
    spec: { interval: '10m', path: './dist/mine/flux', prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
  });
  // Its folder holds no kustomization.yaml: Flux applies every manifest in it, the phase Kustomizations among them.
  expect([...files.keys()].filter((f) => f.startsWith('flux/')).sort()).toEqual(['flux/kustomizations.yaml', 'flux/root.yaml']);
});
