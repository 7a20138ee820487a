import { spawn, spawnSync } from 'child_process';
import * as path from 'path';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'concurrently.mjs');
const run = (...commands: string[]) => spawnSync(process.execPath, [SCRIPT, ...commands], { encoding: 'utf8' });

describe('scripts/concurrently.mjs (the test task\'s checks before jest)', () => {
  test('runs the commands at the same time and prints each one\'s output as a block, in the order given', () => {
    // One after another, these would take at least 2 s.
    const started = Date.now();
    const r = run('sleep 1; echo one >&2', 'sleep 1; echo two');
    expect(Date.now() - started).toBeLessThan(1900);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('» sleep 1; echo one >&2\none\n» sleep 1; echo two\ntwo\n');
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
    const child = spawn(process.execPath, [SCRIPT, 'echo early; sleep 1.5; echo late', 'echo second']);
    const started = Date.now();
    let out = '';
    let earlyAt = -1;
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (earlyAt < 0 && out.includes('early')) earlyAt = Date.now() - started;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(earlyAt).toBeGreaterThanOrEqual(0);
    expect(earlyAt).toBeLessThan(1200);
    expect(out).toBe('» echo early; sleep 1.5; echo late\nearly\nlate\n» echo second\nsecond\n');
  });

  test('without commands: usage, exit 2', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: /);
  });
});
