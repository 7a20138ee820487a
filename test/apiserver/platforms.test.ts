/**
 * Every default platform is applied to a real API server, each in a file of its own
 * (platform-<name>.test.ts, the test in test/support/platform-on-apiserver.ts) so that jest
 * can run them side by side; this checks that none lacks its file.
 */
import { existsSync } from 'fs';
import { join } from 'path';
import { DEFAULT_PLATFORMS } from '../../platforms';

test('every default platform has its API-server test file', () => {
  const missing = DEFAULT_PLATFORMS.map((p) => `platform-${p.name}.test.ts`).filter((f) => !existsSync(join(__dirname, f)));
  expect(missing).toEqual([]);
});
