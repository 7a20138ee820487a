import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ValidationIssue } from './issues';
import { cacheRoot, cachingOff, claimCodeFolder, codeFolder, codeKey, contentDigest, writeWhole } from '../cache';

/**
 * Verdicts: the results of the validations that cost the most (a built-in object against the
 * Kubernetes schema, a custom resource against its CRD, a CRD's CEL rules compiled for a
 * Kubernetes version, the images an object names), kept by content, so that a synth after an
 * edit validates only the objects that changed. Most of a platform's bytes are CRDs that an
 * edit of replicas, images or namespaces leaves as they were.
 *
 * A verdict's key is a SHA-256 of the code key (lib/cache.ts: this package's lib/ and
 * imports/, the libraries' versions, Node.js's) and of what is validated: the kind of
 * validation, its context (the CRD a custom resource is validated against, the Kubernetes
 * version CEL is compiled for) and the item's content (contentDigest). An item it cannot key
 * is validated every time.
 *
 * Verdicts are kept in memory and under the cache folder (lib/cache.ts), in verdicts/<code>/:
 * each process that found new ones writes them as one file (`flush`, written whole): a line
 * naming the format, then a line per verdict holding its own key. Past MAX_FILES files a flush
 * merges them into one, of at most MAX_ENTRIES verdicts.
 */
export class Verdicts {
  /** The verdicts the environment asks for: undefined when MLP_SYNTH_CACHE turns caching off. */
  public static fromEnvironment(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Verdicts | undefined {
    if (cachingOff(env)) return undefined;
    const root = cacheRoot(env, cwd);
    const dir = root && path.join(root, 'verdicts');
    let v = SHARED.get(dir ?? '');
    if (!v) SHARED.set(dir ?? '', v = new Verdicts(dir));
    return v;
  }

  private readonly memory = new Map<string, readonly ValidationIssue[]>();
  private readonly code: string;
  private readonly folder?: string;
  private pruned = false;
  /** Verdict lines read from the folder and not yet used, by key. */
  private readonly raw = new Map<string, string>();
  /** Verdicts found since the last flush. */
  private readonly pending: Array<[string, readonly ValidationIssue[]]> = [];
  /** The verdict files read (undefined: not yet). */
  private files?: Set<string>;
  /** Hits and misses since this store was made (for tests and the curious). */
  public readonly stats = { hits: 0, misses: 0 };

  /**
   * @param dir where verdicts are kept on disk; undefined keeps them in memory only
   * @param code the code key (default codeKey())
   * @param limits files before a merge (MAX_FILES) and verdicts a merge keeps (MAX_ENTRIES)
   */
  constructor(dir?: string, code: string = codeKey(), private readonly limits = { files: MAX_FILES, entries: MAX_ENTRIES }) {
    this.code = code;
    this.folder = dir && codeFolder(dir, code);
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
   * Writes the verdicts found since the last flush to the folder, as one file (written whole).
   * Once there are more than MAX_FILES, a flush merges them into one instead, keeping at most
   * MAX_ENTRIES verdicts: those this process used first, then the newest files'. Without a
   * folder, or when it cannot be written, the verdicts stay in memory only.
   */
  public flush(): void {
    if (!this.folder || !this.pending.length) return;
    const lineOf = (key: string, issues: readonly ValidationIssue[]) => `${key}\t${JSON.stringify(issues)}`;
    const lines = this.pending.splice(0).map(([key, issues]) => lineOf(key, issues));
    try {
      const known = this.load();
      if (!this.pruned) claimCodeFolder(this.folder);
      this.pruned = true;
      const merge = known.size + 1 > this.limits.files;
      let all = lines;
      if (merge) {
        const kept = new Map<string, string>();
        for (const [key, issues] of this.memory) kept.set(key, lineOf(key, issues));
        for (const [key, line] of this.raw) if (!kept.has(key)) kept.set(key, line);
        all = [...kept.values()].slice(0, this.limits.entries);
      }
      const file = path.join(this.folder, `${Date.now().toString(36)}-${process.pid}-${crypto.randomBytes(4).toString('hex')}.tsv`);
      writeWhole(file, `${FORMAT}\n${all.join('\n')}\n`);
      if (merge) for (const old of known) fs.rmSync(path.join(this.folder, old), { force: true });
      this.files = new Set([path.basename(file)]);
    } catch {
      // A folder that cannot be written (read-only, removed meanwhile) only costs time.
    }
  }

  private read(key: string): readonly ValidationIssue[] | undefined {
    this.load();
    const known = this.memory.get(key);
    if (known) return known;
    // Read lines are parsed only when used: the folder holds the verdicts of every platform and test.
    const line = this.raw.get(key);
    if (line === undefined) return undefined;
    let issues: unknown;
    try {
      issues = JSON.parse(line.slice(KEY_LENGTH + 1));
    } catch {
      return undefined;
    }
    if (!isIssueList(issues)) return undefined;
    this.memory.set(key, issues);
    return issues;
  }

  private write(key: string, issues: readonly ValidationIssue[]): void {
    this.memory.set(key, issues);
    this.pending.push([key, issues]);
  }

  /**
   * Reads every verdict file of the folder, once, newest first: a first line naming the format,
   * then a line per verdict, its key, a tab and its issues as JSON (parsed when used: a line
   * that does not parse or has the wrong shape is then a miss).
   */
  private load(): Set<string> {
    if (this.files) return this.files;
    this.files = new Set();
    if (!this.folder) return this.files;
    let names: string[];
    try {
      names = fs.readdirSync(this.folder).filter((n) => n.endsWith('.tsv')).sort().reverse();
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
      const lines = text.split('\n');
      if (lines[0] !== FORMAT) continue;
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i];
        if (line.charCodeAt(KEY_LENGTH) !== TAB) continue;
        const key = line.slice(0, KEY_LENGTH);
        if (!this.raw.has(key)) this.raw.set(key, line);
      }
    }
    return this.files;
  }
}

/** Bump when a verdict's key or file changes meaning. */
const FORMAT = 'mlp-verdicts-2';
/** A key: SHA-256, hex. */
const KEY_LENGTH = 64;
const TAB = 9;
/** Verdicts a merge keeps. */
const MAX_ENTRIES = 50_000;
/** Verdict files in a folder before they are merged into one. */
const MAX_FILES = 16;
const SHARED = new Map<string, Verdicts>();

function isIssueList(x: unknown): x is ValidationIssue[] {
  return Array.isArray(x) && x.every((i) => i !== null && typeof i === 'object' && typeof i.path === 'string' && typeof i.message === 'string'
    && (i.rule === undefined || typeof i.rule === 'string') && (i.severity === undefined || i.severity === 'error' || i.severity === 'warning'));
}

