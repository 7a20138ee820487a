#!/usr/bin/env node
// Runs a check command unless it passed before on exactly the same inputs: the test task's
// checks of generated files (`gen-* --check`) and its type check and lint
// (check-types-and-lint.mjs) read only the sources and the installed packages, so their
// verdict on the same content is the same.
//
//   node scripts/unless-unchanged.mjs <command> [<arg>...]
//
// The inputs' key: the command line, Node's version, and the path and content of every file
// git lists in the working tree (tracked and untracked, not ignored: edits not yet committed
// count) plus node_modules/.package-lock.json (what npm installed). After the command passed,
// a file named by the key is kept in node_modules/.cache/cdk8s-mlplatform/checks/passed/ (the
// newest 50) with what the command printed; the next run with the same key says so, prints
// that output again (a passing check's warnings are still warnings: the lint's, for one) and
// exits 0 without running it. The command's stdout and stderr are passed through as it writes
// them (through pipes, so it sees no terminal). A failing command keeps nothing; without git
// (or MLP_SYNTH_CACHE=0) it always runs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const args = process.argv.slice(2);
if (!args.length) {
  process.stderr.write('usage: node scripts/unless-unchanged.mjs <command> [<arg>...]\n');
  process.exit(2);
}
const root = process.cwd();
const dir = path.join(root, 'node_modules', '.cache', 'cdk8s-mlplatform', 'checks', 'passed');
const KEEP = 50;

/** The inputs' key, or undefined when the files cannot be listed. */
function inputKey() {
  if (['0', 'false', 'off', 'no'].includes((process.env.MLP_SYNTH_CACHE ?? '').toLowerCase())) return undefined;
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'buffer', maxBuffer: 1 << 28 });
  if (ls.status !== 0) return undefined;
  const files = ls.stdout.toString('utf8').split('\0').filter(Boolean).sort();
  const hash = createHash('sha256').update(`${JSON.stringify(args)}\0${process.version}\0`);
  for (const f of [...files, 'node_modules/.package-lock.json']) {
    let content;
    try {
      content = fs.readFileSync(path.join(root, f));
    } catch {
      content = Buffer.from('\0absent');
    }
    hash.update(f).update('\0').update(createHash('sha256').update(content).digest()).update('\0');
  }
  return hash.digest('hex');
}

const key = inputKey();
const stamp = key && path.join(dir, key);
if (stamp && fs.existsSync(stamp)) replay(stamp);
else run();

/** Says the check passed before and prints what it printed then (exit code 0, set rather than forced: what is written is flushed). */
function replay(file) {
  let kept = { stdout: '', stderr: '' };
  try {
    kept = { ...kept, ...JSON.parse(fs.readFileSync(file, 'utf8') || '{}') };
  } catch { /* a stamp of an older version of this script: nothing to print again */ }
  const said = kept.stdout || kept.stderr ? ', as it printed then:' : '';
  process.stdout.write(`passed before on the same sources and packages: not run again (${key.slice(0, 12)})${said}\n`);
  process.stdout.write(kept.stdout);
  process.stderr.write(kept.stderr);
  process.exitCode = 0;
}

/** Runs the check, passing its output through, and keeps the stamp with that output when it passes. */
function run() {
  const child = spawn(args[0], args.slice(1), { stdio: ['inherit', 'pipe', 'pipe'], shell: false });
  const printed = { stdout: [], stderr: [] };
  child.stdout.on('data', (c) => { printed.stdout.push(c); process.stdout.write(c); });
  child.stderr.on('data', (c) => { printed.stderr.push(c); process.stderr.write(c); });
  child.on('error', (e) => {
    process.stderr.write(`${args[0]}: ${e.message}\n`);
    process.exitCode = 1;
  });
  child.on('close', (status, signal) => {
    const code = status ?? (signal ? 1 : 0);
    if (code === 0 && stamp) {
      try {
        fs.mkdirSync(dir, { recursive: true });
        const text = (chunks) => Buffer.concat(chunks).toString('utf8');
        fs.writeFileSync(stamp, JSON.stringify({ stdout: text(printed.stdout), stderr: text(printed.stderr) }));
        const old = fs.readdirSync(dir).map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => b.t - a.t).slice(KEEP);
        for (const o of old) fs.rmSync(path.join(dir, o.f), { force: true });
      } catch { /* a cache that cannot be written only costs time */ }
    }
    // A command that could not start ('error' above) closes with no status: it stays failed.
    if (process.exitCode !== 1) process.exitCode = code;
  });
}
