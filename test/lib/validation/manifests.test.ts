import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as yaml from 'yaml';
import { readManifest } from '../../../lib/validation/manifests';

// Counts the parses (the real parser runs).
jest.mock('yaml', () => {
  const actual = jest.requireActual('yaml');
  return { ...actual, parseAllDocuments: jest.fn(actual.parseAllDocuments) };
});

describe('readManifest', () => {
  test('reads YAML 1.1 as kubectl does: timestamps stay the strings written, on/yes are booleans', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-manifest-')), 'm.yaml');
    fs.writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nstatus:\n  since: 1970-01-01T00:00:00Z\n  day: 2001-12-14\n  on: yes\n');
    const [doc] = readManifest(file, 'm.yaml');
    expect(doc.object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, status: { since: '1970-01-01T00:00:00Z', day: '2001-12-14', true: true } });
  });

  test('a file read again with the same text is parsed once: each read gets its own copy; changed text or a parse error is read afresh', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-manifest-'));
    const a = path.join(dir, 'a.yaml');
    const b = path.join(dir, 'b.yaml');
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';
    fs.writeFileSync(a, text);
    fs.writeFileSync(b, text);
    const parses = yaml.parseAllDocuments as jest.Mock;
    parses.mockClear();
    const first = readManifest(a, 'a.yaml');
    const second = readManifest(b, 'sub/b.yaml');
    expect(second).toEqual([{ ...first[0], file: 'sub/b.yaml' }]);
    expect(parses).toHaveBeenCalledTimes(1);
    // Changing what one read returned changes no other read.
    (first[0].object as any).data.k = 'changed';
    expect((readManifest(a, 'a.yaml')[0].object as any).data.k).toBe('v');
    expect((second[0].object as any).data.k).toBe('v');
    fs.writeFileSync(a, text.replace('k: v', 'k: w'));
    expect((readManifest(a, 'a.yaml')[0].object as any).data.k).toBe('w');
    expect(parses).toHaveBeenCalledTimes(2);
    fs.writeFileSync(a, 'a: [\n');
    expect(() => readManifest(a, 'a.yaml')).toThrow(/^a\.yaml: document 0: /);
    expect(() => readManifest(a, 'again.yaml')).toThrow(/^again\.yaml: document 0: /);
    expect(parses).toHaveBeenCalledTimes(4);
  });
});
