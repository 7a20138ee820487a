import { App } from 'cdk8s';
import { JobSet } from '../../constructs/jobset';
import { CertificateProvider } from '../../lib/certificates';
import { compareKubernetesVersions, DEFAULT_KUBERNETES_VERSION, kubernetesRangeText, normalizeKubernetesVersion, OLDEST_KUBERNETES_VERSION, parseKubernetesVersion } from '../../lib/kubernetes-version';
import { Platform, PlatformError } from '../../lib/platform';
import { buildPlatform } from '../../lib/synth';
import { crdCelIssues } from '../../lib/validation/cel-crd';
import { DEFAULT_PLATFORMS, TrainingPlatform } from '../../platforms';

describe('Kubernetes versions', () => {
  test('versions parse as MAJOR.MINOR (a v prefix and a patch are accepted) and compare numerically', () => {
    expect(parseKubernetesVersion('v1.30.2')).toEqual([1, 30]);
    expect(parseKubernetesVersion('1.9')).toEqual([1, 9]);
    expect(parseKubernetesVersion('latest')).toBeUndefined();
    expect(normalizeKubernetesVersion('v1.31.0', 'x')).toBe('1.31');
    expect(() => normalizeKubernetesVersion('1', 'p: kubernetesVersion')).toThrow("p: kubernetesVersion: '1' is not a Kubernetes version: write MAJOR.MINOR, e.g. '1.30'");
    expect(compareKubernetesVersions('1.9', '1.28')).toBeLessThan(0);
    expect(compareKubernetesVersions('1.32', '1.32')).toBe(0);
    expect(kubernetesRangeText({ min: '1.29', max: '1.33', feature: 'f', source: 's', basis: 'release-documentation' })).toBe('1.29 - 1.33');
  });

  test('a platform targets 1.32 unless it says otherwise; bad or too old versions fail naming the prop and the fix', () => {
    expect(DEFAULT_KUBERNETES_VERSION).toBe('1.32');
    expect(new Platform(new App(), 'p', { name: 'p' }).kubernetesVersion).toBe('1.32');
    expect(new Platform(new App(), 'p', { name: 'p', kubernetesVersion: 'v1.30.4' }).kubernetesVersion).toBe('1.30');
    expect(() => new Platform(new App(), 'p', { name: 'p', kubernetesVersion: '1.x' })).toThrow("p: kubernetesVersion: '1.x' is not a Kubernetes version: write MAJOR.MINOR, e.g. '1.30'");
    expect(() => new Platform(new App(), 'p', { name: 'p', kubernetesVersion: '1.27' }))
      .toThrow("p: kubernetesVersion '1.27' is older than 1.28, the oldest Kubernetes this project models: target 1.28 or newer");
  });

  test('fails when a platform targets 1.28 and a component needs newer: the message names the component, its minimum and the feature', () => {
    const p = new Platform(new App(), 'p', { name: 'p', kubernetesVersion: '1.28', certificates: CertificateProvider.selfManaged() });
    new JobSet(p, 'jobset');
    let error: PlatformError | undefined;
    try {
      buildPlatform(p);
    } catch (e) {
      error = e as PlatformError;
    }
    expect(error?.problems).toEqual([
      "[MLP070] p/jobset: component jobset (JobSet) needs Kubernetes 1.32 or newer for CEL access to a field named with a reserved word (templates' metadata.namespace) in the JobSet CRD "
        + "(jobsets.jobset.x-k8s.io v0.12.0 (volumeClaimPolicies rule); kubernetes/kubernetes#126188), but the platform's kubernetesVersion is 1.28: "
        + "set kubernetesVersion to '1.32' or newer, or turn the component off (components: { 'jobset': false })",
    ]);
  });

  test('the training platform at 1.28 names each component that needs newer (JobSet, Trainer, Kueue) and nothing else', () => {
    const p = new TrainingPlatform(new App(), 'training', { kubernetesVersion: '1.28' });
    let problems: string[] = [];
    try {
      buildPlatform(p);
    } catch (e) {
      problems = (e as PlatformError).problems;
    }
    expect(problems.map((x) => x.split(' needs ')[0]).sort()).toEqual([
      '[MLP070] training/jobset: component jobset (JobSet)',
      '[MLP070] training/kueue: component kueue (Kueue)',
      '[MLP070] training/trainer: component trainer (Trainer)',
    ]);
    expect(problems).toHaveLength(3);
    expect(problems.find((x) => x.includes('(Kueue)'))).toContain('needs Kubernetes 1.29 or newer for the Kubernetes its release supports (the installation guide asks for 1.29 or newer)');
  });

  test('each declared minimum is what the component\'s CRDs need: they compile at it, and (when their rules set it) not one minor earlier', () => {
    const below = (v: string) => `${v.split('.')[0]}.${Number(v.split('.')[1]) - 1}`;
    const seen = new Set<string>();
    for (const d of DEFAULT_PLATFORMS) {
      const { model } = buildPlatform(d.create(new App({ outdir: '/nonexistent' })));
      expect(compareKubernetesVersions(model.platform.kubernetesVersion, OLDEST_KUBERNETES_VERSION)).toBeGreaterThanOrEqual(0);
      for (const c of model.components) {
        if (seen.has(c.constructor.name)) continue;
        seen.add(c.constructor.name);
        const crds = model.objects.filter((o) => o.component === c && o.json.kind === 'CustomResourceDefinition').map((o) => o.json);
        expect([c.componentName, crds.flatMap((crd) => crdCelIssues(crd, c.kubernetes.min))]).toEqual([c.componentName, []]);
        if (c.kubernetes.basis === 'crd-rules' && compareKubernetesVersions(c.kubernetes.min, OLDEST_KUBERNETES_VERSION) > 0) {
          expect([c.componentName, crds.some((crd) => crdCelIssues(crd, below(c.kubernetes.min)).length > 0)]).toEqual([c.componentName, true]);
        }
      }
    }
    expect([...seen].filter((name) => ['JobSet', 'Trainer', 'Kueue'].includes(name)).sort()).toEqual(['JobSet', 'Kueue', 'Trainer']);
  }, 300_000);
});
