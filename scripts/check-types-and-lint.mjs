#!/usr/bin/env node
// The test task's type check and lint, on one TypeScript program: `tsc --noEmit -p tsconfig.json`
// and `eslint` with typescript-eslint's type-aware rules (no-floating-promises, return-await)
// each built the same program (about 30 s of CPU each on a fresh clone). Here it is built and
// type-checked once, its errors reported as tsc reports them, then ESLint lints with its types
// (scripts/eslint-program-parser.cjs hands the program to @typescript-eslint/parser).
//
//   node scripts/check-types-and-lint.mjs [--project tsconfig.json] [--cache <dir>] <what to lint>...
//
// <what to lint>: folders and files, as given to eslint (`--ext .ts,.tsx`, the ignore patterns
// of .eslintrc.json apply). A file named there that the tsconfig does not include (.projenrc.ts)
// joins the program to be linted; its type errors are not reported (`npx projen` checks it with
// projenrc/tsconfig.json).
//
// Between runs (in <dir>, by default node_modules/.cache/cdk8s-mlplatform/checks): tsc's build
// information (the program's files' hashes, signatures and errors: only what an edit can affect
// is type-checked again) and ESLint's results by file content. A file whose types an edit can
// have changed (tsc checks it again) is linted again even when its own text did not change:
// the type-aware rules read those types. Exit code 1 when there are type errors or lint errors
// (warnings are shown and do not fail), 2 on bad arguments.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function usage(message) {
  process.stderr.write(`check-types-and-lint: ${message}\nusage: node scripts/check-types-and-lint.mjs [--project tsconfig.json] [--cache <dir>] <folder or file to lint>...\n`);
  process.exit(2);
}

let project = 'tsconfig.json';
let cacheDir = 'node_modules/.cache/cdk8s-mlplatform/checks';
const targets = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--project' || a === '--cache') {
    if (!argv[i + 1]) usage(`${a} needs a value`);
    if (a === '--project') project = argv[++i];
    else cacheDir = argv[++i];
  } else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else targets.push(a);
}
if (!targets.length) usage('nothing to lint');

const cwd = process.cwd();
const started = process.hrtime.bigint();
const seconds = () => (Number(process.hrtime.bigint() - started) / 1e9).toFixed(1);
const canonical = (f) => path.resolve(cwd, f);
fs.mkdirSync(cacheDir, { recursive: true });

// ---- The program, type-checked once --------------------------------------------------------
const parsed = ts.getParsedCommandLineOfConfigFile(project, {
  incremental: true,
  tsBuildInfoFile: path.join(cacheDir, `${path.basename(project, '.json')}.checks.tsbuildinfo`),
}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { report([d]); process.exit(1); } });
const inConfig = new Set(parsed.fileNames.map(canonical));
const lintOnly = targets.map(canonical).filter((f) => f.endsWith('.ts') && fs.existsSync(f) && fs.statSync(f).isFile() && !inConfig.has(f));
const host = ts.createIncrementalCompilerHost(parsed.options, ts.sys);
const builder = ts.createIncrementalProgram({
  rootNames: [...parsed.fileNames, ...lintOnly],
  options: parsed.options,
  projectReferences: parsed.projectReferences,
  configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
  host,
});
const program = builder.getProgram();

// As tsc: configuration and options, then syntax, then global and semantic errors if the syntax is right.
const reported = (d) => !d.file || !lintOnly.includes(canonical(d.file.fileName));
let diagnostics = [...builder.getConfigFileParsingDiagnostics(), ...builder.getOptionsDiagnostics(), ...builder.getSyntacticDiagnostics()].filter(reported);
// The files type-checked again (all on a first run; then those an edit can affect, including the
// unchanged importers of a file whose declarations changed): the builder asks the program for
// their diagnostics, the others' come from the build information. Without that hook (another
// TypeScript), every file counts as checked again.
const rechecked = new Set();
const checkFile = program.getBindAndCheckDiagnostics;
const hooked = typeof checkFile === 'function';
if (hooked) {
  program.getBindAndCheckDiagnostics = (sourceFile, ...rest) => {
    rechecked.add(canonical(sourceFile.fileName));
    return checkFile.call(program, sourceFile, ...rest);
  };
}
if (!diagnostics.length) diagnostics = [...builder.getGlobalDiagnostics(), ...builder.getSemanticDiagnostics()].filter(reported);
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
report(diagnostics);

function report(list) {
  if (!list.length) return;
  const formatHost = { getCurrentDirectory: () => cwd, getCanonicalFileName: (f) => f, getNewLine: () => '\n' };
  const text = ts.formatDiagnosticsWithColorAndContext(ts.sortAndDeduplicateDiagnostics(list), formatHost);
  // file:line:col - error TSnnnn: message, with the line quoted; colours only on a terminal.
  process.stdout.write(process.stdout.isTTY ? text : text.replace(/\x1b\[[0-9;]*m/g, ''));
  const errors = list.filter((d) => d.category === ts.DiagnosticCategory.Error);
  const files = new Set(errors.map((d) => d.file?.fileName));
  if (errors.length) process.stdout.write(`\nFound ${errors.length} type error${errors.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'}.\n\n`);
}

// ---- Lint, with the program's types --------------------------------------------------------
const { loadESLint } = require('eslint');
const programParser = require('./eslint-program-parser.cjs');
programParser.setPrograms([program]);
const eslintCache = path.resolve(cacheDir, 'eslint-results');
// ESLint's cache knows a file's text, not the types it reads from other files: forget the
// results of the files tsc checked again (a callee's new Promise return type makes an
// unchanged caller's call a floating promise).
if (!hooked) fs.rmSync(eslintCache, { force: true });
else if (rechecked.size && fs.existsSync(eslintCache)) {
  const flatCache = createRequire(require.resolve('file-entry-cache', { paths: [path.dirname(require.resolve('eslint/package.json'))] }))('flat-cache');
  const cache = flatCache.load(eslintCache);
  for (const f of rechecked) cache.removeKey(f);
  cache.save(true);
}
const ESLint = await loadESLint({ useFlatConfig: false });
const eslint = new ESLint({
  cwd,
  extensions: ['.ts', '.tsx'],
  errorOnUnmatchedPattern: false,
  resolvePluginsRelativeTo: repo,
  cache: true,
  cacheStrategy: 'content',
  cacheLocation: eslintCache,
  overrideConfig: { parser: require.resolve('./eslint-program-parser.cjs') },
});
const results = await eslint.lintFiles(targets);
const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
const lintOutput = await (await eslint.loadFormatter('stylish')).format(results);
if (lintOutput) process.stdout.write(`${lintOutput}\n`);

// After linting: a run that stops before here checks and lints those files again.
builder.emit(); // with noEmit, only the build information

process.stdout.write(`check-types-and-lint: ${program.getRootFileNames().length} files, ${hooked ? rechecked.size : 'all'} type-checked again, `
  + `${results.length} linted (${typeErrors} type error${typeErrors === 1 ? '' : 's'}, ${lintErrors} lint error${lintErrors === 1 ? '' : 's'}) in ${seconds()} s\n`);
process.exitCode = typeErrors || lintErrors ? 1 : 0;
