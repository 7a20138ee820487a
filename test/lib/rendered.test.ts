import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readText, RenderedFiles } from '../../lib/rendered';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-rendered-'));

describe('RenderedFiles', () => {
  test('a file whose documents have the digests of one rendered before is read, not rendered; other digests are rendered', () => {
    const dir = tmp();
    let renders = 0;
    const render = (text: string) => () => {
      renders++;
      return text;
    };
    const first = new RenderedFiles(dir, 'code');
    expect(first.text(['a', 'b'], render('a: 1\n---\nb: 2\n'))).toBe('a: 1\n---\nb: 2\n');
    expect(renders).toBe(1);
    // Another process (a new cache on the same folder) reads it.
    const second = new RenderedFiles(dir, 'code');
    expect(second.text(['a', 'b'], render('never'))).toBe('a: 1\n---\nb: 2\n');
    expect(second.stats).toEqual({ hits: 1, misses: 0 });
    // Order, content and code count.
    expect(second.text(['b', 'a'], render('b first\n'))).toBe('b first\n');
    expect(second.text(['a', 'c'], render('c\n'))).toBe('c\n');
    expect(new RenderedFiles(dir, 'other code').text(['a', 'b'], render('other code\n'))).toBe('other code\n');
    // A document without a digest: rendered every time, nothing kept.
    const third = new RenderedFiles(dir, 'code');
    third.text(['a', undefined], render('x\n'));
    third.text(['a', undefined], render('x\n'));
    expect(renders).toBe(6);
    expect(fs.readdirSync(path.join(dir, 'code')).filter((f) => f.endsWith('.yaml'))).toHaveLength(3);
  });

  test('a kept file that is cut short or does not name its key is rendered again and replaced', () => {
    const dir = tmp();
    new RenderedFiles(dir, 'code').text(['a'], () => 'kind: A\nmetadata:\n  name: a\n');
    const [file] = fs.readdirSync(path.join(dir, 'code')).map((f) => path.join(dir, 'code', f));
    const whole = fs.readFileSync(file, 'utf8');
    for (const damaged of [whole.slice(0, -3), whole.replace(/^mlp-rendered-1 [0-9a-f]+/, 'mlp-rendered-1 0000'), whole.replace(/^mlp-rendered-1/, 'mlp-rendered-0'), 'no header']) {
      fs.writeFileSync(file, damaged);
      const cache = new RenderedFiles(dir, 'code');
      expect(cache.text(['a'], () => 'kind: A\nmetadata:\n  name: a\n')).toBe('kind: A\nmetadata:\n  name: a\n');
      expect(cache.stats).toEqual({ hits: 0, misses: 1 });
      expect(fs.readFileSync(file, 'utf8')).toBe(whole);
    }
  });

  test('past its size, the files used least recently are removed down to half of it; only the newest two code keys are kept', () => {
    const dir = tmp();
    const small = { bytes: 200, measureFrom: 0 };
    const fill = new RenderedFiles(dir, 'code', small);
    // Five files of about 90 bytes each.
    for (const d of ['a', 'b', 'c', 'd', 'e']) fill.text([d], () => `${d.repeat(10)}\n`);
    const folder = path.join(dir, 'code');
    // Give every file an old time, then use e: a read marks it used.
    fs.readdirSync(folder).forEach((f, i) => fs.utimesSync(path.join(folder, f), new Date(1000 * (i + 1)), new Date(1000 * (i + 1))));
    const reader = new RenderedFiles(dir, 'code', { bytes: 1e9, measureFrom: 0 });
    expect(reader.text(['e'], () => 'rendered again\n')).toBe('eeeeeeeeee\n');
    const sizes = () => fs.readdirSync(folder).reduce((n, f) => n + fs.statSync(path.join(folder, f)).size, 0);
    expect(sizes()).toBeGreaterThan(200);
    new RenderedFiles(dir, 'code', small).text(['z'], () => 'z\n');
    // Down to at most 100 bytes before z was written; e, used last, among what is left.
    expect(sizes() - fs.statSync(path.join(folder, fs.readdirSync(folder).find((f) => fs.readFileSync(path.join(folder, f), 'utf8').endsWith('\nz\n'))!)).size).toBeLessThanOrEqual(100);
    expect(new RenderedFiles(dir, 'code', { bytes: 1e9, measureFrom: 0 }).text(['e'], () => 'rendered again\n')).toBe('eeeeeeeeee\n');
    // Times set apart by seconds (a folder's own mtime has nanoseconds, a Date milliseconds: "now" could tie or order wrongly).
    fs.utimesSync(folder, new Date(1000), new Date(1000));
    ['c2', 'c3'].forEach((code, i) => {
      new RenderedFiles(dir, code).text(['a'], () => 'a\n');
      const at = new Date(Date.now() + 10_000 * (i + 1));
      fs.utimesSync(path.join(dir, code), at, at);
    });
    expect(fs.readdirSync(dir).sort()).toEqual(['c2', 'c3']);
  });

  test('a folder that cannot be written only costs time; MLP_SYNTH_CACHE=0 or no cache folder: no cache', () => {
    const file = path.join(tmp(), 'not-a-folder');
    fs.writeFileSync(file, '');
    const cache = new RenderedFiles(file, 'code');
    expect(cache.text(['a'], () => 'a\n')).toBe('a\n');
    expect(cache.text(['a'], () => 'a again\n')).toBe('a again\n');
    expect(RenderedFiles.fromEnvironment({ MLP_SYNTH_CACHE: '0', MLP_CACHE_DIR: tmp() })).toBeUndefined();
    expect(RenderedFiles.fromEnvironment({ MLP_CACHE_DIR: tmp() })).toBeInstanceOf(RenderedFiles);
    expect(RenderedFiles.fromEnvironment({}, '/')).toBeUndefined();
  });
});

describe('readText', () => {
  test('READ-TEXT: gives what readFileSync(file, \'utf8\') gives: ASCII (read as Latin-1), other UTF-8, bytes that are not UTF-8; a kept non-ASCII file reads back', () => {
    const dir = tmp();
    const cases: Array<[string, Buffer]> = [
      ['ascii', Buffer.from('kind: CustomResourceDefinition\n  description: "a \\"quoted\\" text"\n')],
      ['empty', Buffer.alloc(0)],
      ['utf8', Buffer.from('description: déjà vu – 日本語 😀\n')],
      ['latin1 bytes', Buffer.from([0x61, 0xe9, 0x62, 0x0a])],
      ['cut sequence', Buffer.from([0x61, 0xe2, 0x82])],
    ];
    for (const [name, bytes] of cases) {
      const file = path.join(dir, `${name}.yaml`);
      fs.writeFileSync(file, bytes);
      expect([name, readText(file)]).toEqual([name, fs.readFileSync(file, 'utf8')]);
    }
    const text = 'description: déjà vu – 😀\n';
    new RenderedFiles(dir, 'code').text(['u'], () => text);
    expect(new RenderedFiles(dir, 'code').text(['u'], () => 'never')).toBe(text);
  });
});
