#!/usr/bin/env node
// The app that `npx cdk8s synth` runs (cdk8s.yaml): brings build/ up to date with the
// TypeScript sources, then runs build/main.js in this process.
//
// Only files whose source changed are transpiled (TypeScript's transpileModule, the same
// transform as `ts-node --transpile-only`: no type-check here; `tsc --noEmit` in the test
// task type-checks). An unchanged tree costs one stat per source file, and the typescript
// package is not even loaded. A file counts as changed when its size or mtime differs from
// the ones recorded in build/.manifest.json, so a source restored with an older mtime is
// rebuilt too; a change of tsconfig.json or of this script rebuilds everything; build
// files whose source is gone are removed.
//
//   node scripts/app.js           build if needed, then synth (what cdk8s.yaml runs)
//   node scripts/app.js --build   build only
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'build');
const MANIFEST = path.join(OUT, '.manifest.json');
/** What synth and the mlplatform CLI load (main.ts, cli/, the folders they import from, versions.json), and the synth of the bench's scaling sweep. */
const SOURCES = ['main.ts', 'cli', 'lib', 'constructs', 'platforms', 'imports', 'versions.json', 'scripts/bench-platforms.ts', 'scripts/bench-synth.ts'];

function walk(rel, out) {
  const abs = path.join(ROOT, rel);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) walk(path.join(rel, name), out);
  } else if ((rel.endsWith('.ts') && !rel.endsWith('.d.ts')) || rel.endsWith('.json')) {
    out.push({ rel, stamp: `${st.size}:${st.mtimeMs}` });
  }
}

function outputOf(rel) {
  return path.join(OUT, rel.endsWith('.ts') ? `${rel.slice(0, -3)}.js` : rel);
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
  } catch {
    return { config: '', files: {} };
  }
}

/** Brings build/ up to date; returns the number of files written. */
function build() {
  const sources = [];
  for (const s of SOURCES) walk(s, sources);
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const self = fs.statSync(__filename);
  const config = `${fs.statSync(tsconfig).mtimeMs}:${self.size}:${self.mtimeMs}`;
  const old = readManifest();
  const files = old.config === config ? old.files : {};
  const stale = sources.filter((s) => files[s.rel] !== s.stamp || !fs.existsSync(outputOf(s.rel)));
  const live = new Set(sources.map((s) => s.rel));
  const gone = Object.keys(old.files).filter((rel) => !live.has(rel));
  if (!stale.length && !gone.length && old.config === config) return 0;

  for (const rel of gone) {
    fs.rmSync(outputOf(rel), { force: true });
    delete files[rel];
  }
  let ts;
  let options;
  for (const s of stale) {
    const target = outputOf(s.rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (s.rel.endsWith('.json')) {
      fs.copyFileSync(path.join(ROOT, s.rel), target);
    } else {
      if (!ts) {
        ts = require('typescript');
        const parsed = ts.readConfigFile(tsconfig, ts.sys.readFile);
        if (parsed.error) throw new Error(ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n'));
        options = ts.convertCompilerOptionsFromJson(parsed.config.compilerOptions, ROOT).options;
        // Stack traces point into the TypeScript sources.
        Object.assign(options, { noEmit: false, inlineSourceMap: true, inlineSources: false, sourceMap: false, declaration: false });
      }
      const text = fs.readFileSync(path.join(ROOT, s.rel), 'utf8');
      const result = ts.transpileModule(text, { compilerOptions: options, fileName: path.join(ROOT, s.rel), reportDiagnostics: false });
      fs.writeFileSync(target, result.outputText);
    }
    files[s.rel] = s.stamp;
  }
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(MANIFEST, JSON.stringify({ config, files }));
  return stale.length;
}

function main() {
  build();
  if (process.argv.includes('--build')) return;
  require(path.join(OUT, 'main.js'));
}

if (require.main === module) main();
module.exports = { build };
