import { spawnSync } from 'child_process';
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

  test('without commands: usage, exit 2', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: /);
  });
});
