import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { hashTree } from '../../lib/cache';

/**
 * What a slow, deterministic tool computed for an input in an earlier test run (the `yaml`
 * package's stringify as the YAML writer's oracle, TypeScript's transpileModule for the import
 * graph), kept between runs by the digest of the input and of the tool's own installed code:
 * another input, another version of the tool (or an edited copy in node_modules), another
 * Node.js or another use (`name`) can never be served this result. A test keeps either a digest
 * of the tool's answer, and asks the tool again whenever what it computed itself does not match
 * (the YAML writer against the `yaml` package), or the answer itself, with the test's own code
 * that derives it among the code files (the import graph's specifiers). Either way the memo only
 * saves running a tool on an input whose answer this code already had.
 *
 * Where: node_modules/.cache/cdk8s-mlplatform/test-memo/<name>-<code key>.json in this checkout,
 * one file per name (a new code key replaces the old file). MLP_TEST_MEMO=0 turns it off
 * (nothing read or written).
 */
export class ToolMemo {
  /** A memo of the tool whose installed code is `codeFiles` (files or folders, read whole). */
  static open(name: string, codeFiles: readonly string[], env: Record<string, string | undefined> = process.env): ToolMemo {
    const off = ['0', 'false', 'off', 'no'].includes((env.MLP_TEST_MEMO ?? '').toLowerCase());
    const hash = crypto.createHash('sha256').update(`tool-memo-1\0${name}\0${process.version}\0`);
    // Each file or folder by path and content (lib/cache.ts's hashTree, as the synth caches' code key).
    for (const f of codeFiles) hashTree(hash, path.dirname(f), path.basename(f));
    return new ToolMemo(off ? undefined : path.join(MEMO_DIR, `${name}-${hash.digest('hex').slice(0, 16)}.json`), name);
  }

  private readonly entries = new Map<string, string>();
  /** Keys this process asked for or set: what a flush keeps once old entries outnumber them. */
  private readonly used = new Set<string>();
  private added = 0;

  /** `file`: where the memo is kept (undefined: nowhere, nothing is read or written); `name`: its use. */
  constructor(readonly file: string | undefined, private readonly name: string) {
    if (!file) return;
    try {
      const data = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        for (const [k, v] of Object.entries(data)) if (typeof v === 'string') this.entries.set(k, v);
      }
    } catch {
      // No memo yet, or a damaged one: every answer is computed again.
    }
  }

  /** The answer kept for this input key, if any. */
  get(key: string): string | undefined {
    this.used.add(key);
    return this.entries.get(key);
  }

  set(key: string, value: string): void {
    this.used.add(key);
    if (this.entries.get(key) === value) return;
    this.entries.set(key, value);
    this.added++;
  }

  /**
   * Writes the memo when something was added (whole, through a temporary file), and removes the
   * memos of other code for this name. Answers for inputs that no longer occur (an edited file's
   * old text) pile up; once they outnumber the ones this process used, only those are written.
   */
  flush(): void {
    if (!this.file || this.added === 0) return;
    if (this.entries.size > 2 * this.used.size + 1000) {
      for (const k of [...this.entries.keys()]) if (!this.used.has(k)) this.entries.delete(k);
    }
    try {
      const dir = path.dirname(this.file);
      fs.mkdirSync(dir, { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries([...this.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))));
      fs.renameSync(tmp, this.file);
      for (const f of fs.readdirSync(dir)) {
        if (f.startsWith(`${this.name}-`) && f.endsWith('.json') && path.join(dir, f) !== this.file) fs.rmSync(path.join(dir, f), { force: true });
      }
      this.added = 0;
    } catch {
      // A memo that cannot be written only costs time.
    }
  }
}

/** SHA-256 (hex) of a string. */
export function digest(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

const MEMO_DIR = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'cdk8s-mlplatform', 'test-memo');
