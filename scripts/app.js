#!/usr/bin/env node
// The app that `npx cdk8s synth` runs (cdk8s.yaml): brings build/ up to date with the
// TypeScript sources, then runs build/main.js in this process.
//
// Only files whose source changed are transpiled (by SWC, the transform the tests run under,
// types stripped file by file: no type-check here; `tsc --noEmit` in the test task
// type-checks; see transpiler()). An unchanged tree costs one stat per source file, and no
// transpiler is even loaded. A file counts as changed when its size or mtime differs from
// the ones recorded in build/.manifest.json, so a source restored with an older mtime is
// rebuilt too; a change of tsconfig.json or of this script rebuilds everything; build
// files whose source is gone are removed.
//
//   node scripts/app.js           build if needed, then synth (what cdk8s.yaml runs)
//   node scripts/app.js --build   build only
//
// Code cache: V8 compiles every module the synth loads (build/ and node_modules/, ~6 MB of
// JavaScript) in every process. useCodeCache() keeps what V8 compiled of each module (its
// code cache, vm.Script#createCachedData, made at exit so that the functions the run
// compiled are in it) in one file, build/.code-cache/pack (read once, not a file per
// module), by the Node.js version and each file's path and stamp, and hands it to V8 the next
// time: the same code, compiled once. A file of build/ is stamped by its size and mtime
// (build() writes it, and trusts the same stamps), a file of node_modules/ by its size, mtime
// and the npm state (the stamps of package.json, package-lock.json and
// node_modules/.package-lock.json: npm extracts files with fixed mtimes), instead of hashing
// its content. It depends on the code alone, never on a synth's inputs or output, so like
// build/ itself it is kept with MLP_SYNTH_CACHE=0; MLP_CODE_CACHE=0 turns it off.
//
// Module resolution: the file each require() names (a request from a folder) is kept in
// build/.code-cache/resolutions.json (useResolutionCache), so that a process does not search
// for it again (stat, realpath, package scopes: a quarter of loading). An entry is used while
// the folders it was found through stand as recorded: the folder the request names a file in
// and the resolved file's folder (their mtimes: a file added, removed or moved there changes
// them), no package.json or node_modules/ appearing between the requester and the project
// root, and the same Node.js version, npm state and this script. MLP_CODE_CACHE=0 turns it off too.
//
// Output cache: a synth whose inputs did not change reuses its previous output instead of
// loading and running the app. The key is a SHA-256 of every input: the content of every
// source file (SOURCES), package.json (our version), package-lock.json and
// node_modules/.package-lock.json (the versions and integrity hashes of what is installed),
// tsconfig.json, cdk8s.yaml, this script, the Node.js version, the working directory, the
// output directory and every MLP_* and CDK8S_* environment variable (the files' digest is kept
// in build/.input-files.json with each file's size and mtime, and used while they stand, as
// build() trusts them: see inputFilesDigest). An entry records a
// SHA-256 of each of its files, all checked before any is written; a mismatch (or an unreadable entry)
// is a miss. It is used only when the output directory does not exist when synth starts
// (`npx cdk8s synth` removes it first), and an entry is saved only by a synth that succeeded
// and wrote nothing to stderr (no warning is lost on reuse). MLP_SYNTH_CACHE=0 bypasses it
// (and the caches of work done before, lib/cache.ts); entries live in build/.synth-cache
// (MLP_SYNTH_CACHE_DIR), the newest CACHE_ENTRIES kept. Where the caches live
// (MLP_SYNTH_CACHE_DIR, MLP_CACHE_DIR) and MLP_CODE_CACHE are not inputs.
'use strict';
const crypto = require('crypto');
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

/** Brings build/ up to date (only the files `only` names, when given); returns the number of files written. */
function build(only) {
  const sources = [];
  for (const s of only ?? SOURCES) walk(s, sources);
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const self = fs.statSync(__filename);
  const config = `${fs.statSync(tsconfig).mtimeMs}:${self.size}:${self.mtimeMs}`;
  const old = readManifest();
  const files = old.config === config ? old.files : {};
  const stale = sources.filter((s) => files[s.rel] !== s.stamp || !fs.existsSync(outputOf(s.rel)));
  const live = new Set(sources.map((s) => s.rel));
  const gone = only ? [] : Object.keys(old.files).filter((rel) => !live.has(rel));
  if (!stale.length && !gone.length && old.config === config) return 0;

  for (const rel of gone) {
    fs.rmSync(outputOf(rel), { force: true });
    delete files[rel];
  }
  let transpile;
  for (const s of stale) {
    const target = outputOf(s.rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (s.rel.endsWith('.json')) {
      fs.copyFileSync(path.join(ROOT, s.rel), target);
    } else {
      transpile ??= transpiler();
      fs.writeFileSync(target, transpile(fs.readFileSync(path.join(ROOT, s.rel), 'utf8'), path.join(ROOT, s.rel), target));
    }
    files[s.rel] = s.stamp;
  }
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(MANIFEST, JSON.stringify({ config, files }));
  return stale.length;
}

/**
 * A function (text, source file, output file) => JavaScript, as tsconfig.json's options ask
 * (ES2022, CommonJS, class fields as defined properties; types stripped, file by file, as
 * isolatedModules allows): SWC (@swc/core, native), the transform the tests run under
 * (.projenrc.ts's SWC_TS), about a tenth of TypeScript's transpileModule's CPU (a fresh
 * build/: about 0.5 s instead of 7). Stack traces point into the TypeScript sources (an inline
 * source map, without the sources). Without @swc/core, TypeScript's transpileModule.
 */
function transpiler() {
  let swc;
  try {
    swc = require('@swc/core');
  } catch {
    swc = undefined;
  }
  if (swc) {
    return (text, file, target) => swc.transformSync(text, {
      filename: file,
      sourceFileName: path.relative(path.dirname(target), file),
      sourceMaps: 'inline',
      inlineSourcesContent: false,
      swcrc: false,
      configFile: false,
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022', transform: { useDefineForClassFields: true } },
      module: { type: 'commonjs' },
    }).code;
  }
  const ts = require('typescript');
  const tsconfig = path.join(ROOT, 'tsconfig.json');
  const parsed = ts.readConfigFile(tsconfig, ts.sys.readFile);
  if (parsed.error) throw new Error(ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n'));
  const options = ts.convertCompilerOptionsFromJson(parsed.config.compilerOptions, ROOT).options;
  // Stack traces point into the TypeScript sources.
  Object.assign(options, { noEmit: false, inlineSourceMap: true, inlineSources: false, sourceMap: false, declaration: false });
  return (text, file) => ts.transpileModule(text, { compilerOptions: options, fileName: file, reportDiagnostics: false }).outputText;
}

const CODE_CACHE = path.join(OUT, '.code-cache');
/** The code cache: one file, a JSON header line (the entries) and the code caches it lists. */
const CODE_PACK = path.join(CODE_CACHE, 'pack');
/** Bump when the pack's layout or its entries' stamps change meaning. */
const CODE_PACK_FORMAT = 'mlp-code-pack-1';

/**
 * A module's stamp in the code cache: its size and mtime, where they say enough: under build/
 * (built, the folder build() writes, trusting the same stamps), with the npm state (npmState)
 * elsewhere under the project (npm extracts files with fixed mtimes); undefined for a file that
 * cannot be stat'ed (not cached).
 */
function codeStamp(filename, built, npm) {
  const st = fs.statSync(filename, { throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeMs}:${filename.startsWith(built) ? '' : npm}` : undefined;
}

/** The code cache's entries (filename -> { stamp, data }) in the pack file; empty when there is none, or it is of another format, Node.js version or cut short. */
function readCodePack(file) {
  try {
    const buf = fs.readFileSync(file);
    const nl = buf.indexOf(10);
    const head = JSON.parse(buf.toString('utf8', 0, nl));
    if (nl < 0 || head.format !== CODE_PACK_FORMAT || head.node !== process.version || head.bytes !== buf.length - nl - 1) return new Map();
    const blob = buf.subarray(nl + 1);
    return new Map(head.entries.map(([filename, stamp, offset, length]) => [filename, { stamp, data: blob.subarray(offset, offset + length) }]));
  } catch {
    return new Map();
  }
}

/**
 * Writes the pack whole (a temporary file renamed: a concurrent process reads all of it or
 * none): the entries given, and of the others those whose file still has its stamp.
 */
function writeCodePack(file, kept, made, built, npm) {
  const entries = new Map();
  for (const [filename, e] of kept) if (codeStamp(filename, built, npm) === e.stamp) entries.set(filename, e);
  for (const [filename, e] of made) entries.set(filename, e);
  const list = [];
  const parts = [];
  let offset = 0;
  for (const [filename, { stamp, data }] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    list.push([filename, stamp, offset, data.length]);
    parts.push(data);
    offset += data.length;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify({ format: CODE_PACK_FORMAT, node: process.version, bytes: offset, entries: list })}\n`), ...parts]));
  fs.renameSync(tmp, file);
}

/**
 * Compiles the modules loaded from now on under ROOT (build/, node_modules/) with V8's code
 * cache (see the header); returns false when MLP_CODE_CACHE turns it off. Once per process.
 */
function useCodeCache(env = process.env) {
  if (['0', 'false', 'off', 'no'].includes((env.MLP_CODE_CACHE ?? '').toLowerCase())) return false;
  const Module = require('module');
  const vm = require('vm');
  if (Module.prototype._compile.mlpCodeCache) return true;
  const original = Module.prototype._compile;
  const pack = readCodePack(CODE_PACK);
  /** filename -> { stamp, script } of the modules compiled without a usable cache. */
  const made = new Map();
  const prefix = ROOT + path.sep;
  const npm = npmState(ROOT);
  const built = OUT + path.sep;
  const compile = function (content, filename) {
    if (!filename.startsWith(prefix) || !filename.endsWith('.js')) return original.call(this, content, filename);
    const stamp = codeStamp(filename, built, npm);
    const kept = stamp === undefined ? undefined : pack.get(filename);
    const cachedData = kept?.stamp === stamp ? kept.data : undefined;
    let script;
    try {
      script = new vm.Script(Module.wrap(content), { filename, cachedData });
    } catch (e) {
      // Not CommonJS (an ES module in a package that does not say so): Node.js's own _compile
      // detects that and loads it as one; leave such files to it.
      if (e instanceof SyntaxError) return original.call(this, content, filename);
      throw e;
    }
    if (stamp !== undefined && (!cachedData || script.cachedDataRejected)) made.set(filename, { stamp, script });
    const fn = script.runInThisContext({ displayErrors: true });
    // The require a module gets from Node.js (its makeRequireFunction).
    const mod = this;
    const req = (id) => mod.require(id);
    req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    req.main = process.mainModule;
    req.extensions = Module._extensions;
    req.cache = Module._cache;
    return fn.call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename));
  };
  compile.mlpCodeCache = true;
  Module.prototype._compile = compile;
  useResolutionCache(env);
  process.once('exit', () => {
    if (!made.size) return;
    try {
      // Made at exit: the functions this run compiled are in it.
      const fresh = new Map([...made].map(([filename, { stamp, script }]) => [filename, { stamp, data: script.createCachedData() }]));
      writeCodePack(CODE_PACK, pack, fresh, built, npm);
      // The entries of the format before the pack (one file each, named by a SHA-256).
      for (const name of fs.readdirSync(CODE_CACHE)) if (/^[0-9a-f]{64}$/.test(name)) fs.rmSync(path.join(CODE_CACHE, name), { force: true });
    } catch (e) {
      // A cache that cannot be written costs the next process its compile time, nothing else.
      if (process.env.DEBUG) process.stderr.write(`code cache not saved: ${e?.message ?? e}\n`);
    }
  });
  return true;
}

/** The stamps (size and mtime) of the files that say what npm installed: package.json, package-lock.json, node_modules/.package-lock.json. */
function npmState(root) {
  return ['package.json', 'package-lock.json', path.join('node_modules', '.package-lock.json')].map((f) => {
    const st = fs.statSync(path.join(root, f), { throwIfNoEntry: false });
    return st ? `${st.size}:${st.mtimeMs}` : '-';
  }).join(' ');
}

/** Bump when resolutions.json changes meaning. */
const RESOLUTIONS_FORMAT = 'mlp-resolutions-1';

/** A guard's stamp: a folder's mtime, a file's size and mtime, '-' for a missing path. */
function guardStamp(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return '-';
  return st.isDirectory() ? `d${st.mtimeMs}` : `f${st.size}:${st.mtimeMs}`;
}

/**
 * Keeps the file each require() from a module under root resolves to (see the header), in
 * root/build/.code-cache/resolutions.json; returns false when MLP_CODE_CACHE turns it off.
 * Once per process; the entries found new are written at exit.
 */
function useResolutionCache(env = process.env, root = ROOT) {
  if (['0', 'false', 'off', 'no'].includes((env.MLP_CODE_CACHE ?? '').toLowerCase())) return false;
  const Module = require('module');
  if (Module._resolveFilename.mlpResolutions) return true;
  const original = Module._resolveFilename;
  const prefix = root + path.sep;
  const modules = path.join(root, 'node_modules') + path.sep;
  const file = path.join(root, 'build', '.code-cache', 'resolutions.json');
  const self = fs.statSync(__filename);
  const head = `${RESOLUTIONS_FORMAT}\0${process.version}\0${root}\0${self.size}:${self.mtimeMs}\0${npmState(root)}`;
  /** Guarded paths and their stamps, as when the entries that use them were found. */
  const guards = new Map();
  /** key (folder \0 request) -> [file, ...guarded paths] */
  const entries = new Map();
  let changed = false;
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (m.head === head) {
      const valid = new Map();
      const holds = (i) => {
        let v = valid.get(i);
        if (v === undefined) valid.set(i, v = guardStamp(m.guards[i][0]) === m.guards[i][1]);
        return v;
      };
      for (const [key, resolved, ...deps] of m.entries) {
        if (!deps.every(holds)) {
          changed = true;
          continue;
        }
        const paths = deps.map((i) => m.guards[i][0]);
        for (const i of deps) guards.set(m.guards[i][0], m.guards[i][1]);
        entries.set(key, [resolved, ...paths]);
      }
    }
  } catch {
    // None yet, or unreadable: every request is resolved and recorded.
  }

  /** The paths that decide what request from dir resolves to, given that it resolved to resolved; undefined: not kept. */
  const depsOf = (dir, request, resolved) => {
    const deps = [path.dirname(resolved)];
    if (request.startsWith('./') || request.startsWith('../') || request === '.' || request === '..' || path.isAbsolute(request)) {
      // X.js beside X, or X/index.js: the folder that holds X, and X (the resolved file's folder).
      const target = path.resolve(dir, request);
      if (path.dirname(resolved) !== target && path.dirname(resolved) !== path.dirname(target)) return undefined; // through a package.json's main
      deps.push(path.dirname(target));
    } else if (!(dir + path.sep).startsWith(modules)) {
      // A package (or the project's own name): found in root/node_modules/ (npm's, in the head),
      // as long as no node_modules/ or package.json appears between the requester and root.
      if (!resolved.startsWith(modules) && !resolved.startsWith(prefix)) return undefined;
      for (let d = dir; d.startsWith(prefix); d = path.dirname(d)) deps.push(path.join(d, 'node_modules'), path.join(d, 'package.json'));
    }
    return deps;
  };

  const resolve = function (request, parent, isMain, options) {
    const from = parent?.filename;
    if (isMain || options !== undefined || typeof from !== 'string' || !from.startsWith(prefix) || typeof request !== 'string') return original.apply(this, arguments);
    const dir = path.dirname(from);
    const key = `${dir}\0${request}`;
    const hit = entries.get(key);
    if (hit) return hit[0];
    const resolved = original.call(this, request, parent, isMain, options);
    if (typeof resolved === 'string' && resolved.startsWith(prefix)) {
      const deps = depsOf(dir, request, resolved);
      if (deps) {
        const stamps = deps.map((d) => guards.get(d) ?? guardStamp(d));
        // Only what stands as the search found it: a package.json or node_modules/ between the requester and root is not kept.
        if (!deps.some((d, i) => i > 0 && (d.endsWith(`${path.sep}node_modules`) || d.endsWith(`${path.sep}package.json`)) && stamps[i] !== '-')) {
          deps.forEach((d, i) => guards.set(d, stamps[i]));
          entries.set(key, [resolved, ...deps]);
          changed = true;
        }
      }
    }
    return resolved;
  };
  resolve.mlpResolutions = true;
  Module._resolveFilename = resolve;
  process.once('exit', () => {
    if (!changed) return;
    try {
      const index = new Map();
      const list = [];
      const rows = [];
      for (const [key, [resolved, ...deps]] of entries) {
        rows.push([key, resolved, ...deps.map((d) => {
          let i = index.get(d);
          if (i === undefined) {
            index.set(d, i = list.length);
            list.push([d, guards.get(d)]);
          }
          return i;
        })]);
      }
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ head, guards: list, entries: rows }));
      fs.renameSync(tmp, file);
    } catch (e) {
      // Not saved: the next process resolves again, nothing else.
      if (process.env.DEBUG) process.stderr.write(`resolutions not saved: ${e?.message ?? e}\n`);
    }
  });
  return true;
}

/** Bump when the cache's entry format or key changes meaning. */
const CACHE_FORMAT = 'mlp-synth-cache-1';
const CACHE_ENTRIES = 8;
/** Inputs outside SOURCES, by content. */
const CACHE_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'cdk8s.yaml', 'scripts/app.js'];

let cacheLib;
/**
 * lib/cache.ts (hashTree, treeDigest: the one implementation, also the synth caches' code key),
 * from build/, where it and what it imports are transpiled first if missing or stale (a fresh
 * clone has no build/ yet).
 */
const CACHE_LIB_SOURCES = ['lib/cache.ts', 'lib/subtree-sharing.ts'];
function cache() {
  if (!cacheLib) {
    build(CACHE_LIB_SOURCES);
    cacheLib = require(outputOf('lib/cache.ts'));
  }
  return cacheLib;
}

/** Environment variables that say how to synthesize (with which caches), not what: no input. */
const NOT_INPUTS = new Set(['MLP_SYNTH_CACHE', 'MLP_SYNTH_CACHE_DIR', 'MLP_CACHE_DIR', 'MLP_CODE_CACHE']);

/** The SHA-256 (hex) of every input of a synth into outdir from the project at root (see the header). */
function inputKey(root, env, outdir, cwd = process.cwd()) {
  const hash = crypto.createHash('sha256');
  hash.update(`${CACHE_FORMAT}\0${process.version}\0${path.resolve(cwd)}\0${path.resolve(cwd, outdir)}\0`);
  const vars = Object.keys(env).filter((k) => (k.startsWith('MLP_') || k.startsWith('CDK8S_')) && !NOT_INPUTS.has(k)).sort();
  for (const k of vars) hash.update(`env\0${k}\0${env[k]}\0`);
  hash.update(`files\0${inputFilesDigest(root)}\0`);
  return hash.digest('hex');
}


/**
 * A SHA-256 of the content of every input file under root (CACHE_FILES, SOURCES: ~7 MB), by
 * lib/cache.ts's treeDigest. In a project whose build/ this script keeps (it has a
 * .manifest.json) the digest is also kept, in build/.input-files.json, with the size and mtime
 * of each file, and used while every file stands as recorded; build() trusts the same stamps to
 * decide what to transpile.
 */
function inputFilesDigest(root) {
  const file = fs.existsSync(path.join(root, 'build', '.manifest.json')) ? path.join(root, 'build', '.input-files.json') : undefined;
  return cache().treeDigest(root, [...CACHE_FILES, ...SOURCES], file);
}

/** Every file under dir, relative paths, sorted. */
function listTree(dir, rel = '', out = []) {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) listTree(dir, r, out);
    else out.push(r);
  }
  return out;
}

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

/** The SHA-256 of a file, read 1 MB at a time (saving holds no output file in memory). */
function sha256File(file) {
  const hash = crypto.createHash('sha256');
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    let n;
    while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) hash.update(buf.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * The output cache for a synth into outdir, or undefined when it does not apply (see the
 * header). An entry is a folder <key>/ holding the output's files and files.json, which lists
 * each file with its SHA-256.
 */
function outputCache(env = process.env, outdir = env.CDK8S_OUTDIR ?? 'dist') {
  if (['0', 'false', 'off', 'no'].includes((env.MLP_SYNTH_CACHE ?? '').toLowerCase())) return undefined;
  if (fs.existsSync(outdir)) return undefined;
  // With MLP_OUTDIR the platforms are written elsewhere (lib/synth.ts): nothing to restore into outdir.
  if (env.MLP_OUTDIR) return undefined;
  const dir = env.MLP_SYNTH_CACHE_DIR ?? path.join(OUT, '.synth-cache');
  const key = inputKey(ROOT, env, outdir);
  const entry = path.join(dir, key);
  return {
    key,
    entry,
    /** Writes the cached output into outdir; false (writing nothing) on a miss or when a file fails its check. */
    restore() {
      let index;
      try {
        index = JSON.parse(fs.readFileSync(path.join(entry, 'files.json'), 'utf8'));
      } catch {
        return false;
      }
      if (index?.format !== CACHE_FORMAT || index.key !== key || !Array.isArray(index.files)) return false;
      const files = [];
      for (const [rel, digest] of index.files) {
        let data;
        try {
          data = fs.readFileSync(path.join(entry, 'out', rel));
        } catch {
          return false;
        }
        if (sha256(data) !== digest) return false;
        files.push([rel, data]);
      }
      for (const [rel, data] of files) {
        fs.mkdirSync(path.dirname(path.join(outdir, rel)), { recursive: true });
        fs.writeFileSync(path.join(outdir, rel), data);
      }
      const now = new Date();
      fs.utimesSync(path.join(entry, 'files.json'), now, now);
      return true;
    },
    /** Records what the synth wrote to outdir (one file at a time, hard-linked), then keeps the newest CACHE_ENTRIES entries. */
    save() {
      if (!fs.existsSync(outdir)) return;
      const tmp = `${entry}.${process.pid}.tmp`;
      fs.rmSync(tmp, { recursive: true, force: true });
      const files = [];
      for (const rel of listTree(outdir)) {
        // The hash of what synth wrote: a restore checks the copy against it.
        files.push([rel, sha256File(path.join(outdir, rel))]);
        fs.mkdirSync(path.dirname(path.join(tmp, 'out', rel)), { recursive: true });
        // A second name for the file synth wrote (the next synth removes outdir, not the file);
        // a copy where links are not possible. A file changed in place fails its hash on restore.
        try {
          fs.linkSync(path.join(outdir, rel), path.join(tmp, 'out', rel));
        } catch {
          fs.copyFileSync(path.join(outdir, rel), path.join(tmp, 'out', rel));
        }
      }
      fs.writeFileSync(path.join(tmp, 'files.json'), JSON.stringify({ format: CACHE_FORMAT, key, files }));
      fs.rmSync(entry, { recursive: true, force: true });
      fs.renameSync(tmp, entry);
      const entries = fs.readdirSync(dir)
        .filter((n) => /^[0-9a-f]{64}$/.test(n))
        .map((n) => ({ n, t: fs.statSync(path.join(dir, n, 'files.json'), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
        .sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
      for (const old of entries.slice(CACHE_ENTRIES)) fs.rmSync(path.join(dir, old.n), { recursive: true, force: true });
    },
  };
}

function main() {
  build();
  if (process.argv.includes('--build')) return;
  const cache = outputCache();
  if (cache?.restore()) {
    process.stdout.write(`synth: inputs unchanged (${cache.key.slice(0, 12)}): output reused from ${path.relative(process.cwd(), cache.entry)} (MLP_SYNTH_CACHE=0 rebuilds)\n`);
    return;
  }
  // A synth that warns is not saved, so that a reuse never hides a warning (a progress line, '\r', is no warning).
  let warned = false;
  const write = process.stderr.write;
  process.stderr.write = function (chunk, ...rest) {
    if (!String(chunk).startsWith('\r')) warned = true;
    return write.call(this, chunk, ...rest);
  };
  useCodeCache();
  try {
    require(path.join(OUT, 'main.js'));
  } finally {
    process.stderr.write = write;
  }
  if (cache && !warned && !process.exitCode) {
    try {
      cache.save();
    } catch (e) {
      // A cache that cannot be written (a concurrent synth saving the same entry, a full disk) costs the next synth its reuse, nothing else.
      if (process.env.DEBUG) process.stderr.write(`synth cache not saved: ${e?.message ?? e}\n`);
    }
  }
}

if (require.main === module) main();
module.exports = { build, CACHE_LIB_SOURCES, codeStamp, inputKey, outputCache, useCodeCache, useResolutionCache };
