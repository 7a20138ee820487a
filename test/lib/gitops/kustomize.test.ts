import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { gitopsBuild } from './fixture';
import { findKubectl, idOf, parseDocs, writeToTemp } from './support';
import { Phase, PHASES } from '../../../lib/phases';
import { PlatformBuild } from '../../../lib/synth';

const kubectl = findKubectl();
let build: PlatformBuild;
let dir: string;
/** What we synthesized, in the order the platform's kustomization.yaml lists it. */
let expected: any[];

beforeAll(() => {
  build = gitopsBuild();
  dir = writeToTemp(build);
  expected = phaseFiles(dir).flatMap((f) => parseDocs(fs.readFileSync(path.join(dir, f), 'utf8')));
  if (!kubectl) {
    process.stderr.write('kubectl not found (PATH or $KUBECTL): the test that renders with `kubectl kustomize` is SKIPPED; only the kustomization file lists are checked\n');
  }
});

afterAll(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

describe('kustomize output', () => {
  test('the platform kustomization lists the phase folders, in apply order, whose kustomizations carry the patches (day two 6)', () => {
    const resources: string[] = parseDocs(fs.readFileSync(path.join(dir, 'kustomization.yaml'), 'utf8'))[0].resources;
    expect(resources).toEqual(PHASES.filter((p) => fs.existsSync(path.join(dir, p))));
    const onDisk = PHASES.filter((p) => fs.existsSync(path.join(dir, p)))
      .flatMap((p) => fs.readdirSync(path.join(dir, p)).filter((f) => f !== 'kustomization.yaml').map((f) => `${p}/${f}`));
    // Every file on disk, once; the order is the kustomizations' (files are named by component, day two 9).
    expect([...phaseFiles(dir)].sort()).toEqual([...onDisk].sort());
    expect(expected.map(idOf)).toEqual(PHASES.flatMap((p) => phaseObjects(p).map(idOf)));
  });

  test('each phase kustomization lists the phase files, in apply order', () => {
    for (const phase of PHASES.filter((p) => fs.existsSync(path.join(dir, p)))) {
      const k = parseDocs(fs.readFileSync(path.join(dir, phase, 'kustomization.yaml'), 'utf8'))[0];
      const files = fs.readdirSync(path.join(dir, phase)).filter((f) => f !== 'kustomization.yaml');
      expect([phase, [...k.resources].sort()]).toEqual([phase, files.sort()]);
      expect([phase, k.resources]).toEqual([phase, build.files.has(`${phase}/00-namespaces.yaml`) ? ['00-namespaces.yaml', ...k.resources.slice(1)] : k.resources]);
    }
  });

  (kubectl ? test : test.skip)(`kubectl kustomize renders every object in apply order, CRDs and Namespaces protected (day two 6)${kubectl ? '' : ' (SKIPPED: kubectl not found)'}`, () => {
    const rendered = parseDocs(execFileSync(kubectl!, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 }));
    expect(rendered.map(idOf)).toEqual(expected.map(idOf));
    for (const o of rendered.filter((r) => PROTECTED.includes(r.kind))) expect([idOf(o), o.metadata.annotations?.['kustomize.toolkit.fluxcd.io/prune']]).toEqual([idOf(o), 'disabled']);
    expect(rendered.map(strip).map((o) => JSON.parse(JSON.stringify(o)))).toEqual(expected);
  });

  (kubectl ? test : test.skip)(`kubectl kustomize renders each phase folder (what Argo CD and Flux sync) as the phase's objects${kubectl ? '' : ' (SKIPPED: kubectl not found)'}`, () => {
    const phases = PHASES.filter((p) => fs.existsSync(path.join(dir, p)));
    expect(phases.length).toBeGreaterThanOrEqual(5);
    const all: any[] = [];
    for (const phase of phases) {
      const rendered = parseDocs(execFileSync(kubectl!, ['kustomize', path.join(dir, phase)], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 }));
      const mine = phaseObjects(phase);
      expect([phase, rendered.map(idOf)]).toEqual([phase, mine.map(idOf)]);
      all.push(...rendered);
    }
    // Exactly the CRDs and Namespaces carry the protection both engines honour, and nothing else changes.
    const PROTECT = { 'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false', 'kustomize.toolkit.fluxcd.io/prune': 'disabled' };
    const protectedKinds = ['CustomResourceDefinition', 'Namespace'];
    expect(all.filter((o) => protectedKinds.includes(o.kind)).length).toBeGreaterThan(10);
    for (const o of all) {
      const annotations = o.metadata.annotations ?? {};
      expect([idOf(o), annotations['argocd.argoproj.io/sync-options'], annotations['kustomize.toolkit.fluxcd.io/prune']])
        .toEqual(protectedKinds.includes(o.kind) ? [idOf(o), PROTECT['argocd.argoproj.io/sync-options'], 'disabled'] : [idOf(o), undefined, undefined]);
    }
    expect(all.map(strip).map((o) => JSON.parse(JSON.stringify(o)))).toEqual(expected);
  });
});

/** A phase's objects in apply order: its Namespaces (one per name) first, then the rest in platform order. */
function phaseObjects(phase: Phase): any[] {
  const objs = build.model.objects.filter((o) => o.phase === phase).map((o) => o.json);
  const seen = new Set<string>();
  const namespaces = objs.filter((o) => o.kind === 'Namespace' && !seen.has(o.metadata.name) && !!seen.add(o.metadata.name));
  return [...namespaces, ...objs.filter((o) => o.kind !== 'Namespace')];
}

const PROTECTED = ['CustomResourceDefinition', 'Namespace'];

/** An object without the annotations the phase kustomizations add to CRDs and Namespaces. */
function strip(o: any): any {
  if (!PROTECTED.includes(o.kind)) return o;
  const { ['argocd.argoproj.io/sync-options']: _a, ['kustomize.toolkit.fluxcd.io/prune']: _f, ...rest } = o.metadata.annotations;
  return { ...o, metadata: { ...o.metadata, annotations: Object.keys(rest).length ? rest : undefined } };
}

/** The phase files the platform's kustomization reaches, through each phase folder's kustomization, in order. */
function phaseFiles(root: string): string[] {
  const resources: string[] = parseDocs(fs.readFileSync(path.join(root, 'kustomization.yaml'), 'utf8'))[0].resources;
  return resources.flatMap((r) => (fs.statSync(path.join(root, r)).isDirectory() ? phaseFiles(path.join(root, r)).map((f) => `${r}/${f}`) : [r]));
}
