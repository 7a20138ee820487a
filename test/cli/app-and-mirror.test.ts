import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { run } from '../../cli/main';
import { architectureMarkdown, architectureOf, mirrorList, mirrorPairs, qualifiedImage } from '../../lib/architecture';
import { ServingPlatform } from '../../platforms';

jest.setTimeout(180_000);

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

const ROOT = path.join(__dirname, '..', '..');

/** A user's own app, as a project that installed the package writes it (here from the sources). */
const APP = `
const { PlatformApp, runApp } = require(${JSON.stringify(path.join(ROOT, 'lib', 'synth'))});
const { Platform } = require(${JSON.stringify(path.join(ROOT, 'lib', 'platform'))});
const { CERT_MANAGER } = require(${JSON.stringify(path.join(ROOT, 'lib', 'component'))});
const { Kueue } = require(${JSON.stringify(path.join(ROOT, 'constructs', 'kueue'))});
const app = new PlatformApp({ outdir: 'out' });
const platform = new Platform(app, 'mine', { name: 'mine', prerequisites: [CERT_MANAGER], images: { registryMirror: 'mirror.example.com/ml' } });
new Kueue(platform, 'kueue');
runApp(app);
`;

describe('report, graph and mirror for a user\'s own app (--app) (issues 17.9, 17.12)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-app-'));
    fs.writeFileSync(path.join(dir, 'app.js'), APP);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('report and graph load the app without synthesizing it', async () => {
    const report = await cli(['report', '--app', 'app.js'], dir);
    expect(report).toMatchObject({ code: 0, stderr: '' });
    expect(report.stdout).toMatch(/^# Architecture of platform mine\n/);
    expect(report.stdout).toContain('| `registry.k8s.io/kueue/kueue:');
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    const graph = await cli(['graph', '--app', 'app.js', '--platform', 'mine'], dir);
    expect(graph.stdout).toContain('n_kueue["kueue ');
    const wrong = await cli(['graph', '--app', 'app.js', '--platform', 'theirs'], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("graph: no platform named 'theirs' in app.js (platforms: mine)");
    expect((await cli(['report', '--app', 'missing.js'], dir)).stderr).toContain('report: --app missing.js: no such file');
  });

  test('OPS-6: synth and list take --app FILE', async () => {
    const list = await cli(['list', 'platforms', '--app', 'app.js'], dir);
    expect(list).toEqual({ code: 0, stdout: 'mine  from app.js\n', stderr: '' });
    const components = await cli(['list', 'components', '--app', 'app.js'], dir);
    expect(components.stdout).toMatch(/^kueue \(Kueue\) \S+ {2}namespace \S+ {2}platforms: mine\n/);
    const out = path.join(dir, 'synth-out');
    const synth = await cli(['synth', '--app', 'app.js', '--out', out, '--formats', 'none'], dir);
    expect(synth.stderr).toBe('');
    expect(synth.code).toBe(0);
    expect(synth.stdout).toMatch(/^mine: \d+ objects, \d+ files -> /);
    expect(fs.existsSync(path.join(out, 'mine', 'kustomization.yaml'))).toBe(true);
    const wrong = await cli(['synth', '--app', 'app.js', '--platform', 'serving'], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("synth: no platform named 'serving' in app.js (platforms: mine)");
    // plan --app: the output synthesized above against the app built now: nothing to review;
    // against an empty folder, every object of the app is new.
    expect(await cli(['plan', '--from', path.join(out, 'mine'), '--app', 'app.js'], dir)).toEqual({ code: 0, stdout: 'no changes that need review\n', stderr: '' });
    fs.mkdirSync(path.join(dir, 'empty'), { recursive: true });
    const fresh = await cli(['plan', '--from', 'empty', '--app', 'app.js', '--platform', 'mine'], dir);
    expect(fresh.stderr).toBe('');
    expect(fresh.stdout).toContain('kueue');
  });

  test('mirror prints source -> destination pairs as skopeo lines, an ImageSetConfiguration or TSV', async () => {
    const skopeo = await cli(['mirror', '--app', 'app.js'], dir);
    expect(skopeo.code).toBe(0);
    const lines = skopeo.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^skopeo copy --all docker:\/\/(?!mirror\.example\.com)\S+ docker:\/\/mirror\.example\.com\/ml\/\S+$/);
    expect(lines).toContainEqual(expect.stringMatching(/^skopeo copy --all docker:\/\/registry\.k8s\.io\/kueue\/kueue:v\S+ docker:\/\/mirror\.example\.com\/ml\/kueue\/kueue:v\S+$/));
    const imageset = await cli(['mirror', '--app', 'app.js', '--format', 'imageset'], dir);
    expect(imageset.stdout).toMatch(/^kind: ImageSetConfiguration\napiVersion: mirror\.openshift\.io\/v2alpha1\nmirror:\n {2}additionalImages:\n {4}- name: registry\.k8s\.io\/kueue\/kueue:/);
    const tsv = await cli(['mirror', '--app', 'app.js', '--format', 'tsv'], dir);
    expect(tsv.stdout.split('\n')[0]).toMatch(/^\S+\tmirror\.example\.com\/ml\/\S+$/);
  });

  test('a default platform with --mirror; Docker Hub sources are spelled out; a bad mirror names the grammar', async () => {
    const r = await cli(['mirror', '--platform', 'serving', '--mirror', 'mirror.example.com/ml'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('skopeo copy --all docker://docker.io/kserve/kserve-controller:v0.20.0 docker://mirror.example.com/ml/kserve/kserve-controller:v0.20.0\n');
    const bad = await cli(['mirror', '--platform', 'serving', '--mirror', 'https://mirror.example.com/'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('OCI distribution reference grammar');
    const none = await cli(['mirror', '--platform', 'serving'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give --mirror REGISTRY');
  });
});

test('REPORT.md lists each mirrored image with its source', () => {
  const p = new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving', { images: { registryMirror: 'mirror.example.com/ml' } });
  const a = architectureOf(p.resolve());
  expect(a.mirror).toContainEqual({ source: 'docker.io/kserve/kserve-controller:v0.20.0', destination: 'mirror.example.com/ml/kserve/kserve-controller:v0.20.0' });
  expect(mirrorPairs(a)).toBe(a.mirror);
  expect(architectureMarkdown(a)).toContain('| `docker.io/kserve/kserve-controller:v0.20.0` | `mirror.example.com/ml/kserve/kserve-controller:v0.20.0` |');
  expect(mirrorList([{ source: 'a', destination: 'a' }], 'skopeo')).toBe('');
  expect(qualifiedImage('busybox:1.36')).toBe('docker.io/library/busybox:1.36');
  expect(qualifiedImage('quay.io/x/y@sha256:' + 'a'.repeat(64))).toBe('quay.io/x/y@sha256:' + 'a'.repeat(64));
});
