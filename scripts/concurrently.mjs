#!/usr/bin/env node
// Runs shell commands at the same time and fails if any fails: the test task's checks that
// do not depend on each other (generated files, types, lint) share the machine's cores
// instead of waiting for each other.
//
//   node scripts/concurrently.mjs 'cmd one' 'cmd two' ...
//
// Each command's output (stdout and stderr, interleaved as written) is held and printed as
// one block under a `» cmd` header, in the order given, as soon as it and the commands
// before it have ended; so the log reads as if they had run one after another. The exit
// code is that of the first command (in the order given) that failed, or 0.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (!commands.length) {
  process.stderr.write('usage: node scripts/concurrently.mjs <command> [<command>...]\n');
  process.exit(2);
}

const runs = commands.map((command) => new Promise((resolve) => {
  const chunks = [];
  const started = Date.now();
  const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
  child.stdout.on('data', (c) => chunks.push(c));
  child.stderr.on('data', (c) => chunks.push(c));
  child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
  child.on('close', (code, signal) => resolve({ command, output: Buffer.concat(chunks), code: code ?? (signal ? 128 : 1), signal, seconds: (Date.now() - started) / 1000 }));
}));

let exit = 0;
for (const run of runs) {
  const r = await run;
  process.stdout.write(`» ${r.command}\n`);
  process.stdout.write(r.output);
  if (r.code !== 0) {
    process.stdout.write(`» ${r.command}: failed (${r.signal ? `signal ${r.signal}` : `exit ${r.code}`}) after ${r.seconds.toFixed(1)} s\n`);
    if (!exit) exit = r.code;
  }
}
process.exit(exit);
