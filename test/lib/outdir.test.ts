import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Kueue } from '../../constructs/kueue';
import { CERT_MANAGER } from '../../lib/component';
import { Platform } from '../../lib/platform';
import { PlatformApp } from '../../lib/synth';

// Day two 5: `new PlatformApp({ outdir: 'clusters/prod' })` then `npx cdk8s synth` failed with
// "app expected to create dist" after writing the output; CDK8S_OUTDIR set by the user is
// replaced by the CLI's own; `cdk8s synth -o DIR` empties DIR. The cdk8s CLI runs the app with
// CDK8S_OUTDIR (its folder, which it emptied) and CDK8S_RECORD_CONSTRUCT_METADATA set.

const saved = { ...process.env };
let dir: string;
let stderr: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outdir-'));
  stderr = '';
  jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
});
afterEach(() => {
  jest.restoreAllMocks();
  process.env = { ...saved };
  fs.rmSync(dir, { recursive: true, force: true });
});

function synth(props: { outdir?: string } = {}): void {
  const app = new PlatformApp({ ...props, gitops: false });
  new Kueue(new Platform(app, 'mine', { name: 'mine', prerequisites: [CERT_MANAGER] }), 'kueue');
  app.synth();
}

const asCdk8sCli = (outdir: string) => Object.assign(process.env, { CDK8S_OUTDIR: outdir, CDK8S_RECORD_CONSTRUCT_METADATA: 'false' });

test("under `cdk8s synth`, an app's own outdir gets the output and the CLI's folder is created, so the CLI does not fail (day two 5)", () => {
  asCdk8sCli(path.join(dir, 'dist'));
  synth({ outdir: path.join(dir, 'clusters', 'prod') });
  expect(fs.existsSync(path.join(dir, 'clusters', 'prod', 'mine', 'kustomization.yaml'))).toBe(true);
  expect(fs.readdirSync(path.join(dir, 'dist'))).toEqual([]);
  expect(stderr).toContain(`note: the platforms were written to ${path.join(dir, 'clusters', 'prod')}`);
});

test('MLP_OUTDIR chooses the folder (the CLI replaces CDK8S_OUTDIR) and replaces only the platform\'s folder in it (day two 5)', () => {
  asCdk8sCli(path.join(dir, 'dist'));
  process.env.MLP_OUTDIR = path.join(dir, 'gitops');
  fs.mkdirSync(path.join(dir, 'gitops', 'other'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'gitops', 'other', 'keep.yaml'), 'kept: true\n');
  synth();
  expect(fs.readdirSync(path.join(dir, 'gitops')).sort()).toEqual(['mine', 'other']);
  expect(fs.readFileSync(path.join(dir, 'gitops', 'other', 'keep.yaml'), 'utf8')).toBe('kept: true\n');
  expect(fs.existsSync(path.join(dir, 'dist'))).toBe(true);
});

test('`cdk8s synth -o DIR` into a folder other than dist/ warns that the CLI empties it and names the safe way (day two 5)', () => {
  asCdk8sCli(path.join(dir, 'elsewhere'));
  synth();
  expect(fs.existsSync(path.join(dir, 'elsewhere', 'mine', 'REPORT.md'))).toBe(true);
  expect(stderr).toContain(`warning: \`cdk8s synth\` empties ${path.join(dir, 'elsewhere')} before every run`);
  expect(stderr).toContain('npx mlplatform synth --out DIR');
});

test('run by node alone, nothing is said and nothing else is created', () => {
  delete process.env.CDK8S_OUTDIR;
  delete process.env.CDK8S_RECORD_CONSTRUCT_METADATA;
  synth({ outdir: path.join(dir, 'out') });
  expect(fs.readdirSync(dir)).toEqual(['out']);
  expect(stderr).toBe('');
});
