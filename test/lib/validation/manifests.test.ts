import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readManifest } from '../../../lib/validation/manifests';

describe('readManifest', () => {
  test('reads YAML 1.1 as kubectl does: timestamps stay the strings written, on/yes are booleans', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-manifest-')), 'm.yaml');
    fs.writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nstatus:\n  since: 1970-01-01T00:00:00Z\n  day: 2001-12-14\n  on: yes\n');
    const [doc] = readManifest(file, 'm.yaml');
    expect(doc.object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, status: { since: '1970-01-01T00:00:00Z', day: '2001-12-14', true: true } });
  });
});
