import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { newPlatform, OtherComponent, TestComponent } from './support';
import { Component } from '../../lib/component';
import { buildPlatform } from '../../lib/synth';
import { refOf, versionDrift, versionDriftReport, versionEntries, VersionEntry, VersionsFile, versionsFileText, VersionsTable } from '../../lib/versions';
import { DEFAULT_PLATFORMS } from '../../platforms';

const ROOT = path.join(__dirname, '..', '..');
const FILE_TEXT = fs.readFileSync(path.join(ROOT, 'versions.json'), 'utf8');
const FILE: VersionsFile = JSON.parse(FILE_TEXT);

const entry = (overrides: Partial<VersionEntry> = {}): VersionEntry => ({
  component: 'widgets', construct: 'TestComponent', key: 'manager', repository: 'example/manager', tag: 'v1.0.0', modelled: 'v1.0.0', ...overrides,
});

describe('versions.json', () => {
  let components: Component[];
  beforeAll(() => {
    const app = new App({ outdir: '/nonexistent' });
    components = DEFAULT_PLATFORMS.map((p) => p.create(app)).flatMap((p) => p.components);
  });

  test('every image of every default component has an entry with its repository and modelled release', () => {
    const missing: string[] = [];
    for (const c of components) {
      for (const [key, spec] of Object.entries(c.images)) {
        const e = VersionsTable.DEFAULT.entryFor(c, key);
        if (!e || e.repository !== spec.repository || e.modelled !== refOf(spec)) missing.push(`${c.componentName}/${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('every entry names a real image of a real component', () => {
    const real = new Set(components.flatMap((c) => Object.entries(c.images).map(([k, s]) => `${c.constructor.name}/${k} ${s.repository}`)));
    expect(FILE.images.map((e) => `${e.construct}/${e.key} ${e.repository}`).filter((x) => !real.has(x))).toEqual([]);
    expect(FILE.images.length).toBeGreaterThan(100);
  });

  test('is what the generator writes (npx projen gen:versions)', () => {
    expect(versionsFileText(versionEntries(components, FILE))).toBe(FILE_TEXT);
  });

  test('Renovate\'s custom manager finds every entry\'s repository and tag', () => {
    const renovate = JSON.parse(fs.readFileSync(path.join(ROOT, 'renovate.json'), 'utf8'));
    const manager = renovate.customManagers[0];
    expect(manager.managerFilePatterns).toEqual(['/^versions\\.json$/']);
    const found = [...FILE_TEXT.matchAll(new RegExp(manager.matchStrings[0], 'g'))].map((m) => `${m.groups!.depName}:${m.groups!.currentValue}`);
    expect(found).toEqual(FILE.images.map((e) => `${e.repository}:${e.tag}`));
    const withDigest = versionsFileText({ images: [entry({ tag: 'v1.1.0', digest: `sha256:${'a'.repeat(64)}` })] });
    const m = new RegExp(manager.matchStrings[0]).exec(withDigest)!;
    expect(m.groups).toMatchObject({ depName: 'example/manager', currentValue: 'v1.1.0', currentDigest: `sha256:${'a'.repeat(64)}` });
  });
});

describe('VersionsTable', () => {
  test('synth deploys the file\'s tag; the platform\'s overrides still win', () => {
    const table = new VersionsTable({ images: [entry({ tag: 'v1.1.0' })] });
    const p = newPlatform({ images: { versions: table } });
    const c = new TestComponent(p, 'widgets');
    expect(c.image('manager')).toBe('example/manager:v1.1.0');
    const q = newPlatform({ images: { versions: table, overrides: { 'widgets/manager': { tag: 'v2.0.0' } } } });
    expect(new TestComponent(q, 'widgets').image('manager')).toBe('example/manager:v2.0.0');
  });

  test('a digest in the file pins the image', () => {
    const digest = `sha256:${'b'.repeat(64)}`;
    const c = new TestComponent(newPlatform({ images: { versions: new VersionsTable({ images: [entry({ digest })] }) } }), 'widgets');
    expect(c.image('manager')).toBe(`example/manager@${digest}`);
  });

  test('subclasses use their parent\'s entries unless they have their own; another repository is ignored', () => {
    const table = new VersionsTable({ images: [entry({ tag: 'v1.1.0' })] });
    expect(new OtherComponent(newPlatform({ images: { versions: table } }), 'other').image('manager')).toBe('example/manager:v1.1.0');
    const own = new VersionsTable({ images: [entry({ tag: 'v1.1.0' }), entry({ construct: 'OtherComponent', tag: 'v1.2.0' })] });
    expect(new OtherComponent(newPlatform({ images: { versions: own } }), 'other').image('manager')).toBe('example/manager:v1.2.0');
    const elsewhere = new VersionsTable({ images: [entry({ repository: 'example/fork', tag: 'v9.0.0' })] });
    expect(new TestComponent(newPlatform({ images: { versions: elsewhere } }), 'widgets').image('manager')).toBe('example/manager:v1.0.0');
  });

  test('REPORT.md lists images whose deployed release differs from the modelled one', () => {
    const table = new VersionsTable({ images: [entry({ tag: 'v1.1.0' })] });
    const p = newPlatform({ images: { versions: table } });
    const c = new TestComponent(p, 'widgets', 'widgets-system', (t) => t.namespaceObject());
    expect(versionDrift([c], table)).toEqual([{ component: 'widgets', key: 'manager', repository: 'example/manager', modelled: 'v1.0.0', deployed: 'v1.1.0' }]);
    expect(buildPlatform(p).files.get('REPORT.md')).toContain('\n## Versions data file\n');
    expect(buildPlatform(p).files.get('REPORT.md')).toContain('- widgets/manager example/manager: v1.1.0 (modelled v1.0.0)');
    expect(versionDriftReport(versionDrift([c], new VersionsTable({ images: [entry()] })))).toBe('');
  });
});

describe('versionEntries (the generator)', () => {
  test('keeps a bumped tag while the construct models the same release; a re-modelled construct resets it', () => {
    const c = new TestComponent(newPlatform(), 'widgets');
    expect(versionEntries([c], { images: [entry({ tag: 'v1.1.0' })] }).images).toEqual([entry({ tag: 'v1.1.0' })]);
    expect(versionEntries([c], { images: [entry({ tag: 'v1.1.0', modelled: 'v0.9.0' })] }).images).toEqual([entry()]);
    expect(versionEntries([c]).images).toEqual([entry()]);
  });

  test('fails when two instances of one class disagree on an image', () => {
    class Pinned extends TestComponent {
      public readonly images = { manager: { repository: 'example/manager', tag: this.node.id === 'a' ? 'v1.0.0' : 'v2.0.0' } };
    }
    const p = newPlatform();
    expect(() => versionEntries([new Pinned(p, 'a'), new Pinned(p, 'b')])).toThrow(
      "Pinned image 'manager' is example/manager:v2.0.0 in component 'b' but example/manager:v1.0.0 in 'a'; one class must have one versions table");
  });
});
