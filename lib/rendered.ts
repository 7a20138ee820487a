import * as buffer from 'buffer';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot, cachingOff, claimCodeFolder, codeFolder, codeKey, markUsed, pruneLeastRecentlyUsed, writeWhole } from './cache';

/**
 * The YAML of phase files, kept by the content of their documents, so that a synth after an
 * edit renders only the files whose objects the edit changed: most of a platform's YAML is
 * CRDs that an edit of replicas, images or namespaces leaves as they were.
 *
 * Under the cache folder (lib/cache.ts), in yaml/<code>/: one file per phase file, named by
 * its key (a SHA-256 of the code key and of each document's content digest, in order), written
 * whole, whose first line repeats the format, the key and the text's length: a file whose first
 * line does not match is a miss. A file used is marked (its time set); past MAX_BYTES those
 * used least recently are removed down to half, and the YAML of only the newest
 * KEEP_CODE_VERSIONS code keys is kept, so that the YAML of old edits does not pile up.
 */
export class RenderedFiles {
  /** The cache the environment asks for: undefined when MLP_SYNTH_CACHE turns caching off or there is no cache folder. */
  public static fromEnvironment(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): RenderedFiles | undefined {
    if (cachingOff(env)) return undefined;
    const root = cacheRoot(env, cwd);
    return root ? new RenderedFiles(path.join(root, 'yaml')) : undefined;
  }

  /** Files found and files rendered since this cache was made. */
  public readonly stats = { hits: 0, misses: 0 };
  private readonly folder: string;
  private readonly code: string;
  private names?: Set<string>;
  private claimed = false;

  /**
   * @param dir where the YAML is kept
   * @param code the code key (default codeKey())
   * @param limits bytes kept before those used least recently are removed down to half, and
   * the files below which the folder is not measured
   */
  constructor(dir: string, code: string = codeKey(), private readonly limits = { bytes: MAX_BYTES, measureFrom: PRUNE_CHECK_FILES }) {
    this.code = code;
    this.folder = codeFolder(dir, code);
  }

  /**
   * The YAML of a file whose documents have these content digests: as kept, or made by
   * `render` (and kept). A document without a digest (undefined) means render every time.
   */
  public text(digests: ReadonlyArray<string | undefined>, render: () => string): string {
    if (!digests.length || digests.some((d) => d === undefined)) return render();
    const key = crypto.createHash('sha256').update(`${FORMAT}\0${this.code}\0${digests.join('\n')}`).digest('hex');
    const file = path.join(this.folder, `${key}.yaml`);
    if (this.list().has(`${key}.yaml`)) {
      const kept = this.read(file, key);
      if (kept !== undefined) {
        this.stats.hits++;
        return kept;
      }
    }
    this.stats.misses++;
    const text = render();
    try {
      if (!this.claimed) claimCodeFolder(this.folder, KEEP_CODE_VERSIONS);
      this.claimed = true;
      writeWhole(file, `${FORMAT} ${key} ${text.length}\n${text}`);
    } catch {
      // A folder that cannot be written (read-only, removed meanwhile) only costs time.
    }
    return text;
  }

  private read(file: string, key: string): string | undefined {
    let data: string;
    try {
      data = readText(file);
    } catch {
      return undefined; // removed meanwhile
    }
    const nl = data.indexOf('\n');
    const [format, k, length] = data.slice(0, Math.max(nl, 0)).split(' ');
    const text = data.slice(nl + 1);
    if (nl < 0 || format !== FORMAT || k !== key || Number(length) !== text.length) return undefined;
    markUsed(file);
    return text;
  }

  /** The files kept, listed once; past limits.bytes, those used least recently are removed down to half of it. */
  private list(): Set<string> {
    if (this.names) return this.names;
    let names: string[];
    try {
      names = fs.readdirSync(this.folder).filter((n) => n.endsWith('.yaml'));
    } catch {
      names = [];
    }
    if (names.length > this.limits.measureFrom) {
      const gone = pruneLeastRecentlyUsed(this.folder, names, this.limits.bytes, this.limits.bytes / 2);
      names = names.filter((n) => !gone.has(n));
    }
    return this.names = new Set(names);
  }
}

/** Bump when a kept file's key or layout changes meaning. */
const FORMAT = 'mlp-rendered-1';
/** Bytes of YAML kept per code key (the default platforms' phase files are some 50 MB). */
const MAX_BYTES = 128 * 1024 * 1024;
/** Below this many files, the folder is not measured. */
const PRUNE_CHECK_FILES = 64;
/** Code keys whose YAML is kept. */
const KEEP_CODE_VERSIONS = 2;

/** Node.js's buffer.isAscii (20.0 has none: then every file is decoded as UTF-8). */
const isAscii: ((data: Uint8Array) => boolean) | undefined = (buffer as { isAscii?: (data: Uint8Array) => boolean }).isAscii;

/**
 * A file's text, as `fs.readFileSync(file, 'utf8')` gives it. The YAML kept is nearly always
 * ASCII, which decodes as Latin-1 to the same string without UTF-8's validation (about half the
 * time of a decode); any other byte is decoded as UTF-8.
 */
export function readText(file: string): string {
  const data = fs.readFileSync(file);
  return isAscii?.(data) ? data.toString('latin1') : data.toString('utf8');
}
