import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/app.js keys a synth's output by the content of every input file. In a project whose
// build/ it keeps, the digest of those files is recorded in build/.input-files.json with each
// file's size and mtime, and used while they stand: these tests hold the record to giving the
// key hashing gives, and to being dropped as soon as a file changes.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const app = require(path.resolve(__dirname, '../../scripts/app.js')) as {
  inputKey(root: string, env: Record<string, string | undefined>, outdir: string, cwd?: string): string;
};

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A small project with inputs of each kind; with a build/ kept by scripts/app.js when `built`. */
function project(built: boolean): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-input-record-'));
  made.push(root);
  const files: Record<string, string> = {
    'package.json': '{"name":"x","version":"1.0.0"}',
    'package-lock.json': '{}',
    'tsconfig.json': '{}',
    'cdk8s.yaml': 'app: node scripts/app.js\n',
    'main.ts': 'export {};\n',
    'lib/a.ts': 'export const a = 1;\n',
    'constructs/c/c.ts': 'export const c = 1;\n',
    ...(built ? { 'build/.manifest.json': '{"config":"","files":{}}' } : {}),
  };
  for (const [f, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), t);
  }
  return root;
}

const env = { MLP_PLATFORMS: 'serving' };
const key = (root: string) => app.inputKey(root, env, 'dist', root);
const record = (root: string) => path.join(root, 'build', '.input-files.json');

describe('the input files\' record (build/.input-files.json)', () => {
  test('INPUT-RECORD-SAME: the key with the record is the key hashing gives; a project without build/ keeps none', () => {
    const plain = project(false);
    key(plain);
    expect(fs.existsSync(record(plain))).toBe(false);
    const built = project(true);
    const first = key(built);
    expect(fs.existsSync(record(built))).toBe(true);
    expect(key(built)).toBe(first);
    // Hashed again without the record: the same key.
    fs.rmSync(record(built));
    expect(key(built)).toBe(first);
  });

  test('INPUT-RECORD-USED: while the files stand as recorded the record answers; a file changed, added or removed is hashed again', () => {
    const root = project(true);
    const real = key(root);
    const kept = JSON.parse(fs.readFileSync(record(root), 'utf8'));
    fs.writeFileSync(record(root), JSON.stringify({ ...kept, digest: 'f'.repeat(64) }));
    const fromRecord = key(root);
    expect(fromRecord).not.toBe(real);
    // Same size, other content, another mtime: hashed again, the real key.
    const a = path.join(root, 'lib', 'a.ts');
    const later = (s: number) => fs.utimesSync(a, new Date(Date.now() + s * 1000), new Date(Date.now() + s * 1000));
    fs.writeFileSync(a, 'export const a = 2;\n');
    later(10);
    const changed = key(root);
    expect(changed).not.toBe(real);
    expect(changed).not.toBe(fromRecord);
    fs.writeFileSync(a, 'export const a = 1;\n');
    later(20);
    expect(key(root)).toBe(real);
    fs.writeFileSync(path.join(root, 'lib', 'b.ts'), '');
    expect(key(root)).not.toBe(real);
    fs.rmSync(path.join(root, 'lib', 'b.ts'));
    expect(key(root)).toBe(real);
  });
});
