import { App } from 'cdk8s';
import { imageSettingsProblems, resolveImage, splitRegistry } from '../../lib/images';
import { Platform } from '../../lib/platform';
import { VersionsTable } from '../../lib/versions';

const DIGEST = 'sha256:' + 'a'.repeat(64);

describe('resolveImage', () => {
  test('a repository with a tag becomes repository:tag', () => {
    expect(resolveImage('kserve/controller', { repository: 'kserve/kserve-controller', tag: 'v0.15.0' })).toBe('kserve/kserve-controller:v0.15.0');
  });

  test('a digest wins over the tag', () => {
    expect(resolveImage('kserve/controller', { repository: 'kserve/kserve-controller', tag: 'v0.15.0', digest: DIGEST })).toBe(`kserve/kserve-controller@${DIGEST}`);
    expect(resolveImage('kserve/controller', { repository: 'kserve/kserve-controller', digest: DIGEST })).toBe(`kserve/kserve-controller@${DIGEST}`);
  });

  test('a registry mirror replaces the Docker Hub registry, keeping the path', () => {
    const settings = { registryMirror: 'mirror.example.com/ml' };
    expect(resolveImage('k', { repository: 'kserve/kserve-controller', tag: 'v1' }, settings)).toBe('mirror.example.com/ml/kserve/kserve-controller:v1');
  });

  test('a Docker Hub short name becomes library/<name> under the mirror', () => {
    expect(resolveImage('k', { repository: 'busybox', tag: '1.36' }, { registryMirror: 'mirror.example.com' })).toBe('mirror.example.com/library/busybox:1.36');
  });

  test('a quay.io host is replaced by the mirror', () => {
    expect(resolveImage('k', { repository: 'quay.io/brancz/kube-rbac-proxy', tag: 'v0.18.0' }, { registryMirror: 'mirror.example.com/ml/' })).toBe(
      'mirror.example.com/ml/brancz/kube-rbac-proxy:v0.18.0',
    );
  });

  test('a registry with a port or localhost is recognized as a host', () => {
    expect(splitRegistry('localhost/foo/bar')).toEqual({ registry: 'localhost', path: 'foo/bar' });
    expect(splitRegistry('registry:5000/foo')).toEqual({ registry: 'registry:5000', path: 'foo' });
    expect(splitRegistry('ghcr.io/org/name')).toEqual({ registry: 'ghcr.io', path: 'org/name' });
    expect(splitRegistry('org/name')).toEqual({ path: 'org/name' });
    expect(splitRegistry('name')).toEqual({ path: 'library/name' });
    expect(resolveImage('k', { repository: 'registry:5000/team/app', digest: DIGEST }, { registryMirror: 'm.example.com' })).toBe(`m.example.com/team/app@${DIGEST}`);
  });

  test('a short name without a mirror is left as it is', () => {
    expect(resolveImage('k', { repository: 'busybox', tag: '1.36' })).toBe('busybox:1.36');
  });

  test('an override by key replaces the tag, the repository or adds a digest', () => {
    const spec = { repository: 'kserve/kserve-controller', tag: 'v0.15.0' };
    const overrides = {
      'kserve/controller': { tag: 'v0.15.1' },
      'kserve/agent': { repository: 'internal.example.com/kserve/agent' },
      'kserve/router': { digest: DIGEST },
    };
    expect(resolveImage('kserve/controller', spec, { overrides })).toBe('kserve/kserve-controller:v0.15.1');
    expect(resolveImage('kserve/agent', spec, { overrides })).toBe('internal.example.com/kserve/agent:v0.15.0');
    expect(resolveImage('kserve/router', spec, { overrides })).toBe(`kserve/kserve-controller@${DIGEST}`);
    expect(resolveImage('kserve/other', spec, { overrides })).toBe('kserve/kserve-controller:v0.15.0');
  });

  test('an override of the tag replaces a digest pinned in the versions table', () => {
    const spec = { repository: 'org/x', tag: 'v1', digest: DIGEST };
    expect(resolveImage('c/x', spec)).toBe(`org/x@${DIGEST}`);
    expect(resolveImage('c/x', spec, { overrides: { 'c/x': { tag: 'v2' } } })).toBe('org/x:v2');
    const other = 'sha256:' + 'b'.repeat(64);
    expect(resolveImage('c/x', spec, { overrides: { 'c/x': { tag: 'v2', digest: other } } })).toBe(`org/x@${other}`);
    expect(resolveImage('c/x', spec, { overrides: { 'c/x': { repository: 'mirror.example.com/org/x' } } })).toBe(`mirror.example.com/org/x@${DIGEST}`);
  });

  test('overrides apply before the mirror', () => {
    expect(
      resolveImage('c/x', { repository: 'quay.io/org/x', tag: 'v1' }, { registryMirror: 'mirror.example.com', overrides: { 'c/x': { tag: 'v2' } } }),
    ).toBe('mirror.example.com/org/x:v2');
  });

  test('fails when the tag is latest', () => {
    expect(() => resolveImage('kserve/controller', { repository: 'kserve/kserve-controller', tag: 'latest' })).toThrow(
      "image 'kserve/controller': tag 'latest' is not allowed; pin a release tag (not 'latest') matching ^[\\w][\\w.-]{0,127}$",
    );
  });

  test('fails when an override sets the tag to latest', () => {
    expect(() => resolveImage('c/x', { repository: 'org/x', tag: 'v1' }, { overrides: { 'c/x': { tag: 'latest' } } })).toThrow(
      "image 'c/x': tag 'latest' is not allowed",
    );
  });

  test('fails when the tag is malformed', () => {
    expect(() => resolveImage('c/x', { repository: 'org/x', tag: '-v1' })).toThrow("image 'c/x': tag '-v1' is not allowed; pin a release tag (not 'latest')");
  });

  test('fails when there is neither tag nor digest', () => {
    expect(() => resolveImage('c/x', { repository: 'org/x' })).toThrow("image 'c/x': no tag or digest for org/x; pin a release tag or a sha256 digest");
  });

  test('fails when the digest is malformed', () => {
    expect(() => resolveImage('c/x', { repository: 'org/x', digest: 'sha256:abc' })).toThrow(
      "image 'c/x': digest 'sha256:abc' must look like sha256:<64 hex characters>",
    );
    expect(() => resolveImage('c/x', { repository: 'org/x', digest: 'md5:' + 'a'.repeat(64) })).toThrow(/^image 'c\/x': digest 'md5:a+' must look like sha256:<64 hex characters>$/);
  });

  test('fails when the repository contains a tag', () => {
    expect(() => resolveImage('c/x', { repository: 'org/x:v1', tag: 'v1' })).toThrow(
      "image 'c/x': repository 'org/x:v1' must be a repository without tag or digest (e.g. quay.io/org/name); put the tag in 'tag'",
    );
  });

  test('fails when the repository contains a digest', () => {
    expect(() => resolveImage('c/x', { repository: `org/x@${DIGEST}` })).toThrow(
      `image 'c/x': repository 'org/x@${DIGEST}' must be a repository without tag or digest (e.g. quay.io/org/name); put the tag in 'tag'`,
    );
  });

  test('fails when the repository is empty', () => {
    expect(() => resolveImage('c/x', { repository: '', tag: 'v1' })).toThrow("image 'c/x': repository '' must be a repository without tag or digest");
  });
});

describe('the OCI reference grammar (issue 17.2)', () => {
  test('a mirror with a scheme, upper case, a space or no registry host is rejected, naming the grammar', () => {
    for (const mirror of ['https://registry.example.com/mirror/', 'Registry.Example.com:5000/My Mirror', 'registry.example.com/My-Mirror', 'mirror/ml', 'registry.example.com//ml']) {
      expect(() => resolveImage('kueue/controller', { repository: 'kueue/kueue', tag: 'v0.19.2' }, { registryMirror: mirror }))
        .toThrow(/OCI distribution reference grammar/);
      expect(imageSettingsProblems({ registryMirror: mirror })).toEqual([expect.stringMatching(new RegExp(`^images\\.registryMirror '${mirror.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}' must .*OCI distribution reference grammar`))]);
    }
    for (const mirror of ['registry.example.com:5000/ml', 'localhost:5000', 'localhost/ml', 'mirror.example.com/ml/', '[::1]:5000/a_b/c--d']) {
      expect(imageSettingsProblems({ registryMirror: mirror })).toEqual([]);
    }
  });

  test('overridden repositories, tags and digests are checked against it, each naming the key', () => {
    expect(imageSettingsProblems({
      overrides: {
        'kserve/controller': { repository: 'quay.io/Org/Name' },
        'kserve/agent': { tag: '-bad' },
        'kserve/router': { digest: 'sha256:ABC' },
        'kserve/ok': { repository: 'internal.example.com:5000/kserve/agent', tag: 'v1.2_3', digest: 'sha512:' + 'f'.repeat(128) },
      },
    })).toEqual([
      expect.stringMatching(/^images\.overrides\['kserve\/controller'\]\.repository 'quay\.io\/Org\/Name' must be .*OCI distribution reference grammar/),
      expect.stringMatching(/^images\.overrides\['kserve\/agent'\]\.tag '-bad' must be .*OCI distribution reference grammar/),
      expect.stringMatching(/^images\.overrides\['kserve\/router'\]\.digest 'sha256:ABC' must be .*OCI distribution reference grammar/),
    ]);
    expect(() => resolveImage('k', { repository: 'quay.io/UPPER/name', tag: 'v1' })).toThrow("image 'k': repository 'quay.io/UPPER/name' must be [host[:port]/]path-component");
  });

  test('a Platform rejects a bad mirror at construction, naming its path, the value and the grammar', () => {
    const app = new App();
    expect(() => new Platform(app, 'p', { name: 'p', images: { registryMirror: 'https://registry.example.com/mirror/' } })).toThrow(
      /^p: invalid image settings of platform 'p':\nimages\.registryMirror 'https:\/\/registry\.example\.com\/mirror\/' must be host\[:port\]\[\/path-component\]\.\.\. \(the OCI distribution reference grammar/);
  });

  test('every image in versions.json follows the grammar', () => {
    for (const e of VersionsTable.DEFAULT.file.images) {
      expect([e.component, e.key, imageSettingsProblems({ overrides: { x: { repository: e.repository, tag: e.tag, digest: e.digest } } })]).toEqual([e.component, e.key, []]);
    }
  });
});
