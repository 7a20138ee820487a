/**
 * Every default platform is applied to a real API server, each in a file of its own
 * (platform-<name>.test.ts, the test in test/support/platform-on-apiserver.ts) so that jest
 * can run them side by side; this checks that none lacks its file. The serving platform is
 * applied by cluster-serving.test.ts (`mlplatform apply` on an empty server, every object
 * stored, webhook configurations included, and its CRD rules compiled for the server's
 * version): a second fresh apply of the same objects would prove nothing more.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import { DEFAULT_PLATFORMS } from '../../platforms';

test('every default platform has its API-server test file', () => {
  const fileOf = (name: string) => (name === 'serving' ? 'cluster-serving.test.ts' : `platform-${name}.test.ts`);
  const missing = DEFAULT_PLATFORMS.map((p) => fileOf(p.name)).filter((f) => !existsSync(join(__dirname, f)));
  expect(missing).toEqual([]);
});
