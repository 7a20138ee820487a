#!/usr/bin/env node
// The `mlplatform` command. In an installed package it runs the compiled CLI (pkg/cli/main.js);
// in a clone of the repository it first brings build/ up to date with the TypeScript sources
// (scripts/app.js: only changed files are transpiled), so `npx mlplatform` works without a
// manual compile. `--version` answers from package.json before anything is built or loaded.
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version}\n`);
} else {
  let main;
  if (fs.existsSync(path.join(root, 'scripts', 'app.js')) && fs.existsSync(path.join(root, 'cli', 'main.ts'))) {
    const app = require(path.join(root, 'scripts', 'app.js'));
    app.build();
    // V8's code cache of the modules loaded (build/.code-cache; MLP_CODE_CACHE=0 turns it off).
    app.useCodeCache();
    main = path.join(root, 'build', 'cli', 'main.js');
  } else {
    main = path.join(root, 'pkg', 'cli', 'main.js');
  }
  require(main)
    .run(argv, { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() })
    .then((code) => { process.exitCode = code; });
}
