import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { isSharedJson } from './subtree-sharing';

/*
 * What the synth's caches of work done before share (lib/validation/verdicts.ts: the checks'
 * verdicts; lib/rendered.ts: the YAML of phase files). Each keeps what it found by the content
 * it was found for and by the code that found it (codeKey), so that a synth after an edit
 * redoes only the work the edit changed; none of them changes what a synth writes.
 *
 * Where: MLP_CACHE_DIR, or node_modules/.cache/cdk8s-mlplatform of the nearest folder above
 * the working directory that has node_modules (none: nothing is kept between processes).
 * MLP_SYNTH_CACHE=0 turns them off, with scripts/app.js's reuse of a whole output.
 */

/** Whether MLP_SYNTH_CACHE turns the synth's caches off (0, false, off, no). */
export function cachingOff(env: Record<string, string | undefined> = process.env): boolean {
  return ['0', 'false', 'off', 'no'].includes((env.MLP_SYNTH_CACHE ?? '').toLowerCase());
}

/** The folder the caches live in (see the header), or undefined: none is kept between processes. */
export function cacheRoot(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string | undefined {
  if (env.MLP_CACHE_DIR) return path.resolve(cwd, env.MLP_CACHE_DIR);
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules'))) return path.join(dir, 'node_modules', '.cache', 'cdk8s-mlplatform');
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** A cache's folder for the current code: `<dir>/<first 16 hex digits of the code key>`. */
export function codeFolder(dir: string, code: string): string {
  return path.join(dir, code.slice(0, 16));
}

/**
 * Makes a code folder (codeFolder) and marks it used; removes the folders beside it of all but
 * the newest `keep` (by that mark), so that the caches of old code do not pile up.
 */
export function claimCodeFolder(folder: string, keep = 4): void {
  const parent = path.dirname(folder);
  fs.mkdirSync(folder, { recursive: true });
  const now = new Date();
  fs.utimesSync(folder, now, now);
  // The folder claimed is kept whatever the clock says; of the others, the newest keep - 1.
  const others = fs.readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory() && path.join(parent, e.name) !== folder)
    .map((e) => ({ dir: path.join(parent, e.name), mtime: fs.statSync(path.join(parent, e.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || (a.dir < b.dir ? -1 : 1));
  for (const old of others.slice(Math.max(keep - 1, 0))) fs.rmSync(old.dir, { recursive: true, force: true });
}

/** Writes a file whole: a temporary file beside it, renamed. */
export function writeWhole(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/** Marks a kept file used now (its mtime), for pruneLeastRecentlyUsed; a file removed meanwhile only loses its mark. */
export function markUsed(file: string): void {
  try {
    const now = new Date();
    fs.utimesSync(file, now, now);
  } catch {
    // Only its place in the pruning order.
  }
}

/**
 * Once the files `names` of `folder` take more than `limit` bytes, removes those used least
 * recently (markUsed) until they take `downTo` or less; returns the names removed.
 */
export function pruneLeastRecentlyUsed(folder: string, names: readonly string[], limit: number, downTo = limit): Set<string> {
  const files = names.map((n) => {
    const st = fs.statSync(path.join(folder, n), { throwIfNoEntry: false });
    return { n, t: st?.mtimeMs ?? 0, size: st?.size ?? 0 };
  });
  let total = files.reduce((sum, f) => sum + f.size, 0);
  const gone = new Set<string>();
  if (total <= limit) return gone;
  for (const f of files.sort((a, b) => a.t - b.t || (a.n < b.n ? -1 : 1))) {
    if (total <= downTo) break;
    fs.rmSync(path.join(folder, f.n), { force: true });
    gone.add(f.n);
    total -= f.size;
  }
  return gone;
}

/**
 * A digest of a value's content (SHA-256), or undefined for a value it cannot key (a function,
 * a bigint). For JSON data (plain objects, lists, strings, finite numbers, booleans, null:
 * what `toJson` gives), its JSON text: the same in every process. Anything else (NaN, undefined,
 * a Date, a class instance), which JSON would write like something else, is keyed by what
 * `v8.serialize` writes, which tells them apart (but may write the same content differently in
 * another process, as V8 happened to store a number: a miss, never a wrong hit). `json`: the
 * value's JSON text, if already made.
 */
export function contentDigest(value: unknown, json?: string): string | undefined {
  if (isJsonData(value)) return crypto.createHash('sha256').update('json\0').update(json ?? JSON.stringify(value)).digest('hex');
  let bytes: Buffer;
  try {
    bytes = v8.serialize(value);
  } catch {
    return undefined;
  }
  return crypto.createHash('sha256').update('v8\0').update(bytes).digest('hex');
}

/** Shared subtrees (lib/subtree-sharing.ts, frozen) by whether they are JSON data. */
const sharedJsonData = new WeakMap<object, boolean>();

/** Whether a value is JSON data that JSON.stringify writes as it is: nothing it drops, changes or writes as null. */
function isJsonData(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const x = stack.pop();
    if (x === null) continue;
    if (x !== value && isSharedJson(x)) {
      // A shared subtree is tested once (it is the same frozen value wherever it appears).
      let data = sharedJsonData.get(x);
      if (data === undefined) sharedJsonData.set(x, data = isJsonData(x));
      if (!data) return false;
      continue;
    }
    switch (typeof x) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(x)) return false;
        continue;
      case 'object':
        if (Array.isArray(x)) {
          for (let i = 0; i < x.length; i++) stack.push(x[i]);
        } else {
          const proto = Object.getPrototypeOf(x);
          if (proto !== Object.prototype && proto !== null) return false;
          for (const k in x) stack.push((x as Record<string, unknown>)[k]);
        }
        continue;
      default:
        return false; // undefined, a function, a symbol, a bigint
    }
  }
  return true;
}

let CODE_KEY: string | undefined;

/**
 * The code key: a SHA-256 of every file under this package's lib/ and imports/ (the
 * validators, the YAML writer, the Kubernetes schemas they read), the versions of the
 * libraries they use, and the Node.js version. Computed once per process.
 *
 * Hashing those files (~4 MB) is most of what a synth after an edit spends on its caches'
 * keys, so in a build/ that scripts/app.js keeps (it has a .manifest.json) the key is also
 * kept there, in .code-key.json, with the size and mtime of each file it hashed: while every
 * file and the libraries' versions are as recorded, the recorded key is used without reading
 * the files; any difference (a file changed, added or removed) hashes them again. The same
 * stamps decide whether scripts/app.js transpiles a source again, so a build/ that is current
 * has a current key. Elsewhere (the sources under ts-node or jest, an installed package) every
 * file is hashed.
 */
export function codeKey(): string {
  if (CODE_KEY) return CODE_KEY;
  const root = path.resolve(__dirname, '..');
  return CODE_KEY = codeKeyOf(root, fs.existsSync(path.join(root, '.manifest.json')) ? path.join(root, '.code-key.json') : undefined);
}

/**
 * The code key of the package at root (codeKey), its record kept in the file memo (undefined:
 * none kept, every file hashed).
 */
export function codeKeyOf(root: string, memo: string | undefined): string {
  let head = `mlp-code-1\0${process.version}\0`;
  for (const lib of ['ajv', '@bufbuild/cel', 'yaml']) head += `${lib}@${packageVersion(lib)}\0`;
  return treeDigest(root, ['lib', 'imports'], memo, head);
}

/** Bump when a treeDigest record changes meaning. */
const TREE_DIGEST_RECORD = 'mlp-tree-digest-1';

/**
 * A SHA-256 of head and of every file under root's paths rels (hashTree). With memo (a file
 * path), the digest is also kept there with the size and mtime of each file: while every file
 * stands as recorded (and root and head are the same), the kept digest is returned without
 * reading the files; a file changed, added or removed is hashed again. The code key and
 * scripts/app.js's digest of a synth's input files both use it.
 */
export function treeDigest(root: string, rels: readonly string[], memo: string | undefined, head = ''): string {
  const stamps: string[] = [];
  for (const rel of rels) stampTree(stamps, root, rel);
  const recorded = { format: TREE_DIGEST_RECORD, root, head, stamps: stamps.join('\n') };
  if (memo) {
    try {
      const m = JSON.parse(fs.readFileSync(memo, 'utf8'));
      if (m.format === recorded.format && m.root === root && m.head === head && m.stamps === recorded.stamps && /^[0-9a-f]{64}$/.test(m.digest)) return m.digest as string;
    } catch {
      // None yet, or unreadable: hashed below.
    }
  }
  const hash = crypto.createHash('sha256').update(head);
  for (const rel of rels) hashTree(hash, root, rel);
  const digest = hash.digest('hex');
  if (memo) {
    try {
      fs.mkdirSync(path.dirname(memo), { recursive: true });
      writeWhole(memo, JSON.stringify({ ...recorded, digest }));
    } catch {
      // A digest that cannot be kept is hashed again by the next process, nothing else.
    }
  }
  return digest;
}

/** The size and mtime of each file hashTree(root, rel) reads, in its order; a missing path as missing. */
function stampTree(out: string[], root: string, rel: string): void {
  const st = fs.statSync(path.join(root, rel), { throwIfNoEntry: false });
  if (!st) {
    out.push(`missing\0${rel}`);
  } else if (st.isDirectory()) {
    for (const name of fs.readdirSync(path.join(root, rel)).sort()) stampTree(out, root, path.join(rel, name));
  } else {
    out.push(`file\0${rel}\0${st.size}\0${st.mtimeMs}`);
  }
}

/**
 * Hashes a file (its path, length and content) or a folder (each file under it, by sorted
 * name) under root; a missing path counts as missing. scripts/app.js keys its output cache
 * with it too.
 */
export function hashTree(hash: crypto.Hash, root: string, rel: string): void {
  const abs = path.join(root, rel);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (!st) {
    hash.update(`missing\0${rel}\0`);
  } else if (st.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) hashTree(hash, root, path.join(rel, name));
  } else {
    const data = fs.readFileSync(abs);
    hash.update(`file\0${rel}\0${data.length}\0`).update(data);
  }
}

/** The version in a library's package.json, found from where it resolves; 'unknown' if not found. */
export function packageVersion(name: string): string {
  try {
    let dir = path.dirname(require.resolve(name));
    for (;;) {
      const file = path.join(dir, 'package.json');
      if (fs.existsSync(file)) {
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (pkg.name === name) return String(pkg.version);
      }
      if (path.dirname(dir) === dir) return 'unknown';
      dir = path.dirname(dir);
    }
  } catch {
    return 'unknown';
  }
}
