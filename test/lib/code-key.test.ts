import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codeKeyOf } from '../../lib/cache';

/** A package root with lib/ and imports/ files, and where its code key is kept (a folder not made yet). */
function pkg() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-code-key-'));
  const root = path.join(dir, 'pkg');
  fs.mkdirSync(path.join(root, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(root, 'imports'), { recursive: true });
  fs.writeFileSync(path.join(root, 'lib', 'a.js'), 'exports.a = 1;\n');
  fs.writeFileSync(path.join(root, 'imports', 'b.json'), '{"b":2}\n');
  return { root, cache: path.join(dir, 'cache', '.code-key.json') };
}

describe('codeKeyOf (the code key, kept with the stamps of the files it hashed)', () => {
  test('CODE-KEY-MEMO: the key kept is the key hashed; unchanged files reuse the record, without reading them', () => {
    const { root, cache } = pkg();
    const hashed = codeKeyOf(root, undefined);
    expect(hashed).toMatch(/^[0-9a-f]{64}$/);
    expect(codeKeyOf(root, cache)).toBe(hashed);
    // The record is what answers: a key written into it is returned while the files stand as recorded.
    const file = cache;
    const fake = 'f'.repeat(64);
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), digest: fake }));
    expect(codeKeyOf(root, cache)).toBe(fake);
  });

  test('CODE-KEY-CHANGED: a file changed (same size, new mtime), added or removed hashes again', () => {
    const { root, cache } = pkg();
    const first = codeKeyOf(root, cache);
    const a = path.join(root, 'lib', 'a.js');
    // Same length, other content, another mtime.
    fs.writeFileSync(a, 'exports.a = 2;\n');
    fs.utimesSync(a, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    const second = codeKeyOf(root, cache);
    expect(second).not.toBe(first);
    expect(second).toBe(codeKeyOf(root, undefined));
    fs.writeFileSync(path.join(root, 'imports', 'c.json'), '{}\n');
    const third = codeKeyOf(root, cache);
    expect(third).not.toBe(second);
    expect(third).toBe(codeKeyOf(root, undefined));
    fs.rmSync(path.join(root, 'imports', 'c.json'));
    expect(codeKeyOf(root, cache)).toBe(second);
  });

  test('CODE-KEY-UNREADABLE: a record that does not parse or holds no key is hashed again and rewritten', () => {
    const { root, cache } = pkg();
    const key = codeKeyOf(root, cache);
    const file = cache;
    fs.writeFileSync(file, '{not json');
    expect(codeKeyOf(root, cache)).toBe(key);
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), digest: 'not a key' }));
    expect(codeKeyOf(root, cache)).toBe(key);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).digest).toBe(key);
  });
});
