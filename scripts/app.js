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
//
// Output cache: a synth whose inputs did not change reuses its previous output instead of
// loading and running the app. The key is a SHA-256 of every input: the content of every
// source file (SOURCES), package.json (our version), package-lock.json and
// node_modules/.package-lock.json (the versions and integrity hashes of what is installed),
// tsconfig.json, cdk8s.yaml, this script, the Node.js version, the working directory, the
// output directory and every MLP_* and CDK8S_* environment variable. An entry records a
// SHA-256 of each of its files, all checked before any is written; a mismatch (or an unreadable entry)
// is a miss. It is used only when the output directory does not exist when synth starts
// (`npx cdk8s synth` removes it first), and an entry is saved only by a synth that succeeded
// and wrote nothing to stderr (no warning is lost on reuse). MLP_SYNTH_CACHE=0 bypasses it;
// entries live in build/.synth-cache (MLP_SYNTH_CACHE_DIR), the newest CACHE_ENTRIES kept.
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

/**
 * A V8 code cache for the modules synth loads: the equivalent of Node 22's compile cache
 * (module.enableCompileCache), which Node 20 lacks. Compiling JavaScript is part of every
 * synth's fixed cost (build/ and node_modules: ~760 CommonJS modules, ~10 MB of source); V8 can
 * instead deserialize the code it compiled for the same source in an earlier run. This is a
 * build artifact like build/*.js, not an output cache: every module still loads and runs, and
 * the output is what it would be without it.
 *
 * Module.prototype._compile is wrapped for CommonJS files under the project (build/ and
 * node_modules/, by real path): the module's source is wrapped as Node wraps it (Module.wrap)
 * and compiled with vm.Script and the cached data recorded for that file. An entry is used only
 * when the SHA-256 of the source equals the one it was made from, so an edited, rebuilt or
 * reinstalled file is compiled from source, and only when the SHA-256 of its data matches too
 * (a damaged file is no cache); V8 itself rejects data made by another V8 version or with other
 * flags (the file is then compiled from source), and the cache file's name carries the Node
 * version and architecture. When any module had no usable entry, the cache is written again at
 * exit (data made at exit also holds the functions compiled during the run), to a temporary file
 * renamed into place, so a concurrent synth reads the old cache or the new one. Files with
 * `import(` in them (dynamic import needs Node's own compile), ES modules, and runs with source
 * maps, a policy or the inspector are left to Node. One difference from Node's own compile: a
 * column on a module's first line is off by the wrapper's length in a stack trace.
 * MLP_CODE_CACHE=0 turns it off.
 *
 * Cache file: build/.code-cache/<node version>-<arch>.bin: a 4-byte length, a JSON index
 * [[file, source sha256, data offset, data length, data sha256], ...], then the data.
 * Returns counts for this run (hits: compiled from the cache; compiled: from source), or
 * undefined when off.
 */
function enableCodeCache({
  env = process.env,
  file = path.join(OUT, '.code-cache', `${process.version}-${process.arch}.bin`),
  roots = [ROOT, path.join(ROOT, 'node_modules')],
} = {}) {
  if (['0', 'false', 'off', 'no'].includes((env.MLP_CODE_CACHE ?? '').toLowerCase())) return undefined;
  if (process.sourceMapsEnabled || process.execArgv.some((a) => /^--(experimental-policy|inspect)/.test(a))) return undefined;
  const Module = require('module');
  const vm = require('vm');
  // crypto.hash (Node 20.12+) hashes without a Hash object per call.
  const digest = crypto.hash ? (data) => crypto.hash('sha256', data) : (data) => crypto.createHash('sha256').update(data).digest('hex');
  // The data is read as modules load, a chunk of CHUNK bytes at a time (entries are in the
  // order the run that wrote them loaded the modules), so that the file (~9 MB) is not held in
  // memory for the whole synth; the descriptor stays open for the rewrite at exit, which copies
  // the entries still valid from it (a cache renamed over this one meanwhile does not change what it reads).
  /** file -> [source sha256, offset, length, data sha256] in the cache file */
  const old = new Map();
  let fd;
  let base = 0;
  try {
    fd = fs.openSync(file, 'r');
    const size = Buffer.alloc(4);
    if (fs.readSync(fd, size, 0, 4, 0) !== 4) throw new Error('short');
    const head = Buffer.alloc(size.readUInt32LE(0));
    if (fs.readSync(fd, head, 0, head.length, 4) !== head.length) throw new Error('short');
    base = 4 + head.length;
    for (const [f, ...entry] of JSON.parse(head.toString('utf8'))) old.set(f, entry);
  } catch {
    old.clear();
  }
  const CHUNK = 1 << 20;
  /** The last chunk read: its offset in the data and its bytes. */
  let chunk = { at: 0, bytes: Buffer.alloc(0) };
  const readEntry = ([, offset, length, sha]) => {
    try {
      if (offset < chunk.at || offset + length > chunk.at + chunk.bytes.length) {
        const bytes = Buffer.allocUnsafe(Math.max(CHUNK, length));
        chunk = { at: offset, bytes: bytes.subarray(0, fs.readSync(fd, bytes, 0, bytes.length, base + offset)) };
      }
      const data = chunk.bytes.subarray(offset - chunk.at, offset - chunk.at + length);
      return data.length === length && digest(data) === sha ? data : undefined;
    } catch {
      return undefined;
    }
  };
  /** file -> { sha, entry?, script? } of this run: an entry of the old file to keep, or a script to make data from */
  const used = new Map();
  const counts = { hits: 0, compiled: 0 };
  // Node names modules by their real path (node_modules may be a symbolic link).
  const prefixes = roots.filter((d) => fs.existsSync(d)).map((d) => `${fs.realpathSync(d)}${path.sep}`);
  const original = Module.prototype._compile;
  Module.prototype._compile = function (content, filename, format) {
    if (format === 'module' || !filename.endsWith('.js') || !prefixes.some((r) => filename.startsWith(r)) || content.includes('import(')) {
      return original.apply(this, arguments);
    }
    const sha = digest(content);
    const entry = old.get(filename);
    const cachedData = entry && entry[0] === sha ? readEntry(entry) : undefined;
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData && !script.cachedDataRejected) {
      used.set(filename, { sha, entry });
      counts.hits++;
    } else {
      used.set(filename, { sha, script });
      counts.compiled++;
    }
    const fn = script.runInThisContext({ displayErrors: true });
    const mod = this;
    // What Node's makeRequireFunction gives a module.
    const req = function require(id) {
      return mod.require(id);
    };
    const resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    req.resolve = resolve;
    req.main = process.mainModule;
    req.extensions = Module._extensions;
    req.cache = Module._cache;
    return fn.call(this.exports, this.exports, req, this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (!counts.compiled) return;
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      // Entries of modules this run did not load stay while their file exists (other platforms and entry points load them).
      for (const [f, entry] of old) if (!used.has(f) && fs.existsSync(f)) used.set(f, { sha: entry[0], entry });
      const index = [];
      const parts = [];
      let offset = 0;
      for (const [f, e] of used) {
        const data = e.script ? e.script.createCachedData() : readEntry(e.entry);
        if (!data) continue;
        index.push([f, e.sha, offset, data.length, digest(data)]);
        parts.push(data);
        offset += data.length;
      }
      const head = Buffer.from(JSON.stringify(index));
      const size = Buffer.alloc(4);
      size.writeUInt32LE(head.length, 0);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(tmp, Buffer.concat([size, head, ...parts]));
      fs.renameSync(tmp, file);
    } catch (e) {
      // A cache that cannot be written costs the next run its compile time, nothing else.
      fs.rmSync(tmp, { force: true });
      if (env.DEBUG) process.stderr.write(`code cache not saved: ${e?.message ?? e}\n`);
    }
  });
  return counts;
}

/** Bump when the cache's entry format or key changes meaning. */
const CACHE_FORMAT = 'mlp-synth-cache-1';
const CACHE_ENTRIES = 8;
/** Inputs outside SOURCES, by content. */
const CACHE_FILES = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'cdk8s.yaml', 'scripts/app.js'];

function hashTree(hash, root, rel) {
  const abs = path.join(root, rel);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) {
    hash.update(`missing\0${rel}\0`);
  } else if (st.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) hashTree(hash, root, path.join(rel, name));
  } else {
    const data = fs.readFileSync(abs);
    hash.update(`file\0${rel}\0${data.length}\0`);
    hash.update(data);
  }
}

/** The SHA-256 (hex) of every input of a synth into outdir from the project at root (see the header). */
function inputKey(root, env, outdir, cwd = process.cwd()) {
  const hash = crypto.createHash('sha256');
  hash.update(`${CACHE_FORMAT}\0${process.version}\0${path.resolve(cwd)}\0${path.resolve(cwd, outdir)}\0`);
  const vars = Object.keys(env).filter((k) => (k.startsWith('MLP_') || k.startsWith('CDK8S_')) && k !== 'MLP_SYNTH_CACHE' && k !== 'MLP_SYNTH_CACHE_DIR' && k !== 'MLP_CODE_CACHE').sort();
  for (const k of vars) hash.update(`env\0${k}\0${env[k]}\0`);
  for (const rel of [...CACHE_FILES, ...SOURCES]) hashTree(hash, root, rel);
  return hash.digest('hex');
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
    /** Records what the synth wrote to outdir (one file at a time), then keeps the newest CACHE_ENTRIES entries. */
    save() {
      if (!fs.existsSync(outdir)) return;
      const tmp = `${entry}.${process.pid}.tmp`;
      fs.rmSync(tmp, { recursive: true, force: true });
      const files = [];
      for (const rel of listTree(outdir)) {
        // The hash of what synth wrote: a restore checks the copy against it.
        files.push([rel, sha256File(path.join(outdir, rel))]);
        fs.mkdirSync(path.dirname(path.join(tmp, 'out', rel)), { recursive: true });
        fs.copyFileSync(path.join(outdir, rel), path.join(tmp, 'out', rel));
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
  enableCodeCache();
  // A synth that warns is not saved, so that a reuse never hides a warning (a progress line, '\r', is no warning).
  let warned = false;
  const write = process.stderr.write;
  process.stderr.write = function (chunk, ...rest) {
    if (!String(chunk).startsWith('\r')) warned = true;
    return write.call(this, chunk, ...rest);
  };
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
module.exports = { build, inputKey, outputCache, enableCodeCache };
