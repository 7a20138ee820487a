import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { Kueue } from '../../constructs/kueue';
import { CERT_MANAGER } from '../../lib/component';
import { Platform } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';
import { TrainingPlatform } from '../../platforms/training';

// Issue 17.6: tenant namespaces outside Profiles, declared through a public, typed API.

function kueueIn(props: ConstructorParameters<typeof Platform>[2] | Partial<ConstructorParameters<typeof Platform>[2]> = {}) {
  const p = new Platform(new App({ outdir: '/nonexistent' }), 'p', { name: 'p', prerequisites: [CERT_MANAGER], ...props });
  const kueue = new Kueue(p, 'kueue');
  kueue.addResourceFlavor('default-flavor');
  kueue.addClusterQueue('cq', { spec: { namespaceSelector: {}, resourceGroups: [{ coveredResources: ['cpu'], flavors: [{ name: 'default-flavor', resources: [{ name: 'cpu', nominalQuota: 9 }] }] }] } });
  kueue.addLocalQueue('team-a-queue', { namespace: 'team-a', clusterQueue: 'cq' });
  kueue.addLocalQueue('default-queue', { namespace: 'default', clusterQueue: 'cq' });
  return p;
}

const namespaceDocs = (p: Platform) => parseAllDocuments(buildPlatform(p).files.get('00-foundation/00-namespaces.yaml')!).map((d) => d.toJSON());

test('without a declaration, a LocalQueue in team-a fails MLP011', () => {
  expect(() => buildPlatform(kueueIn())).toThrow(/\[MLP011\].*LocalQueue team-a-queue is in namespace 'team-a'/);
});

test('addNamespace (or createNamespaces) makes the platform create the namespace, first, with its labels', () => {
  const p = kueueIn();
  p.addNamespace('team-a', { 'kueue.x-k8s.io/tenant': 'a' });
  expect(namespaceDocs(p)).toContainEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'kueue.x-k8s.io/tenant': 'a' } } });
  const q = kueueIn({ createNamespaces: ['team-a', { name: 'team-b', labels: { x: 'y' } }] });
  expect(namespaceDocs(q).map((n) => n.metadata.name)).toEqual(expect.arrayContaining(['team-a', 'team-b']));
  // Works on a default platform too.
  const training = new TrainingPlatform(new App({ outdir: '/nonexistent' }), 'training');
  training.addNamespace('team-a');
  expect(namespaceDocs(training).map((n) => n.metadata.name)).toContain('team-a');
});

test('existing namespaces are merged with default and kube-system, by prop or addExistingNamespace', () => {
  const p = kueueIn({ existingNamespaces: ['team-a'] });
  // 'default' still exists although the prop lists only team-a.
  expect(p.existingNamespaces).toEqual(['default', 'kube-system', 'team-a']);
  expect(() => buildPlatform(p)).not.toThrow();
  const q = kueueIn();
  q.addExistingNamespace('team-a');
  expect(() => buildPlatform(q)).not.toThrow();
  expect(namespaceDocs(q).map((n) => n.metadata.name)).not.toContain('team-a');
});

test('bad names and clashing labels fail naming the path, the prop and the value', () => {
  const p = kueueIn();
  expect(() => p.addNamespace('Team A')).toThrow("p: addNamespace: namespace 'Team A' is not a valid namespace name; use a lower-case DNS label of at most 63 characters (e.g. 'team-a')");
  expect(() => kueueIn({ existingNamespaces: ['team_a'] })).toThrow("p: existingNamespaces: namespace 'team_a' is not a valid namespace name");
  p.addNamespace('team-a', { tier: 'gold' });
  expect(() => p.addNamespace('team-a', { tier: 'silver' })).toThrow("p: addNamespace: namespace 'team-a' is declared twice with label tier=gold and tier=silver; declare it once");
});
