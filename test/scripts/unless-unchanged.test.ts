import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'unless-unchanged.mjs');

describe('scripts/unless-unchanged.mjs (the test task\'s generated-file checks)', () => {
  let dir: string;
  /** Runs the script in the repository with a command that counts its runs in runs.log (ignored by git) and exits with `code`. */
  const check = (code = 0, env: NodeJS.ProcessEnv = {}, say = '') => spawnSync(process.execPath, [SCRIPT, '/bin/sh', '-c', `echo ran >> runs.log; ${say} exit ${code}`], { cwd: dir, encoding: 'utf8', env: { ...process.env, MLP_SYNTH_CACHE: '', ...env } });
  const runs = () => (fs.existsSync(path.join(dir, 'runs.log')) ? fs.readFileSync(path.join(dir, 'runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unless-unchanged-'));
    const git = (...a: string[]) => spawnSync('git', a, { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    fs.writeFileSync(path.join(dir, '.gitignore'), 'runs.log\nnode_modules\n');
    fs.writeFileSync(path.join(dir, 'source.ts'), 'export const a = 1;\n');
    git('add', '.');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a passing check is not run again on the same files; an edit, a new file or other installed packages run it again', () => {
    expect(check().status).toBe(0);
    expect(runs()).toBe(1);
    const again = check();
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^passed before on the same sources and packages: not run again/);
    expect(runs()).toBe(1);
    // An edit not committed counts.
    fs.writeFileSync(path.join(dir, 'source.ts'), 'export const a = 2;\n');
    check();
    expect(runs()).toBe(2);
    // So does an untracked file, and what npm installed.
    fs.writeFileSync(path.join(dir, 'other.ts'), 'export const b = 1;\n');
    check();
    expect(runs()).toBe(3);
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'node_modules', '.package-lock.json'), '{}');
    check();
    expect(runs()).toBe(4);
    check();
    expect(runs()).toBe(4);
  });

  test('a failing check keeps nothing: it runs again, with its exit code; MLP_SYNTH_CACHE=0 always runs', () => {
    expect(check(3).status).toBe(3);
    expect(check(3).status).toBe(3);
    expect(runs()).toBe(2);
    expect(check(0, { MLP_SYNTH_CACHE: '0' }).status).toBe(0);
    expect(check(0, { MLP_SYNTH_CACHE: '0' }).status).toBe(0);
    expect(runs()).toBe(4);
  });

  test('a check skipped as unchanged prints again what it printed when it passed (its warnings, on the stream it wrote them to)', () => {
    const say = 'echo "src/a.ts:1:1 warning import order"; echo "1 warning" >&2;';
    const first = check(0, {}, say);
    expect({ status: first.status, stdout: first.stdout, stderr: first.stderr }).toEqual({ status: 0, stdout: 'src/a.ts:1:1 warning import order\n', stderr: '1 warning\n' });
    const again = check(0, {}, say);
    expect(runs()).toBe(1);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^passed before on the same sources and packages: not run again \([0-9a-f]{12}\), as it printed then:\nsrc\/a\.ts:1:1 warning import order\n$/);
    expect(again.stderr).toBe('1 warning\n');
    // A command that printed nothing: nothing to print again.
    fs.writeFileSync(path.join(dir, 'source.ts'), 'export const a = 3;\n');
    check();
    expect(check().stdout).toMatch(/^passed before on the same sources and packages: not run again \([0-9a-f]{12}\)\n$/);
  });

  test('a command that cannot be started fails, naming it', () => {
    const r = spawnSync(process.execPath, [SCRIPT, path.join(dir, 'no-such-command')], { cwd: dir, encoding: 'utf8', env: { ...process.env, MLP_SYNTH_CACHE: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no-such-command: spawn .*ENOENT/);
  });
});
