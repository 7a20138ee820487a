import { KubeConfig } from '@kubernetes/client-node';
import { ObjectWatch, olderVersion } from './watch';

// test/support/watch.ts: the players read Secrets from their watch; what they wrote themselves
// is kept until the watch brings a newer version.
describe("the players' watch cache", () => {
  test('olderVersion compares etcd revisions as numbers; anything else is not known to be older', () => {
    expect(olderVersion('9', '10')).toBe(true);
    expect(olderVersion('10', '9')).toBe(false);
    expect(olderVersion('10', '10')).toBe(false);
    expect(olderVersion('123', '124')).toBe(true);
    expect(olderVersion(undefined, '1')).toBe(false);
    expect(olderVersion('1', undefined)).toBe(false);
    expect(olderVersion('a', 'b')).toBe(false);
  });

  test('remember keeps the newer version: an older one does not replace it, a newer one does', () => {
    const w = new ObjectWatch(new KubeConfig(), '/api/v1/secrets', () => undefined);
    const secret = (rv: string, v: string) => ({ metadata: { namespace: 'ns', name: 's', resourceVersion: rv }, data: { v } });
    w.remember(secret('10', 'ten'));
    expect(w.items.get('ns/s')?.data.v).toBe('ten');
    w.remember(secret('9', 'nine'));
    expect(w.items.get('ns/s')?.data.v).toBe('ten');
    w.remember(secret('11', 'eleven'));
    expect(w.items.get('ns/s')?.data.v).toBe('eleven');
    w.stop();
  });
});
