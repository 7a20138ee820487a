#!/usr/bin/env node
// The test task's type check and lint, on one TypeScript program: `tsc --noEmit -p tsconfig.json`
// and `eslint` with typescript-eslint's type-aware rules (no-floating-promises, return-await)
// each built the same program (about 30 s of CPU each on a fresh clone). Here it is built and
// type-checked once, its errors reported as tsc reports them, then ESLint lints with its types
// (scripts/eslint-program-parser.cjs hands the program to @typescript-eslint/parser).
//
//   node scripts/check-types-and-lint.mjs [--project tsconfig.json] [--cache <dir>]
//     [--package tsconfig.package.json] <what to lint>...
//
// --package: the files another tsconfig compiles (the package's, and what they import) are
// type-checked here with the project's options, as strict or stricter; what that compile would
// still reject, a global declared by a type package only the project's "types" load (jest's
// `expect`, `jest.Mock`), is reported as a type error. So the package test compiles pkg/
// without type-checking (scripts/prepack.mjs, MLP_PREPACK_NO_CHECK).
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
// What V8 compiled of the modules this process loads (TypeScript, ESLint and its plugins: some
// 20 MB of JavaScript) kept between runs: scripts/app.js's code cache (build/.code-cache, by
// file content; MLP_CODE_CACHE=0 turns it off).
require('./app.js').useCodeCache();
const ts = require('typescript');
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function usage(message) {
  process.stderr.write(`check-types-and-lint: ${message}\nusage: node scripts/check-types-and-lint.mjs [--project tsconfig.json] [--cache <dir>] [--package tsconfig.package.json] <folder or file to lint>...\n`);
  process.exit(2);
}

let project = 'tsconfig.json';
let cacheDir = 'node_modules/.cache/cdk8s-mlplatform/checks';
let packageProject;
const targets = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--project' || a === '--cache' || a === '--package') {
    if (!argv[i + 1]) usage(`${a} needs a value`);
    if (a === '--project') project = argv[++i];
    else if (a === '--package') packageProject = argv[++i];
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
if (packageProject && !diagnostics.length) diagnostics = packageTypeErrors(packageProject);
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
report(diagnostics);

/**
 * What the package's own compile (tsc -p <packageProject>) would reject and this program
 * accepts: its files type-check here with the project's options, which are as strict or
 * stricter, except that the project's `types` load type packages the package's do not (jest's):
 * a global one of those declares (`expect`, `jest.Mock`) is an error in the package's files
 * and in every file of the repository they import.
 */
function packageTypeErrors(tsconfig) {
  const pkg = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { report([d]); process.exit(1); } });
  const extra = (parsed.options.types ?? []).filter((t) => !(pkg.options.types ?? []).includes(t));
  const extraDirs = [];
  const names = new Set();
  for (const t of extra) {
    const resolved = ts.resolveTypeReferenceDirective(t, path.join(cwd, project), parsed.options, ts.sys).resolvedTypeReferenceDirective;
    if (!resolved?.resolvedFileName) continue;
    extraDirs.push(path.dirname(resolved.resolvedFileName) + path.sep);
    const sf = program.getSourceFile(resolved.resolvedFileName);
    // A script's top-level declarations are globals (a module's are not, but for `declare global`).
    const declared = (statements) => {
      for (const st of statements) {
        if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) { if (ts.isIdentifier(d.name)) names.add(d.name.text); }
        else if (ts.isModuleDeclaration(st) && st.name.text === 'global' && st.body && ts.isModuleBlock(st.body)) declared(st.body.statements);
        else if (st.name && ts.isIdentifier(st.name) && !ts.isExternalModule(sf)) names.add(st.name.text);
      }
    };
    if (sf) declared(sf.statements);
  }
  if (!names.size) return [];
  const checker = program.getTypeChecker();
  const word = new RegExp(`\\b(${[...names].join('|')})\\b`);
  /** The extra type package that declares what a name refers to, if only such packages declare it. */
  const declaredByExtra = (id) => {
    const symbol = ts.isShorthandPropertyAssignment(id.parent) ? checker.getShorthandAssignmentValueSymbol(id.parent) : checker.getSymbolAtLocation(id);
    const dirs = (symbol?.declarations ?? []).map((d) => extraDirs.find((dir) => d.getSourceFile().fileName.startsWith(dir)));
    return dirs.length && dirs.every(Boolean) ? extra[extraDirs.indexOf(dirs[0])] : undefined;
  };
  // A name that can be a global: not a property's or a declaration's name (a shorthand property is a reference).
  const reference = (id) => names.has(id.text) && (id.parent.name !== id || ts.isShorthandPropertyAssignment(id.parent))
    && !(ts.isQualifiedName(id.parent) && id.parent.right === id) && !ts.isImportSpecifier(id.parent) && !ts.isExportSpecifier(id.parent);
  const errors = [];
  const cache = ts.createModuleResolutionCache(cwd, (f) => f, parsed.options);
  const queue = pkg.fileNames.map(canonical);
  const seen = new Set(queue);
  const follow = (from, literal) => {
    const to = ts.resolveModuleName(literal.text, from, parsed.options, ts.sys, cache).resolvedModule;
    if (to && !to.isExternalLibraryImport && !to.resolvedFileName.endsWith('.d.ts') && !seen.has(to.resolvedFileName)) {
      seen.add(to.resolvedFileName);
      queue.push(to.resolvedFileName);
    }
  };
  while (queue.length) {
    const sf = program.getSourceFile(queue.pop());
    if (!sf) continue;
    const hit = word.test(sf.text);
    const visit = (node) => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) follow(sf.fileName, node.moduleSpecifier);
      else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) follow(sf.fileName, node.expression);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) follow(sf.fileName, node.argument.literal);
      else if (hit && ts.isIdentifier(node) && reference(node)) {
        const by = declaredByExtra(node);
        if (by) {
          errors.push({
            file: sf, start: node.getStart(sf), length: node.getWidth(sf), category: ts.DiagnosticCategory.Error, code: 2304,
            messageText: `Cannot find name '${node.text}' where ${tsconfig} compiles the package: the type package '${by}' declares it, which ${project}'s "types" load and ${tsconfig}'s do not.`,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return errors;
}

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
