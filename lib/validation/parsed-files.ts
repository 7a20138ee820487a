import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { cacheRoot, cachingOff, claimCodeFolder, codeFolder, markUsed, packageVersion, pruneLeastRecentlyUsed, writeWhole } from '../cache';

/*
 * Parsed manifest files kept between processes. Reading a platform's output is mostly YAML
 * parsing (about 0.3-0.4 s of CPU per MB with the `yaml` package; reading the same documents
 * back with v8.deserialize about a twentieth of that), and `mlplatform plan`, `validate`,
 * `apply --dir` and the tests read the same outputs again and again.
 *
 * An entry is what the parser made of one text (lib/validation/manifests.ts's documents), as
 * v8.serialize writes it, after a line with its checks, in
 * <cache folder>/parsed/<code>/<SHA-256 of the text>.v8, where <code> is the parser's code key
 * (parserCodeKey: the parser's own source file, the `yaml` package's version, Node.js's
 * version): another text or another parser never finds it. An entry that cannot be read,
 * whose recorded text digest or code key differ or whose bytes are not those recorded (their
 * SHA-256) is a miss (and written again). Texts under MIN_BYTES are not kept (parsed in a
 * millisecond or two); past MAX_BYTES of entries the least recently used are removed; the
 * entries of the newest CODE_FOLDERS code keys are kept (the three default platforms' outputs
 * the tests read take about 12 MB, less than their text). MLP_SYNTH_CACHE=0 turns it off,
 * with the synth's other caches (lib/cache.ts); it never changes what is read.
 */

/** Bump when an entry's layout changes meaning. */
const FORMAT = 'mlp-parsed-1';
/** Texts smaller than this are not kept. */
const MIN_BYTES = 4096;
/** The entries of one code key kept at most (bytes on disk). */
const MAX_BYTES = 128 * 1024 * 1024;
/** The code keys whose entries are kept (the newest used). */
const CODE_FOLDERS = 2;

/** The code key of a parser whose code is the file parserFile, with the `yaml` package it uses. */
export function parserCodeKey(parserFile: string): string {
  const hash = crypto.createHash('sha256').update(`${FORMAT}\0${process.version}\0yaml@${packageVersion('yaml')}\0`);
  try {
    hash.update(fs.readFileSync(parserFile));
  } catch {
    // A parser whose code cannot be read is keyed by a random key: nothing it keeps is found by another process.
    hash.update(crypto.randomBytes(16));
  }
  return hash.digest('hex');
}

/** What a parser made of texts, on disk by the text's digest (see the header). */
export class ParsedFiles {
  /** The store the environment asks for, for the parser in parserFile: undefined when MLP_SYNTH_CACHE turns caching off or there is no cache folder. */
  public static fromEnvironment(parserFile: string, env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ParsedFiles | undefined {
    if (cachingOff(env)) return undefined;
    const root = cacheRoot(env, cwd);
    if (!root) return undefined;
    const dir = path.join(root, 'parsed');
    const key = `${dir}\0${parserFile}`;
    let store = SHARED.get(key);
    if (!store) SHARED.set(key, store = new ParsedFiles(dir, parserCodeKey(parserFile)));
    return store;
  }

  /** The SHA-256 (hex) a text is kept by. */
  public static digest(text: string): string {
    return crypto.createHash('sha256').update(text).digest('hex');
  }

  private readonly folder: string;
  private claimed = false;
  /** Hits and misses since this store was made (for tests and the curious). */
  public readonly stats = { hits: 0, misses: 0 };

  /**
   * @param dir where entries are kept (a folder per code key under it)
   * @param code the parser's code key (parserCodeKey)
   */
  constructor(dir: string, private readonly code: string, private readonly limits = { minBytes: MIN_BYTES, maxBytes: MAX_BYTES }) {
    this.folder = codeFolder(dir, code);
  }

  /** Whether texts of this length are kept. */
  public keeps(length: number): boolean {
    return length >= this.limits.minBytes;
  }

  /**
   * The bytes kept for a text (by its digest, ParsedFiles.digest; `length`: the text's length),
   * or undefined: what v8.serialize wrote of the parser's value, checked against the SHA-256
   * recorded with them (a damaged entry is a miss). Callers deserialize them.
   */
  public get(digest: string, length: number): Buffer | undefined {
    if (!this.keeps(length)) return undefined;
    const file = path.join(this.folder, `${digest}.v8`);
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch {
      this.stats.misses++;
      return undefined;
    }
    const eol = data.indexOf(10);
    const value = eol < 0 ? undefined : data.subarray(eol + 1);
    if (!value || data.toString('utf8', 0, eol) !== this.header(digest, value)) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    markUsed(file);
    return value;
  }

  /** Keeps the bytes v8.serialize wrote of what the parser made of a text (by its digest and length); a folder that cannot be written keeps nothing. */
  public put(digest: string, length: number, value: Buffer): void {
    if (!this.keeps(length)) return;
    try {
      if (!this.claimed) {
        claimCodeFolder(this.folder, CODE_FOLDERS);
        this.claimed = true;
        this.prune();
      }
      writeWhole(path.join(this.folder, `${digest}.v8`), Buffer.concat([Buffer.from(`${this.header(digest, value)}\n`), value]));
    } catch {
      // A cache that cannot be written only costs the next process its parse.
    }
  }

  /** An entry's first line: the format, the code key, the text's digest, the SHA-256 of the value's bytes. */
  private header(digest: string, value: Buffer): string {
    return `${FORMAT} ${this.code} ${digest} ${crypto.createHash('sha256').update(value).digest('hex')}`;
  }

  /** Removes the least recently used entries past limits.maxBytes (once per process, before its first write). */
  private prune(): void {
    pruneLeastRecentlyUsed(this.folder, fs.readdirSync(this.folder).filter((n) => n.endsWith('.v8')), this.limits.maxBytes);
  }
}

const SHARED = new Map<string, ParsedFiles>();
