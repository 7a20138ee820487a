import { readFacts } from './harness';
import { KNOWN_RELEASE_MISMATCHES, KnownReleaseMismatch } from './known-defects';
import { PARITY_TARGETS, ParityTarget } from './targets';
import { VersionEntry } from '../../lib/versions';
import VERSIONS from '../../versions.json';

/**
 * "One revision": a construct models the release its pinned image was built from, so each
 * component's `modelled` tag (versions.json) is the tag upstream's facts were taken at, and
 * every image the install also deploys is modelled at the install's tag.
 */

/** Where the release modelled is rightly not the facts' ref, and why. */
const RELEASE_EXCEPTIONS: Readonly<Record<string, { readonly modelled: string; readonly reason: string }>> = {
  'training-operator': {
    modelled: 'v1-5170a36',
    reason: 'the facts are of branch release-1.9 at commit 078ec30 (there is no 1.9 tag); the install pins the image built from that commit, v1-5170a36',
  },
  'models-as-a-service': {
    modelled: 'odh-stable',
    reason: 'upstream publishes no v0.2.1 image: the v0.2.1 install itself deploys maas-controller:odh-stable (its params.env), the tag Konflux builds from branch stable (.tekton/odh-maas-controller-push-stable.yaml)',
  },
  'mlflow-operator': {
    modelled: 'odh-stable',
    reason: 'upstream publishes no 1.1.0 image tag (its install pins a digest); the construct models the odh-stable build of main, which Konflux pushes on every push to main (.tekton/mlflow-operator-push.yaml), and its parity deviations name what main adds',
  },
  'dex': {
    modelled: 'v2.44.0',
    reason: 'the facts are of kubeflow/manifests v1.11.0 (common/dex), which pins Dex v2.44.0',
  },
  'oauth2-proxy': {
    modelled: 'v7.13.0',
    reason: 'the facts are of kubeflow/manifests v1.11.0 (common/oauth2-proxy), which pins oauth2-proxy v7.13.0',
  },
  'models-web-app': {
    modelled: '0.15.0',
    reason: 'the facts are of kubeflow/manifests v1.11.0 (applications/kserve/models-web-app), which vendors kserve/models-web-app v0.15.0\'s config with image tag 0.15.0',
  },
  'spark-operator': {
    modelled: '2.5.2',
    reason: 'v2.5.2\'s kustomize config still pins controller v2.5.0-rc.0; the release\'s Helm chart, the main install, deploys image tag 2.5.2 of the same tag',
  },
};

const entries = VERSIONS.images as readonly VersionEntry[];

/** Repository path without the registry, and tag (undefined for a digest). */
function parseImage(ref: string): { path: string; tag?: string } {
  if (ref.includes('@')) return { path: stripRegistry(ref.split('@')[0].replace(/:[^/:]+$/, '')) };
  const i = ref.lastIndexOf(':');
  return i > ref.lastIndexOf('/') ? { path: stripRegistry(ref.slice(0, i)), tag: ref.slice(i + 1) } : { path: stripRegistry(ref), tag: 'latest' };
}
function stripRegistry(repo: string): string {
  const p = repo.split('/');
  if (p.length > 1 && (p[0].includes('.') || p[0].includes(':'))) p.shift();
  return p.join('/');
}

interface Mismatch {
  readonly install: string;
  readonly component: string;
  readonly key: string;
  readonly modelled: string;
  readonly expected: string;
}

/** Every modelled tag that differs from the facts' release (exceptions applied). */
export function releaseMismatches(targets: readonly ParityTarget[]): Mismatch[] {
  const out: Mismatch[] = [];
  for (const t of targets) {
    const facts = readFacts(t.install);
    const target = t.release;
    if (typeof target === 'string') {
      // No image: nothing in versions.json to hold to the release; the install must run none either.
      if (facts.source.images.length) throw new Error(`parity target ${t.install} says it runs no image (${target}), but upstream's install runs ${facts.source.images.join(', ')}`);
      continue;
    }
    const release = entries.find((e) => e.component === target.component && e.key === target.key);
    if (!release) throw new Error(`versions.json has no entry ${target.component}/${target.key} (parity target ${t.install})`);
    const exception = RELEASE_EXCEPTIONS[t.install];
    const expected = exception ? exception.modelled : facts.source.tag;
    if (release.modelled !== expected) out.push({ install: t.install, component: release.component, key: release.key, modelled: release.modelled, expected });
    // Images the install deploys too, by repository path (registries are mirrored): modelled at the install's tag.
    for (const img of facts.source.images.map(parseImage)) {
      if (!img.tag) continue;
      for (const e of entries.filter((x) => (t.components.includes(x.component) || x.component === target.component) && x !== release)) {
        if (stripRegistry(e.repository) === img.path && e.modelled !== img.tag && !(exception && e.modelled === exception.modelled)) {
          out.push({ install: t.install, component: e.component, key: e.key, modelled: e.modelled, expected: img.tag });
        }
      }
    }
  }
  return out;
}

const same = (m: Mismatch, k: KnownReleaseMismatch) => m.install === k.install && m.component === k.component && m.key === k.key && m.modelled === k.modelled;

describe('one revision: versions.json modelled = the release of upstream\'s facts', () => {
  const mismatches = releaseMismatches(PARITY_TARGETS);

  test('every modelled release is the facts\' tag, a documented exception or a known mismatch', () => {
    const unexplained = mismatches.filter((m) => !KNOWN_RELEASE_MISMATCHES.some((k) => same(m, k)));
    expect(unexplained.map((m) => `${m.install}: versions.json ${m.component}/${m.key} modelled ${m.modelled}, upstream's facts are of ${m.expected}`)).toEqual([]);
  });

  test('no known release mismatch is stale (delete entries whose fix merged)', () => {
    const stale = KNOWN_RELEASE_MISMATCHES.filter((k) => !mismatches.some((m) => same(m, k)));
    expect(stale.map((k) => `${k.install}: ${k.component}/${k.key} ${k.modelled} (${k.defect})`)).toEqual([]);
  });

  test('every exception names a compared install and still applies', () => {
    for (const [install, e] of Object.entries(RELEASE_EXCEPTIONS)) {
      const t = PARITY_TARGETS.find((x) => x.install === install);
      expect(t).toBeDefined();
      const target = t!.release;
      if (typeof target === 'string') throw new Error(`${install}: an exception for a target without an image`);
      const release = entries.find((x) => x.component === target.component && x.key === target.key)!;
      // An exception whose ref now equals the modelled tag is not needed any more.
      expect(readFacts(install).source.tag).not.toEqual(e.modelled);
      expect(release.modelled).toEqual(e.modelled);
    }
  });

  test('fails when a modelled tag is not the facts\' release', () => {
    const kueue = PARITY_TARGETS.find((t) => t.install === 'kueue')!;
    // A target pointed at an image modelled at another release than kueue's facts.
    const wrong = releaseMismatches([{ ...kueue, release: { component: 'jobset', key: 'controller' } }]);
    expect(wrong).toEqual([{ install: 'kueue', component: 'jobset', key: 'controller', modelled: 'v0.12.0', expected: 'v0.19.2' }]);
  });
});
