import { App } from 'cdk8s';
import { gitopsBuild, gitopsPlatform } from './fixture';
import { idOf, parseDocs } from './support';
import {
  argoCdApps, cmpApplication, cmpStream, CMP_NAME, configManagementPlugin, EXAMPLE_GITOPS_SETTINGS, fluxKustomizations,
  gitopsFiles, ignoredFields, phasePlan, resolveGitOpsSettings, splitPointers, SYNC_WAVE,
} from '../../../lib/gitops';
import { Phase } from '../../../lib/phases';
import { buildPlatform, PlatformBuild } from '../../../lib/synth';

// namePrefix '': the names these tests expect (the prefix derived from path has its own test, name-prefix.test.ts).
const settings = resolveGitOpsSettings('test', { repoURL: 'https://git.example.com/ml.git', targetRevision: 'main', path: 'clusters/prod', namePrefix: '' });
let build: PlatformBuild;
const PHASES_OF_FIXTURE = [Phase.FOUNDATION, Phase.INFRASTRUCTURE, Phase.INFRASTRUCTURE_WEBHOOKS, Phase.CONTROLLERS, Phase.WEBHOOKS, Phase.RESOURCES];

beforeAll(() => {
  build = gitopsBuild();
});

describe('phase plan', () => {
  test('one step per non-empty phase, each after the one before, with its Deployments and CRDs', () => {
    const plan = phasePlan(build);
    expect(plan.map((s) => [s.phase, s.wave, s.after])).toEqual(PHASES_OF_FIXTURE.map((p, i) => [p, i, PHASES_OF_FIXTURE[i - 1]]));
    expect(plan.flatMap((s) => s.objects)).toEqual(build.model.objects);
    expect(plan.find((s) => s.phase === Phase.INFRASTRUCTURE)!.deployments.map((d) => `${d.namespace}/${d.name}`))
      .toEqual(['cert-manager/cert-manager', 'cert-manager/cert-manager-cainjector', 'cert-manager/cert-manager-webhook']);
    expect(plan.filter((s) => s.hasCrds).map((s) => s.phase)).toEqual([Phase.FOUNDATION]);
  });
});

describe('run-time fields', () => {
  test('list wildcards become jq paths; plain pointers stay pointers', () => {
    expect(splitPointers(['/webhooks/*/clientConfig/caBundle', '/data', '/metadata/annotations/a~1b'])).toEqual({
      jsonPointers: ['/data', '/metadata/annotations/a~1b'],
      jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
    });
    expect(splitPointers(['/metadata/labels/app.kubernetes.io~1name/*'])).toEqual({ jsonPointers: [], jqPathExpressions: ['.metadata.labels["app.kubernetes.io/name"][]?'] });
  });

  test('covers declared run-time changes, CA injection and aggregated ClusterRoles, each on an emitted object of its phase', () => {
    const fields = ignoredFields(build.model);
    const byId = (kind: string, name: string) => fields.find((f) => f.kind === kind && f.name === name);
    // Kueue rotates its own certificate: its webhook configurations, its Secret, its CRDs' conversion.
    expect(byId('ValidatingWebhookConfiguration', 'kueue-validating-webhook-configuration')).toMatchObject({ phase: Phase.WEBHOOKS, jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] });
    expect(byId('Secret', 'kueue-webhook-server-cert')).toMatchObject({ namespace: 'kueue-system', phase: Phase.CONTROLLERS, jsonPointers: ['/data'] });
    expect(byId('CustomResourceDefinition', 'workloads.kueue.x-k8s.io')).toMatchObject({ phase: Phase.FOUNDATION, jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'] });
    // cert-manager's webhook: declared and annotated for the cainjector: one entry, not two.
    expect(fields.filter((f) => f.name === 'cert-manager-webhook' && f.kind === 'ValidatingWebhookConfiguration')).toHaveLength(1);
    expect(byId('ValidatingWebhookConfiguration', 'cert-manager-webhook')).toMatchObject({ phase: Phase.INFRASTRUCTURE_WEBHOOKS, jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] });
    // Aggregated ClusterRoles: the API server owns their rules.
    const aggregated = build.model.objects.filter((o) => o.json.kind === 'ClusterRole' && o.json.aggregationRule).map((o) => o.json.metadata.name);
    expect(aggregated.length).toBeGreaterThan(0);
    expect(fields.filter((f) => f.jsonPointers.includes('/rules')).map((f) => f.name)).toEqual(aggregated);
    const emitted = new Set(build.model.objects.map((o) => `${o.phase} ${idOf(o.json)}`));
    for (const f of fields) expect(emitted).toContain(`${f.phase} ${idOf({ kind: f.kind, metadata: f })}`);
  });
});

describe('Argo CD app of apps', () => {
  test('a root Application syncs one Application per phase, with the phase order as sync waves', () => {
    const { root, apps, files } = argoCdApps(build, settings);
    expect(root.metadata.name).toBe('gitops-test');
    expect(root.spec.source).toEqual({ repoURL: 'https://git.example.com/ml.git', targetRevision: 'main', path: 'clusters/prod/gitops-test/argocd/apps' });
    expect(apps.map((a) => [a.metadata.name, a.metadata.annotations[SYNC_WAVE], a.spec.source.path])).toEqual(
      PHASES_OF_FIXTURE.map((p, i) => [`gitops-test-${p}`, String(i), `clusters/prod/gitops-test/${p}`]));
    expect([...files.keys()]).toEqual(['argocd/root.yaml', ...PHASES_OF_FIXTURE.map((p) => `argocd/apps/${p}.yaml`)]);
    expect(parseDocs(files.get('argocd/apps/10-controllers.yaml')!)).toEqual([apps[3]]);
    // Every phase Application points at a folder that gitopsFiles makes a kustomize root.
    const all = gitopsFiles(build, settings);
    for (const p of PHASES_OF_FIXTURE) expect(all.has(`${p}/kustomization.yaml`)).toBe(true);
  });

  test('argocd-cm-health.yaml gives Applications a health (the status Argo CD computed), so the root waits wave by wave', () => {
    const files = gitopsFiles(build, settings);
    const [cm] = parseDocs(files.get('argocd/argocd-cm-health.yaml')!);
    expect([cm.kind, cm.metadata.name, cm.metadata.namespace]).toEqual(['ConfigMap', 'argocd-cm', settings.argocd.namespace]);
    expect(Object.keys(cm.data)).toEqual(['resource.customizations.health.argoproj.io_Application']);
    const lua: string = cm.data['resource.customizations.health.argoproj.io_Application'];
    expect(lua).toMatch(/^local hs = \{ status = "Progressing", message = "" \}\n/);
    expect(lua).toContain('hs.status = obj.status.health.status');
    expect(lua.trimEnd().endsWith('return hs')).toBe(true);
    // A fleet's clusters share one Argo CD: the file is not repeated per cluster.
    expect(gitopsFiles(build, settings, { namePrefix: 'east-' }).has('argocd/argocd-cm-health.yaml')).toBe(false);
  });

  test('ServerSideApply only on the phase that holds CRDs too large for client-side apply', () => {
    expect(argoCdApps(build, settings).apps.filter((a) => a.spec.syncPolicy.syncOptions.includes('ServerSideApply=true'))).toEqual([]);
    const large = argoCdApps({ ...build, largeCrds: ['jobsets.jobset.x-k8s.io'] }, settings).apps;
    expect(large.filter((a) => a.spec.syncPolicy.syncOptions.includes('ServerSideApply=true')).map((a) => a.metadata.name)).toEqual(['gitops-test-00-foundation']);
  });

  test('ignoreDifferences in the Application of each object\'s phase, respected by syncs', () => {
    const { apps } = argoCdApps(build, settings);
    const fields = ignoredFields(build.model);
    for (const [i, app] of apps.entries()) {
      const mine = fields.filter((f) => f.phase === PHASES_OF_FIXTURE[i]);
      expect((app.spec.ignoreDifferences ?? []).map((d: any) => `${d.kind} ${d.name}`)).toEqual(mine.map((f) => `${f.kind} ${f.name}`));
      expect(app.spec.syncPolicy.syncOptions).toContain('RespectIgnoreDifferences=true');
    }
    const controllers = apps[3].spec.ignoreDifferences;
    expect(controllers).toContainEqual({ group: '', kind: 'Secret', name: 'kueue-webhook-server-cert', namespace: 'kueue-system', jsonPointers: ['/data'] });
    expect(controllers).toContainEqual({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kueue-batch-admin-role', jsonPointers: ['/rules'] });
  });

  test('output is byte-identical across builds', () => {
    const again = gitopsFiles(buildPlatform(gitopsPlatform()), settings);
    expect([...again.entries()]).toEqual([...gitopsFiles(build, settings).entries()]);
  });
});

describe('Flux', () => {
  test('a Kustomization per phase, each depending on the one before, from the GitRepository setting', () => {
    const { kustomizations, files } = fluxKustomizations(build, resolveGitOpsSettings('test', { ...EXAMPLE_GITOPS_SETTINGS, flux: { sourceName: 'platform-repo', interval: '5m' } }));
    expect(kustomizations.map((k) => [k.metadata.name, k.spec.path, k.spec.dependsOn])).toEqual(PHASES_OF_FIXTURE.map((p, i) => [
      `gitops-test-${p}`, `./dist/gitops-test/${p}`, i ? [{ name: `gitops-test-${PHASES_OF_FIXTURE[i - 1]}` }] : undefined,
    ]));
    for (const k of kustomizations) expect(k.spec).toMatchObject({ interval: '5m', prune: true, sourceRef: { kind: 'GitRepository', name: 'platform-repo' } });
    expect(parseDocs(files.get('flux/kustomizations.yaml')!)).toEqual(kustomizations);
  });

  test('waits for the CRD phase and health-checks each phase\'s Deployments', () => {
    const { kustomizations } = fluxKustomizations(build, settings);
    expect(kustomizations.map((k) => k.spec.wait)).toEqual([true, undefined, undefined, undefined, undefined, undefined]);
    expect(kustomizations[0].spec.healthChecks).toBeUndefined();
    expect(kustomizations[1].spec.healthChecks.map((h: any) => h.name)).toEqual(['cert-manager', 'cert-manager-cainjector', 'cert-manager-webhook']);
    const deployments = build.model.objects.filter((o) => o.phase === Phase.CONTROLLERS && o.json.kind === 'Deployment').map((o) => o.json.metadata.name);
    expect(deployments).toEqual(expect.arrayContaining(['jobset-controller-manager', 'kueue-controller-manager']));
    expect(kustomizations[3].spec.healthChecks).toEqual(deployments.map((name) => expect.objectContaining({ apiVersion: 'apps/v1', kind: 'Deployment', name })));
    expect(kustomizations[4].spec.healthChecks).toBeUndefined(); // webhooks: nothing to wait for
  });

  test('leaves aggregated ClusterRoles\' rules to the API server', () => {
    const { kustomizations } = fluxKustomizations(build, settings);
    const patches = kustomizations[3].spec.patches;
    expect(patches.map((p: any) => p.target.name)).toEqual(ignoredFields(build.model).filter((f) => f.kind === 'ClusterRole').map((f) => f.name));
    expect(parseDocs(patches[0].patch)).toEqual([[{ op: 'remove', path: '/rules' }]]);
  });
});

describe('config management plugin', () => {
  test('the plugin generates by running the synth for the Application\'s PLATFORM', () => {
    const cm = configManagementPlugin('argo');
    const plugin = parseDocs(cm.data['plugin.yaml'])[0];
    // Discovered by the script it runs, so it applies only to a clone of this repository (a consumer project has neither file).
    expect(plugin).toMatchObject({ kind: 'ConfigManagementPlugin', metadata: { name: CMP_NAME }, spec: { discover: { fileName: './scripts/cmp-generate.ts' } } });
    expect(plugin.spec.generate.command.join(' ')).toContain('scripts/cmp-generate.ts "$ARGOCD_ENV_PLATFORM"');
    expect(cm.metadata.namespace).toBe('argo');
  });

  test('the stream holds every object in apply order with its phase\'s sync wave', () => {
    const docs = parseDocs(cmpStream(build));
    expect(docs.map(idOf)).toEqual(build.model.objects.map((o) => idOf(o.json)));
    const waves = new Map(phasePlan(build).map((s) => [s.phase, String(s.wave)]));
    expect(docs.map((d) => d.metadata.annotations[SYNC_WAVE])).toEqual(build.model.objects.map((o) => waves.get(o.phase)));
    const large = parseDocs(cmpStream({ ...build, largeCrds: ['jobsets.jobset.x-k8s.io'] }));
    const options = (d: any) => d.metadata.annotations['argocd.argoproj.io/sync-options'];
    expect(large.filter((d) => options(d)?.includes('ServerSideApply=true')).map((d) => d.metadata.name)).toEqual(['jobsets.jobset.x-k8s.io']);
    expect(options(large.find((d) => d.metadata.name === 'jobsets.jobset.x-k8s.io'))).toBe('ServerSideApply=true,Prune=false,Delete=false');
    // CRDs and Namespaces are never pruned nor deleted with the Application; nothing else is protected.
    expect(large.filter((d) => options(d)?.includes('Prune=false,Delete=false')).map(idOf))
      .toEqual(large.filter((d) => ['CustomResourceDefinition', 'Namespace'].includes(d.kind)).map(idOf));
  });

  test('its Application names the plugin and PLATFORM, and ignores the run-time fields', () => {
    const app = cmpApplication(build, settings);
    // Not the root Application's name (argocd/root.yaml): both live in Argo CD's namespace.
    expect(app.metadata.name).toBe('gitops-test-cmp');
    expect(argoCdApps(build, settings).root.metadata.name).toBe('gitops-test');
    expect(app.spec.source.plugin).toEqual({ name: CMP_NAME, env: [{ name: 'PLATFORM', value: 'gitops-test' }] });
    expect(app.spec.ignoreDifferences).toHaveLength(ignoredFields(build.model).length);
  });
});

describe('settings', () => {
  test('defaults', () => {
    expect(resolveGitOpsSettings('x', EXAMPLE_GITOPS_SETTINGS)).toEqual({
      repoURL: 'https://git.example.com/platform.git',
      targetRevision: 'HEAD',
      path: 'dist',
      namePrefix: '',
      formats: { argocd: true, flux: true, helm: false, configManagementPlugin: false },
      argocd: { flavor: 'argocd', namespace: 'argocd', instance: 'openshift-gitops', project: 'default', server: 'https://kubernetes.default.svc' },
      flux: { namespace: 'flux-system', sourceName: 'flux-system', interval: '10m', timeout: '10m' },
      helm: { chartVersion: '0.1.0' },
    });
  });

  test('fails when repoURL is missing, naming the setting and the fix', () => {
    expect(() => resolveGitOpsSettings('app/fleet', { repoURL: '' })).toThrow(
      'app/fleet: GitOps settings: repoURL "" must be the URL of the git repository that holds the output (e.g. https://git.example.com/platform.git)');
  });

  test('fails on a path outside the repository, a bad interval and a non-SemVer chart version, all at once', () => {
    expect(() => resolveGitOpsSettings('x', { repoURL: 'https://g/r.git', path: '../up', flux: { interval: 'ten' }, helm: { chartVersion: 'v1' } })).toThrow(
      'x: GitOps settings: path "../up" must be a relative folder inside the repository without \'..\' (e.g. \'dist\' or \'clusters/prod\'; \'.\' for its root); ' +
      'flux.interval "ten" must be a Go duration (e.g. \'10m\', \'1h30m\'); helm.chartVersion "v1" must be a SemVer version (e.g. \'0.1.0\'); Helm rejects anything else');
  });
});

test('an app without GitOps settings can still use the example', () => {
  expect(() => gitopsFiles(buildPlatform(gitopsPlatform(new App({ outdir: '/x' }), 'other')), resolveGitOpsSettings('x', EXAMPLE_GITOPS_SETTINGS))).not.toThrow();
});
