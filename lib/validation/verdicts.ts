import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import { ValidationIssue } from './issues';

/**
 * Verdicts: the results of the validations that cost the most (a built-in object against the
 * Kubernetes schema, a custom resource against its CRD, a CRD's CEL rules compiled for a
 * Kubernetes version), kept by content, so that a synth after an edit validates only the
 * objects that changed. Most of a platform's bytes are CRDs that an edit of replicas, images
 * or namespaces leaves as they were.
 *
 * A verdict's key is a SHA-256 of:
 * - the validator's code and data: every file of this package's lib/ and imports/ (the
 *   validators and the Kubernetes schemas they read), the versions of ajv, @bufbuild/cel and
 *   yaml, and the Node.js version (CODE_KEY);
 * - what is validated: the kind of validation, its context (the CRD a custom resource is
 *   validated against, the Kubernetes version CEL is compiled for) and the item, as
 *   `v8.serialize` writes it. That tells apart what JSON would not (NaN from null, undefined
 *   from a missing field, a Date from its string); an item it cannot serialize is validated
 *   every time.
 *
 * Verdicts are kept in memory and, when a folder is found, on disk: each process that found
 * new ones writes them as one file (`flush`, a temporary file renamed), a line per verdict
 * holding its own key; a line that does not parse or has the wrong shape is skipped. Past
 * MAX_FILES files a flush merges them into one. Folder: MLP_CHECK_CACHE_DIR, or
 * node_modules/.cache/cdk8s-mlplatform/verdicts of the nearest folder above the working
 * directory that has node_modules (none: memory only); a subfolder per code key, the newest
 * KEEP_CODE_VERSIONS kept. MLP_SYNTH_CACHE=0 (as for the synth's output cache) turns verdicts
 * off: every validation runs.
 *
 * Two builds of a platform in one process may share sub-objects differently (module-level
 * constants), which `v8.serialize` writes as references: such an item is a miss, never a
 * wrong hit. A new process builds as the last one did.
 */
export class Verdicts {
  /** The verdicts the environment asks for: undefined when MLP_SYNTH_CACHE turns caching off. */
  public static fromEnvironment(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Verdicts | undefined {
    if (cachingOff(env)) return undefined;
    const dir = env.MLP_CHECK_CACHE_DIR || defaultDir(cwd);
    const key = `${dir ?? ''}`;
    let v = SHARED.get(key);
    if (!v) SHARED.set(key, v = new Verdicts(dir ? path.resolve(dir) : undefined));
    return v;
  }

  private readonly memory = new Map<string, readonly ValidationIssue[]>();
  private readonly code: string;
  private readonly folder?: string;
  private pruned = false;
  /** Verdicts found since the last flush. */
  private readonly pending: Array<[string, readonly ValidationIssue[]]> = [];
  /** The verdict files read (undefined: not yet). */
  private files?: Set<string>;
  /** Hits and misses since this store was made (for tests and the curious). */
  public readonly stats = { hits: 0, misses: 0 };

  /**
   * @param dir where verdicts are kept on disk; undefined keeps them in memory only
   * @param code the validators' code key (default CODE_KEY, computed once per process)
   */
  constructor(dir?: string, code: string = codeKey()) {
    this.code = code;
    this.folder = dir && path.join(dir, code.slice(0, 16));
  }

  /**
   * The issues of each item, as `validate` finds them: verdicts known for an item are used;
   * `validate` runs once, on the items without one, and must return one list per item it gets,
   * each depending only on that item and on `context` (a string, or data such as the CRD that
   * custom resources are validated against, which is keyed by content). `digest` keys data by
   * content (default contentDigest; a caller may reuse digests while the data stays unchanged).
   */
  public of<T>(kind: string, context: unknown, items: readonly T[], validate: (items: T[]) => ValidationIssue[][],
    digest: (value: unknown) => string | undefined = contentDigest): ValidationIssue[][] {
    const ctx = typeof context === 'string' ? `s:${context}` : digest(context);
    if (ctx === undefined) return validate([...items]);
    const keys = items.map((item) => {
      const d = digest(item);
      return d && crypto.createHash('sha256').update(`${FORMAT}\0${this.code}\0${kind}\0${ctx}\0${d}`).digest('hex');
    });
    const results = keys.map((k) => (k ? this.read(k) : undefined));
    const missing = results.flatMap((r, i) => (r ? [] : [i]));
    this.stats.hits += items.length - missing.length;
    this.stats.misses += missing.length;
    if (missing.length) {
      const found = validate(missing.map((i) => items[i]));
      missing.forEach((i, n) => {
        results[i] = found[n];
        const k = keys[i];
        if (k) this.write(k, found[n]);
      });
    }
    return results as ValidationIssue[][];
  }

  /**
   * Writes the verdicts found since the last flush to the folder, as one file (a temporary file
   * renamed), and merges the folder's files into one once there are more than MAX_FILES.
   * Without a folder, or when it cannot be written, the verdicts stay in memory only.
   */
  public flush(): void {
    if (!this.folder || !this.pending.length) return;
    const lines = this.pending.splice(0).map(([key, issues]) => JSON.stringify({ format: FORMAT, key, issues }));
    try {
      const known = this.load();
      if (!this.pruned) this.prune();
      const merge = known.size + 1 > MAX_FILES;
      const all = merge ? [...this.memory].map(([key, issues]) => JSON.stringify({ format: FORMAT, key, issues })) : lines;
      const file = path.join(this.folder, `${Date.now().toString(36)}-${process.pid}-${crypto.randomBytes(4).toString('hex')}.jsonl`);
      fs.writeFileSync(`${file}.tmp`, `${all.join('\n')}\n`);
      fs.renameSync(`${file}.tmp`, file);
      if (merge) for (const old of known) fs.rmSync(path.join(this.folder, old), { force: true });
      this.files = new Set([path.basename(file)]);
    } catch {
      // A folder that cannot be written (read-only, removed meanwhile) only costs time.
    }
  }

  private read(key: string): readonly ValidationIssue[] | undefined {
    this.load();
    return this.memory.get(key);
  }

  private write(key: string, issues: readonly ValidationIssue[]): void {
    this.memory.set(key, issues);
    this.pending.push([key, issues]);
  }

  /**
   * Reads every verdict file of the folder, once: each line a verdict with its own key; a line
   * that does not parse or has the wrong shape is skipped.
   */
  private load(): Set<string> {
    if (this.files) return this.files;
    this.files = new Set();
    if (!this.folder) return this.files;
    let names: string[];
    try {
      names = fs.readdirSync(this.folder).filter((n) => n.endsWith('.jsonl')).sort();
    } catch {
      return this.files;
    }
    for (const name of names) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(this.folder, name), 'utf8');
      } catch {
        continue; // merged away meanwhile
      }
      this.files.add(name);
      for (const line of text.split('\n')) {
        if (!line) continue;
        let entry: any;
        try {
          entry = JSON.parse(line);
        } catch {
          continue;
        }
        if (entry?.format === FORMAT && typeof entry.key === 'string' && isIssueList(entry.issues)) this.memory.set(entry.key, entry.issues);
      }
    }
    return this.files;
  }

  /** Makes this code key's folder; removes the folders of all but the newest KEEP_CODE_VERSIONS code keys. */
  private prune(): void {
    this.pruned = true;
    const parent = path.dirname(this.folder!);
    fs.mkdirSync(this.folder!, { recursive: true });
    const now = new Date();
    fs.utimesSync(this.folder!, now, now);
    const folders = fs.readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory())
      .map((e) => ({ dir: path.join(parent, e.name), mtime: fs.statSync(path.join(parent, e.name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime || (a.dir < b.dir ? -1 : 1));
    for (const old of folders.slice(KEEP_CODE_VERSIONS)) fs.rmSync(old.dir, { recursive: true, force: true });
  }
}

/** Bump when a verdict's key or file changes meaning. */
const FORMAT = 'mlp-verdicts-1';
const KEEP_CODE_VERSIONS = 4;
/** Verdict files in a folder before they are merged into one. */
const MAX_FILES = 16;
const SHARED = new Map<string, Verdicts>();

/**
 * A SHA-256 of a value as `v8.serialize` writes it, or undefined for what it cannot serialize
 * (functions, symbols). The value must not change while its digest is in use.
 */
export function contentDigest(value: unknown): string | undefined {
  let bytes: Buffer;
  try {
    bytes = v8.serialize(value);
  } catch {
    return undefined;
  }
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

/** Whether MLP_SYNTH_CACHE turns the synth's caches off (0, false, off, no). */
export function cachingOff(env: Record<string, string | undefined> = process.env): boolean {
  return ['0', 'false', 'off', 'no'].includes((env.MLP_SYNTH_CACHE ?? '').toLowerCase());
}

function defaultDir(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules'))) return path.join(dir, 'node_modules', '.cache', 'cdk8s-mlplatform', 'verdicts');
    if (path.dirname(dir) === dir) return undefined;
  }
}

function isIssueList(x: unknown): x is ValidationIssue[] {
  return Array.isArray(x) && x.every((i) => i !== null && typeof i === 'object' && typeof i.path === 'string' && typeof i.message === 'string'
    && (i.rule === undefined || typeof i.rule === 'string') && (i.severity === undefined || i.severity === 'error' || i.severity === 'warning'));
}

let CODE_KEY: string | undefined;

/**
 * The validators' code key: a SHA-256 of every file under this package's lib/ and imports/,
 * the versions of the libraries the validators use, and the Node.js version.
 */
export function codeKey(): string {
  if (CODE_KEY) return CODE_KEY;
  const root = path.resolve(__dirname, '..', '..');
  const hash = crypto.createHash('sha256').update(`${FORMAT}\0${process.version}\0`);
  for (const lib of ['ajv', '@bufbuild/cel', 'yaml']) hash.update(`${lib}@${packageVersion(lib)}\0`);
  for (const top of ['lib', 'imports']) hashTree(hash, root, top);
  return CODE_KEY = hash.digest('hex');
}

function hashTree(hash: crypto.Hash, root: string, rel: string): void {
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
function packageVersion(name: string): string {
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
