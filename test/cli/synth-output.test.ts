import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { run } from '../../cli/main';
import { PlatformApp } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';

// `mlplatform synth` and `npx cdk8s synth` (main.ts: a PlatformApp) write one output.
jest.setTimeout(300_000);

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

/** Every file under dir (relative path -> content), sorted. */
function tree(dir: string): Array<[string, string]> {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
}

test('mlplatform synth --platform serving writes byte for byte what PlatformApp (npx cdk8s synth) writes, GitOps files included', async () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-same-'));
  fs.mkdirSync(path.join(repo, '.git'));
  try {
    const r = await cli(['synth', '--platform', 'serving', '--out', 'dist'], repo);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    fs.renameSync(path.join(repo, 'dist'), path.join(repo, 'from-cli'));
    const app = new PlatformApp({ outdir: path.join(repo, 'dist') });
    DEFAULT_PLATFORMS.find((p) => p.name === 'serving')!.create(app);
    app.synth();
    const fromCli = tree(path.join(repo, 'from-cli', 'serving'));
    expect(fromCli.map(([f]) => f)).toEqual(expect.arrayContaining(['argocd/root.yaml', 'flux/kustomizations.yaml', '00-foundation/kustomization.yaml', 'REPORT.md', 'kustomization.yaml']));
    expect(fromCli).toEqual(tree(path.join(repo, 'dist', 'serving')));
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});

test('mlplatform synth takes the repository, revision and formats as flags, and rejects bad ones before building', async () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-flags-'));
  try {
    const bad = await cli(['synth', '--platform', 'serving', '--out', 'o', '--formats', 'argo'], repo);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("synth: --formats 'argo': list some of argocd, flux, helm, cmp (comma-separated), or 'none'");
    const badUrl = await cli(['synth', '--platform', 'serving', '--out', 'o', '--repo-url', 'not a url'], repo);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('mlplatform synth: GitOps settings: repoURL "not a url" must be the URL of the git repository');
    expect(fs.existsSync(path.join(repo, 'o'))).toBe(false);
    const ok = await cli(['synth', '--platform', 'serving', '--out', 'o', '--repo-url', 'https://git.example.com/mine.git', '--revision', 'v1', '--formats', 'argocd'], repo);
    expect(ok.code).toBe(0);
    const root = fs.readFileSync(path.join(repo, 'o', 'serving', 'argocd', 'root.yaml'), 'utf8');
    expect(root).toContain('repoURL: https://git.example.com/mine.git');
    expect(root).toContain('targetRevision: v1');
    // No repository around the folder: it is the root, and the paths start there.
    expect(root).toContain('path: serving/argocd/apps');
    expect(fs.readdirSync(path.join(repo, 'o', 'serving'))).not.toContain('flux');
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
