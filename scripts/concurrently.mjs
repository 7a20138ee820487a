#!/usr/bin/env node
// Runs shell commands at the same time and fails if any fails: the test task's checks that
// do not depend on each other (generated files, types, lint) and jest share the machine's
// cores instead of waiting for each other.
//
//   node scripts/concurrently.mjs 'cmd one' 'cmd two' ... [-- program arg ...]
//
// After `--`, the rest is one more command, its arguments quoted for the shell as given (so
// that a task can pass its own arguments through to it: `npx projen test test/lib`).
//
// The log reads as if the commands had run one after another, in the order given: each
// command's output (stdout and stderr, as written) comes as one block under a `» cmd` header.
// The first command not yet done is shown as it writes; the others' output is held until
// every command before them is done. The exit code is that of the first command (in the
// order given) that failed, or 0; every command runs to its end either way.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const commands = dash < 0 ? args : [...args.slice(0, dash), args.slice(dash + 1).map(quote).join(' ')];
if (!commands.length || commands.some((c) => !c.trim())) {
  process.stderr.write('usage: node scripts/concurrently.mjs <command> [<command>...] [-- <program> [<arg>...]]\n');
  process.exit(2);
}

const runs = commands.map((command) => ({ command, chunks: [], done: undefined, started: Date.now() }));
let shown = 0; // the run whose output goes straight through
let exit = 0;

function write(chunk) {
  process.stdout.write(chunk);
}

/** Prints what can be printed: the finished runs in order, then the live one's output so far. */
function advance() {
  while (shown < runs.length) {
    const run = runs[shown];
    if (!run.headed) {
      write(`» ${run.command}\n`);
      run.headed = true;
    }
    for (const c of run.chunks.splice(0)) write(c);
    if (!run.done) return;
    const { code, signal, seconds } = run.done;
    if (code !== 0) {
      write(`» ${run.command}: failed (${signal ? `signal ${signal}` : `exit ${code}`}) after ${seconds.toFixed(1)} s\n`);
      if (!exit) exit = code;
    }
    shown++;
  }
  process.exitCode = exit;
}

for (const run of runs) {
  const child = spawn('/bin/sh', ['-c', run.command], { stdio: ['ignore', 'pipe', 'pipe'] });
  const take = (c) => {
    run.chunks.push(c);
    if (runs[shown] === run) advance();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.on('error', (e) => take(Buffer.from(`${e.message}\n`)));
  child.on('close', (code, signal) => {
    run.done = { code: code ?? (signal ? 128 : 1), signal, seconds: (Date.now() - run.started) / 1000 };
    advance();
  });
}
advance();
