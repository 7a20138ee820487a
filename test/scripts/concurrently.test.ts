import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'concurrently.mjs');
/** A shell loop that waits (up to about 20 s) for a file to exist, and fails if it does not. */
const waitFor = (file: string) => `for i in $(seq 400); do [ -f ${file} ] && break; sleep 0.05; done; [ -f ${file} ]`;
const run = (...commands: string[]) => spawnSync(process.execPath, [SCRIPT, ...commands], { encoding: 'utf8' });

describe('scripts/concurrently.mjs (the test task\'s checks before jest)', () => {
  test('runs the commands at the same time and prints each one\'s output as a block, in the order given', () => {
    // The first command waits for a file the second creates: run one after the other, the first
    // would give up (and fail) before the second started. No clock is read.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concurrently-'));
    const r = spawnSync(process.execPath, [SCRIPT, `${waitFor('ready')} && echo one >&2`, 'touch ready; echo two'], { encoding: 'utf8', cwd: dir });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`» ${waitFor('ready')} && echo one >&2\none\n» touch ready; echo two\ntwo\n`);
  });

  test('fails with the exit code of the first command that failed, after every command has ended and been printed', () => {
    const r = run('echo fine', 'echo broken; exit 3', 'sleep 0.2; echo later; exit 4');
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('» echo broken; exit 3\nbroken\n» echo broken; exit 3: failed (exit 3) after');
    expect(r.stdout).toContain('» sleep 0.2; echo later; exit 4\nlater\n» sleep 0.2; echo later; exit 4: failed (exit 4) after');
  });

  test('after --, the rest is one command with its arguments quoted as given', () => {
    const r = run('echo first', '--', 'printf', '[%s]', 'two words', 'it\'s', '$HOME');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('» echo first\nfirst\n» printf \'[%s]\' \'two words\' \'it\'\\\'\'s\' \'$HOME\'\n[two words][it\'s][$HOME]');
  });

  test('the first command not yet done is shown as it writes; a later one waits its turn', async () => {
    // The first command prints "early", then waits for a file this test creates only once it has
    // seen "early": held back until the command ended, "early" would never show, and the command
    // would give up and fail.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concurrently-'));
    const first = `echo early; ${waitFor('seen')} && echo late`;
    const child = spawn(process.execPath, [SCRIPT, first, 'echo second'], { cwd: dir });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('early') && !fs.existsSync(path.join(dir, 'seen'))) fs.writeFileSync(path.join(dir, 'seen'), '');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(out).toBe(`» ${first}\nearly\nlate\n» echo second\nsecond\n`);
  });

  test('without commands: usage, exit 2', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: /);
  });
});
