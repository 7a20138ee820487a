import { newPlatform, TestComponent } from './support';
import { movingTag } from '../../lib/checks';
import { Controller } from '../../lib/controller';
import { buildPlatform } from '../../lib/synth';

// Day two 12: MLP052 accepted moving tags (odh-stable, mariadb-105:1, origin-kube-rbac-proxy:4.19).

test('tags that are not versions are moving; versions, commits, build dates and digests are not (day two 12)', () => {
  for (const ref of ['quay.io/opendatahub/mlflow:odh-stable', 'registry.redhat.io/rhel9/mariadb-105:1', 'quay.io/openshift/origin-kube-rbac-proxy:4.19', 'mysql:8.4', 'example.com/x:main']) {
    expect([ref, movingTag(ref)]).toEqual([ref, expect.stringMatching(/^tag '[^']+' is not a version/)]);
  }
  for (const ref of ['kserve/kserve-controller:v0.20.0', 'kserve/huggingfaceserver:v0.20.0-gpu', 'localhost:5000/x:1.2.3', 'example.com/x:sha-4f1c5a0', 'example.com/x:20240131',
    `quay.io/openshift/origin-kube-rbac-proxy:4.19@sha256:${'a'.repeat(64)}`]) {
    expect([ref, movingTag(ref)]).toEqual([ref, undefined]);
  }
});

test('a component image with a moving tag is a warning of MLP052, listed in REPORT.md with why and the fix; synth still succeeds (day two 12)', () => {
  const p = newPlatform();
  const c = new TestComponent(p, 'test', 'test-system', (t) => t.namespaceObject());
  (c.images as Record<string, unknown>).manager = { repository: 'example.com/manager', tag: 'odh-stable' };
  new Controller(c, 'Manager', { name: 'manager', image: c.image('manager'), selectorLabels: { app: 'm' } });
  const build = buildPlatform(p);
  const w = build.warnings.filter((f) => f.rule === 'MLP052');
  expect(w.map((f) => f.message)).toEqual([
    "image 'example.com/manager:odh-stable' is pinned by a moving tag (tag 'odh-stable' is not a version (major.minor.patch, a commit or a build date): the image behind it can change); " +
      'pin its digest (versions.json `digest`, or images.overrides) to deploy the same image every time',
  ]);
  expect(build.files.get('REPORT.md')).toContain("- [MLP052] p/test: image 'example.com/manager:odh-stable' is pinned by a moving tag");
});
