#!/usr/bin/env node
// npm's `prepack` (run by `npm pack`, `npm publish` and an install from git): compiles the
// package afresh into pkg/ (tsconfig.package.json), which `main`, `types` and the
// `mlplatform` command point at. Without TypeScript (devDependencies not installed) it
// fails with what to do, so that a tarball without the compiled library is never packed.
//
// MLP_PREPACK_NO_CHECK=1 (test/package.test.ts sets it): compile without type-checking
// (`tsc --noCheck`: the same pkg/, byte for byte; errors of syntax and of declaration emit
// still fail), for a caller that type-checks the sources itself: the test task's
// scripts/check-types-and-lint.mjs checks the same files with tsconfig.json (stricter options,
// and test/ and scripts/ too) and, with --package tsconfig.package.json, reports what only this
// compile would reject (jest's globals: tsconfig.json's types declare them, this one's do not).
// That saves a third type check of the library per test run (about 8 s of CPU). `npm pack` and
// `npm publish` by hand type-check.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'pkg');
const require = createRequire(import.meta.url);

let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
} catch {
  process.stderr.write('prepack: cannot build pkg/ (the compiled library the package ships): TypeScript is not installed. Run `npm ci` (it installs the devDependencies), then pack again.\n');
  process.exit(1);
}
fs.rmSync(pkg, { recursive: true, force: true });
const noCheck = process.env.MLP_PREPACK_NO_CHECK === '1';
const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.package.json'), ...(noCheck ? ['--noCheck'] : [])], { cwd: root, stdio: 'inherit' });
if (r.status !== 0 || !fs.existsSync(path.join(pkg, 'index.js'))) {
  process.stderr.write(`prepack: compiling pkg/ failed (tsc -p tsconfig.package.json${noCheck ? ' --noCheck' : ''} exited ${r.status ?? r.signal}): nothing packed. Fix the errors above, then pack again.\n`);
  process.exit(1);
}
// Data files read at run time rather than imported (tsc copies only imported JSON): the
// ecosystem's CRD schemas (lib/validation/ecosystem.ts reads a group's file when it needs it).
const ecosystem = path.join(root, 'imports', 'ecosystem');
fs.mkdirSync(path.join(pkg, 'imports', 'ecosystem'), { recursive: true });
for (const f of fs.readdirSync(ecosystem).filter((n) => n.endsWith('.json'))) fs.copyFileSync(path.join(ecosystem, f), path.join(pkg, 'imports', 'ecosystem', f));
