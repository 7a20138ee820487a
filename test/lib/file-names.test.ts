import { ApiObject } from 'cdk8s';
import { newPlatform, TestComponent } from './support';
import { buildPlatform } from '../../lib/synth';

// Day two 9: phase files were numbered by apply position (`10-controllers/03-c.yaml`), so
// turning one component off renamed every file after it. They are named by component; the
// order lives in the kustomizations and the sync waves.

function files(off: string[] = []): string[] {
  const p = newPlatform({ components: Object.fromEntries(off.map((id) => [id, false])) });
  for (const id of ['alpha', 'beta', 'gamma']) {
    new TestComponent(p, id, `${id}-system`, (c) => {
      c.namespaceObject();
      new ApiObject(c, 'Config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${id}-config`, namespace: `${id}-system` } });
    });
  }
  return [...buildPlatform(p).files.keys()];
}

test('phase files are named by component: turning one off renames no other file; kustomization order is apply order (day two 9)', () => {
  const all = files();
  expect(all.filter((f) => f.startsWith('10-controllers/'))).toEqual(['10-controllers/alpha.yaml', '10-controllers/beta.yaml', '10-controllers/gamma.yaml']);
  const withoutAlpha = files(['alpha']);
  expect(withoutAlpha).toEqual(all.filter((f) => !f.endsWith('/alpha.yaml')));
  expect(withoutAlpha).toContain('10-controllers/gamma.yaml');
});
