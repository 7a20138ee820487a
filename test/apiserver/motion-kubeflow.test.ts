/**
 * The kubeflow platform in motion (see test/apiserver/motion-serving.test.ts for the cluster):
 * brought up with `mlplatform apply`'s code, less the components whose CRDs need a newer
 * Kubernetes than the test server's (JobSet and the Trainer, as they declare). cert-manager
 * is part of this platform: its webhook bootstraps its own CA, which its cainjector (played)
 * injects. The kubeflow namespace enforces Pod Security "restricted": every pod of the
 * platform passes the real admission plugin. Then tenancy: two more tenants (Profiles)
 * applied; each namespace gets the RBAC, NetworkPolicy and Pod Security labels our output
 * declares (the profile controller itself does not run here), the contributors' access is
 * what the API server's authorizer decides, and a pod that breaks the namespace's level is
 * rejected while a compliant one is admitted, scheduled and started.
 */
import bcrypt from 'bcryptjs';
import { App } from 'cdk8s';
import { ContributorRole } from '../../constructs/profile-controller';
import { DesiredPlatform, desiredFromModel, Manifest } from '../../lib/cluster/desired';
import { buildPlatform } from '../../lib/synth';
import { KubeflowPlatform } from '../../platforms';
import { describeWithCluster } from '../support/cluster';
import { bringUp, BringUpReport, checkBringUp, createExamples, eventually, installPrerequisites, provisionVolumes, reportText, restartEveryPod, tooNewComponents, withoutComponents } from '../support/motion';
import { CERT_MANAGER_EXAMPLES, KATIB_EXAMPLES, KSERVE_EXAMPLES } from '../support/motion-examples';
import { VolumeProvisioner } from '../support/volumes';
import { Json } from '../support/watch';

const report: string[] = [];
afterAll(() => { if (report.length) process.stdout.write(`motion-kubeflow: ${report.join('; ')}\n`); });

const TENANT_A = { name: 'tenant-a', owner: 'alice@example.com', contributors: [{ user: 'bob@example.com', role: ContributorRole.EDIT }] };
const TENANT_B = { name: 'tenant-b', owner: 'carol@example.com', contributors: [{ user: 'dave@example.com', role: ContributorRole.VIEW }] };

/** The default kubeflow platform (upstream's example tenant), or with more tenants. */
function kubeflow(tenants: Array<typeof TENANT_A> = []) {
  const platform = new KubeflowPlatform(new App({ outdir: '/nonexistent' }), 'kubeflow', { exampleTenant: true });
  for (const t of tenants) platform.profiles.addTenant(t);
  return buildPlatform(platform);
}

describeWithCluster('the kubeflow platform in motion: bring-up, webhooks called, restart, tenancy', (cluster) => {
  const build = kubeflow();
  let desired: DesiredPlatform;
  let volumes: VolumeProvisioner | undefined;
  beforeAll(() => { volumes = provisionVolumes(cluster()); });
  afterAll(() => volumes?.stop());

  test('mlplatform apply brings it up under Pod Security "restricted"; every webhook it registers is called for the custom resources it creates', async () => {
    const { agent, server, client } = cluster();
    const skipped = tooNewComponents(build.model, server.version);
    expect([...skipped].sort()).toEqual(['jobset', 'trainer']);
    desired = withoutComponents(desiredFromModel(build.model), skipped);
    await installPrerequisites(cluster(), build.model, desired);
    const since = { calls: agent.calls.length, started: agent.started.length };
    const up = await bringUp(cluster(), desired);
    const r: BringUpReport = await checkBringUp(cluster(), desired, up, since);
    // The central components' namespace enforces "restricted", and its pods were admitted under it.
    const ns = await client.get('v1', 'Namespace', undefined, 'kubeflow');
    expect(ns?.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
    expect((await client.list('v1', 'Pod', { namespace: 'kubeflow' })).length).toBeGreaterThan(10);
    // The claims of the databases and object store were bound by the persistentvolume binder.
    for (const pvc of desired.objects.filter((o) => o.json.kind === 'PersistentVolumeClaim')) {
      expect((await client.get('v1', 'PersistentVolumeClaim', pvc.json.metadata.namespace, pvc.json.metadata.name))?.status?.phase).toBe('Bound');
    }
    expect(volumes!.errors).toEqual([]);
    // The Secrets apply generated (Dex and oauth2-proxy could not have started without them): one client secret for both.
    const secret = async (n: string, name: string, key: string) => Buffer.from((await client.get('v1', 'Secret', n, name))!.data[key], 'base64').toString('utf8');
    expect(await secret('oauth2-proxy', 'oauth2-proxy', 'client-secret')).toBe(await secret('auth', 'dex-oidc-client', 'OIDC_CLIENT_SECRET'));
    expect(bcrypt.compareSync(await secret('auth', 'dex-initial-password', 'password'), await secret('auth', 'dex-passwords', 'DEX_USER_PASSWORD'))).toBe(true);
    expect(up.lines).toContain('  generated v1 Secret auth/dex-initial-password: the initial password of Dex\'s static user user@example.com (read it once and keep it elsewhere; Dex holds only its hash); '
      + 'read it with: kubectl -n auth get secret dex-initial-password -o jsonpath=\'{.data.password}\' | base64 -d');
    report.push(`bring-up: ${reportText(r)}`);
  }, 420_000);

  test('one example of each kind a webhook guards is admitted through the real webhooks (LLMInferenceService at a non-storage version: converted)', async () => {
    const { agent } = cluster();
    const conversions = agent.calls.filter((c) => c.kind === 'ConversionReview').length;
    const r = await createExamples(cluster(), desired, [...CERT_MANAGER_EXAMPLES, ...KATIB_EXAMPLES, ...KSERVE_EXAMPLES]);
    expect(r.unguarded).toEqual([]);
    expect(r.missed).toEqual([]);
    expect(agent.calls.filter((c) => c.kind === 'ConversionReview').length).toBeGreaterThan(conversions);
    report.push(`${CERT_MANAGER_EXAMPLES.length + KATIB_EXAMPLES.length + KSERVE_EXAMPLES.length} examples, ${r.calls} webhook calls`);
  }, 120_000);

  test('every controller pod deleted: the platform comes back by itself, and no webhook blocks its own backend', async () => {
    const r = await restartEveryPod(cluster(), desired);
    expect(r.deleted.length).toBeGreaterThan(20);
    // That a re-apply then changes nothing is checked by the next apply, the tenants' (below): every object but theirs unchanged.
    report.push(`all ${r.deleted.length} pods deleted: back in ${r.seconds.toFixed(1)} s`);
  }, 240_000);

  describe('tenancy: two more Profiles', () => {
    const tenants = withoutComponents(desiredFromModel(kubeflow([TENANT_A, TENANT_B]).model), new Set(['jobset', 'trainer']));
    const ofTenant = (name: string) => tenants.objects.filter((o) => o.json.metadata.namespace === name || (o.json.metadata.name === name && ['Namespace', 'Profile'].includes(o.json.kind)));

    beforeAll(async () => {
      const up = await bringUp(cluster(), tenants);
      // Only the two tenants' objects are new.
      const created = up.result.outcomes.filter((o) => o.action === 'created').map((o) => o.ref).sort();
      expect(created).toEqual([...ofTenant(TENANT_A.name), ...ofTenant(TENANT_B.name)].map((o) => `${o.json.apiVersion} ${o.json.kind} ${o.json.metadata.namespace ? `${o.json.metadata.namespace}/` : ''}${o.json.metadata.name}`).sort());
      // Every other object is the default platform's, the same JSON (checked here), applied again after every pod was deleted
      // and came back (the test before): a re-apply changes nothing.
      const before = new Map(desired.objects.map((o) => [`${o.json.apiVersion} ${o.json.kind} ${o.json.metadata.namespace ?? ''}/${o.json.metadata.name}`, JSON.stringify(o.json)]));
      const others = tenants.objects.filter((o) => !ofTenant(TENANT_A.name).includes(o) && !ofTenant(TENANT_B.name).includes(o));
      expect(others.filter((o) => before.get(`${o.json.apiVersion} ${o.json.kind} ${o.json.metadata.namespace ?? ''}/${o.json.metadata.name}`) !== JSON.stringify(o.json)).map((o) => o.json.metadata.name)).toEqual([]);
      expect(others.length).toBe(desired.objects.length);
      expect(up.result.outcomes.filter((o) => o.action !== 'created' && o.action !== 'unchanged').map((o) => `${o.action} ${o.ref}`)).toEqual([]);
      expect(up.result.outcomes.filter((o) => o.action === 'unchanged').length).toBe(others.length);
    }, 120_000);

    test('each namespace has the RBAC, NetworkPolicy and Pod Security labels our output declares; the authorizer gives contributors their access there only', async () => {
      const { client } = cluster();
      for (const t of [TENANT_A, TENANT_B]) {
        const declared = ofTenant(t.name);
        const ns = declared.find((o) => o.json.kind === 'Namespace')!.json;
        const live = await client.get('v1', 'Namespace', undefined, t.name);
        const podSecurity = (labels: Record<string, string>) => Object.fromEntries(Object.entries(labels ?? {}).filter(([k]) => k.startsWith('pod-security.kubernetes.io/')));
        expect(podSecurity(live!.metadata.labels)).toEqual(podSecurity(ns.metadata.labels));
        expect(podSecurity(live!.metadata.labels)['pod-security.kubernetes.io/enforce']).toBe('baseline');
        for (const kind of ['RoleBinding', 'NetworkPolicy']) {
          const want = declared.filter((o) => o.json.kind === kind);
          expect({ kind, count: want.length > 0 }).toEqual({ kind, count: true });
          for (const o of want) {
            const got = await client.get(o.json.apiVersion, kind, t.name, o.json.metadata.name);
            expect(got?.spec ?? got?.roleRef).toEqual(o.json.spec ?? o.json.roleRef);
          }
        }
      }
      // The contributors' roles aggregate the components' user rules (the clusterrole-aggregation controller's work).
      const edit = await client.get('rbac.authorization.k8s.io/v1', 'ClusterRole', undefined, 'kubeflow-edit');
      expect((edit?.rules ?? []).length).toBeGreaterThan(0);
      const may = async (user: string, namespace: string, verb: string, group: string, resource: string): Promise<boolean> => {
        const review = await client.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, resourceAttributes: { namespace, verb, group, resource } },
        });
        return review.status?.allowed === true;
      };
      const access = {
        bobCreatesNotebooksInA: await may('bob@example.com', TENANT_A.name, 'create', 'kubeflow.org', 'notebooks'),
        bobCreatesNotebooksInB: await may('bob@example.com', TENANT_B.name, 'create', 'kubeflow.org', 'notebooks'),
        daveListsNotebooksInB: await may('dave@example.com', TENANT_B.name, 'list', 'kubeflow.org', 'notebooks'),
        daveCreatesNotebooksInB: await may('dave@example.com', TENANT_B.name, 'create', 'kubeflow.org', 'notebooks'),
        daveListsNotebooksInA: await may('dave@example.com', TENANT_A.name, 'list', 'kubeflow.org', 'notebooks'),
      };
      expect(access).toEqual({ bobCreatesNotebooksInA: true, bobCreatesNotebooksInB: false, daveListsNotebooksInB: true, daveCreatesNotebooksInB: false, daveListsNotebooksInA: false });
    }, 60_000);

    test('a pod of tenant A that breaks Pod Security "baseline" is rejected by the API server; a compliant one is admitted through the tenant webhooks, scheduled and started', async () => {
      const { client, agent } = cluster();
      await eventually(`the default ServiceAccount of ${TENANT_A.name}`, () => client.get('v1', 'ServiceAccount', TENANT_A.name, 'default'), (sa) => !!sa);
      const pod = (name: string, extra: Json = {}): Manifest => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: TENANT_A.name },
        spec: { containers: [{ name: 'main', image: 'python:3.12', command: ['sleep', 'infinity'], resources: { requests: { cpu: '100m', memory: '128Mi' } }, ...extra.container }], ...extra.spec },
      });
      const rejected = await client.apply(pod('privileged', { container: { securityContext: { privileged: true } } }), { fieldManager: 'tenant-a' }).then(() => undefined, (e: Error) => e.message);
      expect(rejected).toMatch(/violates PodSecurity "baseline:latest": privileged \(container "main" must not set securityContext\.privileged=true\)/);
      const hostNetwork = await client.apply(pod('host-network', { spec: { hostNetwork: true } }), { fieldManager: 'tenant-a' }).then(() => undefined, (e: Error) => e.message);
      expect(hostNetwork).toMatch(/violates PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)/);
      expect(await client.get('v1', 'Pod', TENANT_A.name, 'privileged')).toBeUndefined();

      const from = agent.calls.length;
      await client.apply(pod('compliant'), { fieldManager: 'tenant-a' });
      const running = await eventually('the compliant pod scheduled and Running', () => client.get('v1', 'Pod', TENANT_A.name, 'compliant'), (p) => p?.status?.phase === 'Running', 60_000, (p) => JSON.stringify(p?.status));
      expect(['worker-1', 'worker-2', 'worker-3']).toContain(running!.spec.nodeName);
      // The webhooks that act on tenant namespaces' pods (PodDefaults, selected by the profile label) were called for it.
      const podCalls = agent.calls.slice(from).filter((c) => c.kind === 'AdmissionReview' && c.detail === 'CREATE /v1/pods');
      expect(podCalls.map((c) => c.pod.split('/')[0])).toContain('kubeflow');
      report.push(`tenancy: 2 Profiles, 2 PodSecurity rejections, a compliant pod through ${podCalls.length} pod webhooks`);
    }, 120_000);
  });
});
