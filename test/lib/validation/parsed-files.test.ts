import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as v8 from 'v8';
import * as yaml from 'yaml';
import { forgetParsedFiles, readManifest } from '../../../lib/validation/manifests';
import { ParsedFiles, parserCodeKey } from '../../../lib/validation/parsed-files';

// Counts the parses (the real parser runs).
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parseAllDocuments: jest.fn(actual.parseAllDocuments) };
});

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-parsed-'));
const CODE = 'a'.repeat(64);
/** A text long enough to be kept: one ConfigMap per line of data. */
const manifest = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${Array.from({ length: 400 }, (_, i) => `  key${i}: "${value}-${i}"`).join('\n')}\n`;

/** The entry files under a store's folder. */
const entries = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.v8')).map((f) => path.join(dir, f));

describe('ParsedFiles', () => {
  test('keeps bytes by text digest; another text, another code key or a short text misses', () => {
    const dir = tmp();
    const store = new ParsedFiles(dir, CODE);
    const text = manifest('x');
    const bytes = v8.serialize([{ a: 1 }]);
    const digest = ParsedFiles.digest(text);
    expect(store.get(digest, text.length)).toBeUndefined();
    store.put(digest, text.length, bytes);
    expect(new ParsedFiles(dir, CODE).get(digest, text.length)?.equals(bytes)).toBe(true);
    // Another text (its digest), another parser (its code key).
    expect(store.get(ParsedFiles.digest(manifest('y')), text.length)).toBeUndefined();
    expect(new ParsedFiles(dir, 'b'.repeat(64)).get(digest, text.length)).toBeUndefined();
    // An entry renamed to another text's digest is not that text's.
    const other = ParsedFiles.digest(manifest('y'));
    fs.copyFileSync(entries(dir)[0], path.join(path.dirname(entries(dir)[0]), `${other}.v8`));
    expect(store.get(other, text.length)).toBeUndefined();
    // Short texts are not kept.
    store.put(ParsedFiles.digest('a: 1\n'), 5, bytes);
    expect(store.get(ParsedFiles.digest('a: 1\n'), 5)).toBeUndefined();
  });

  test('a damaged entry is a miss, and is written again', () => {
    const dir = tmp();
    const store = new ParsedFiles(dir, CODE);
    const text = manifest('x');
    const digest = ParsedFiles.digest(text);
    const bytes = v8.serialize({ docs: Array.from({ length: 50 }, (_, i) => `document ${i}`) });
    store.put(digest, text.length, bytes);
    const [file] = entries(dir);
    const good = fs.readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] = 255 - flipped[flipped.length - 10];
    for (const damaged of [flipped, good.subarray(0, good.length - 5), Buffer.from('not an entry'), Buffer.alloc(0)]) {
      fs.writeFileSync(file, damaged);
      expect(store.get(digest, text.length)).toBeUndefined();
    }
    store.put(digest, text.length, bytes);
    expect(store.get(digest, text.length)?.equals(bytes)).toBe(true);
  });

  test('the least recently used entries past the limit are removed at a process\'s first write', () => {
    const dir = tmp();
    const bytes = v8.serialize('x'.repeat(1000));
    const first = new ParsedFiles(dir, CODE, { minBytes: 1, maxBytes: 2500 });
    for (const t of ['one', 'two', 'three']) first.put(ParsedFiles.digest(t), 10, bytes);
    expect(entries(dir)).toHaveLength(3);
    const old = new Date(Date.now() - 60_000);
    for (const f of entries(dir)) fs.utimesSync(f, old, old);
    // A hit makes 'one' the most recently used.
    expect(first.get(ParsedFiles.digest('one'), 10)).toBeDefined();
    new ParsedFiles(dir, CODE, { minBytes: 1, maxBytes: 2500 }).put(ParsedFiles.digest('four'), 10, bytes);
    const kept = entries(dir).map((f) => path.basename(f, '.v8')).sort();
    expect(kept).toHaveLength(3);
    expect(kept).toContain(ParsedFiles.digest('one'));
    expect(kept).toContain(ParsedFiles.digest('four'));
  });

  test('the code key changes with the parser\'s code', () => {
    const file = path.join(tmp(), 'parser.js');
    fs.writeFileSync(file, 'one');
    const before = parserCodeKey(file);
    expect(parserCodeKey(file)).toBe(before);
    fs.writeFileSync(file, 'two');
    expect(parserCodeKey(file)).not.toBe(before);
  });
});

describe('readManifest with the parsed files kept', () => {
  const env = { ...process.env };
  afterEach(() => {
    process.env = { ...env };
  });

  /** readManifest as another process's (its memo of files parsed emptied). */
  const freshRead = (file: string): unknown[] => {
    forgetParsedFiles();
    return readManifest(file, 'm.yaml');
  };

  /** A manifest file with the parsed-files cache on, in a cache folder of its own; the parser's mock. */
  const keptManifest = (): { file: string; parses: jest.Mock; cache: string } => {
    const cache = tmp();
    process.env.MLP_CACHE_DIR = cache;
    delete process.env.MLP_SYNTH_CACHE;
    const file = path.join(tmp(), 'm.yaml');
    fs.writeFileSync(file, manifest('x'));
    return { file, parses: yaml.parseAllDocuments as jest.Mock, cache };
  };

  test('another process reads a kept text without parsing it; a changed text is parsed; MLP_SYNTH_CACHE=0 parses every time', () => {
    const { file, parses, cache } = keptManifest();
    parses.mockClear();
    const first = freshRead(file);
    expect(parses).toHaveBeenCalledTimes(1);
    const second = freshRead(file);
    expect(parses).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
    expect((second[0] as any).object.data.key7).toBe('x-7');
    expect(entries(cache)).toHaveLength(1);

    fs.writeFileSync(file, manifest('y'));
    expect((freshRead(file)[0] as any).object.data.key7).toBe('y-7');
    expect(parses).toHaveBeenCalledTimes(2);

    fs.writeFileSync(file, manifest('x'));
    process.env.MLP_SYNTH_CACHE = '0';
    expect(freshRead(file)).toEqual(first);
    expect(parses).toHaveBeenCalledTimes(3);
  });

  test('a damaged entry is parsed again, with the same documents', () => {
    const { file, parses, cache } = keptManifest();
    const first = freshRead(file);
    const [entry] = entries(cache);
    const data = fs.readFileSync(entry);
    data[data.length - 20] = 255 - data[data.length - 20];
    fs.writeFileSync(entry, data);
    parses.mockClear();
    expect(freshRead(file)).toEqual(first);
    expect(parses).toHaveBeenCalledTimes(1);
  });
});
