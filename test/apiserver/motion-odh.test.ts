/**
 * The model-serving and opendatahub platforms in motion, one after the other on one control
 * plane (see test/apiserver/motion-serving.test.ts for the cluster). They cannot coexist:
 * both install KServe's CRDs and webhook configurations (the same names, their backends in
 * other namespaces), as two installs of one operator on a cluster would. So model-serving is
 * brought up with `mlplatform apply`'s code, exercised (examples through the real webhooks,
 * every pod deleted and the platform back), then pruned away whole (`apply --prune
 * --prune-crds` of an empty output): every object goes, the garbage collector and the
 * namespace controller remove what hung from them. Then opendatahub comes up on the same
 * cluster, less the components whose CRDs need a newer Kubernetes (JobSet, the Trainer), with
 * Kueue run below its declared 1.29 on purpose (as in motion-training); OpenShift's service
 * CA is played, and the OpenShift and ODH-operator APIs it leaves to prerequisites get
 * stand-in CRDs.
 */
import { App } from 'cdk8s';
import { DesiredPlatform, desiredFromModel, describeRef } from '../../lib/cluster/desired';
import { buildPlatform } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { describeWithCluster } from '../support/cluster';
import { bringUp, checkBringUp, createExamples, eventuallyGone, installPrerequisites, reportText, restartEveryPod, tooNewComponents, WORKLOAD_KINDS, withoutComponents } from '../support/motion';
import { KSERVE_EXAMPLES, MAAS_EXAMPLES, MODEL_REGISTRY_EXAMPLES, TRAINING_EXAMPLES } from '../support/motion-examples';

const report: string[] = [];
afterAll(() => { if (report.length) process.stdout.write(`motion-odh: ${report.join('; ')}\n`); });

const built = (name: string) => buildPlatform(DEFAULT_PLATFORMS.find((p) => p.name === name)!.create(new App({ outdir: '/nonexistent' })));

describeWithCluster('model-serving, then opendatahub, in motion on one control plane', (cluster) => {
  describe('model-serving', () => {
    const build = built('model-serving');
    const desired = desiredFromModel(build.model);

    test('mlplatform apply brings it up; every webhook it registers is called for the custom resources it creates', async () => {
      const { agent } = cluster();
      await installPrerequisites(cluster(), build.model, desired);
      const since = { calls: agent.calls.length, started: agent.started.length };
      const up = await bringUp(cluster(), desired);
      report.push(`model-serving bring-up: ${reportText(await checkBringUp(cluster(), desired, up, since))}`);
    }, 360_000);

    test('one example of each kind a webhook guards is admitted through the real webhooks (ModelRegistry and LLMInferenceService at non-storage versions: converted)', async () => {
      const { agent } = cluster();
      const conversions = agent.calls.filter((c) => c.kind === 'ConversionReview').map((c) => c.pod.split('/')[0]);
      const examples = [...KSERVE_EXAMPLES, ...MODEL_REGISTRY_EXAMPLES, ...MAAS_EXAMPLES];
      const r = await createExamples(cluster(), desired, examples);
      expect(r.unguarded).toEqual([]);
      expect(r.missed).toEqual([]);
      expect(agent.calls.filter((c) => c.kind === 'ConversionReview').length).toBeGreaterThan(conversions.length);
      report.push(`model-serving: ${examples.length} examples, ${r.calls} webhook calls`);
    }, 120_000);

    test('every controller pod deleted: the platform comes back by itself; a re-apply changes nothing', async () => {
      const r = await restartEveryPod(cluster(), desired);
      const again = await bringUp(cluster(), desired);
      expect(again.result.outcomes.filter((o) => o.action !== 'unchanged').map((o) => `${o.action} ${o.ref}`)).toEqual([]);
      report.push(`model-serving: all ${r.deleted.length} pods deleted, back in ${r.seconds.toFixed(1)} s`);
    }, 480_000);

    test('pruned whole (an empty output, --prune --prune-crds): every object gone, with the pods, ReplicaSets and custom resources that hung from them', async () => {
      const { client } = cluster();
      const namespaces = [...new Set(desired.objects.filter((o) => WORKLOAD_KINDS.includes(o.json.kind)).map((o) => o.json.metadata.namespace as string))];
      const dependents = async () => {
        const out: string[] = [];
        for (const ns of namespaces) {
          for (const rs of await client.list('apps/v1', 'ReplicaSet', { namespace: ns })) out.push(`ReplicaSet ${ns}/${rs.metadata.name}`);
          for (const p of await client.list('v1', 'Pod', { namespace: ns })) out.push(`Pod ${ns}/${p.metadata.name}`);
        }
        return out;
      };
      expect((await dependents()).length).toBeGreaterThan(0);
      const t0 = Date.now();
      const empty: DesiredPlatform = { ...desired, objects: [], prerequisites: [], kubernetes: [] };
      const pruned = await bringUp(cluster(), empty, { prune: true, pruneCrds: true });
      expect(pruned.result.outcomes.filter((o) => o.action === 'pruned').map((o) => o.ref).sort()).toEqual(desired.objects.map((o) => describeRef(o.json)).sort());
      await eventuallyGone('every object of model-serving and its dependents gone', desired.objects,
        async (o) => !!(await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name).catch(() => undefined)), (o) => describeRef(o.json),
        dependents, 180_000, (left) => `${left.length} left: ${left.slice(0, 10).join(', ')}`);
      // The examples went with their CRDs.
      expect(await client.get('v1', 'Namespace', undefined, 'examples')).toBeDefined();
      report.push(`model-serving pruned whole (${desired.objects.length} objects) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }, 240_000);
  });

  describe('opendatahub', () => {
    const build = built('opendatahub');
    let desired: DesiredPlatform;

    test('mlplatform apply brings it up with OpenShift\'s service CA played; every webhook it registers is called for the custom resources it creates', async () => {
      const { agent, server } = cluster();
      const skipped = tooNewComponents(build.model, server.version);
      expect([...skipped].sort()).toEqual(['jobset', 'trainer']);
      const full = withoutComponents(desiredFromModel(build.model), skipped);
      // Kueue declares 1.29 (its release's support statement) but this 1.28 server takes its CRDs: run below that minimum on purpose.
      desired = { ...full, kubernetes: (full.kubernetes ?? []).filter((n) => n.component !== 'kueue') };
      await installPrerequisites(cluster(), build.model, desired);
      const since = { calls: agent.calls.length, started: agent.started.length };
      const up = await bringUp(cluster(), desired);
      report.push(`opendatahub bring-up: ${reportText(await checkBringUp(cluster(), desired, up, since))}`);
    }, 600_000);

    test('one example of each kind a webhook guards is admitted through the real webhooks (ModelRegistry, LLMInferenceService and ClusterQueue at non-storage versions: converted)', async () => {
      const { agent } = cluster();
      const conversions = agent.calls.filter((c) => c.kind === 'ConversionReview').length;
      // opendatahub serves no LocalModelCache (KServe's LocalModel agent is not part of it).
      const examples = [...KSERVE_EXAMPLES.filter((e) => e.kind !== 'LocalModelCache'), ...MODEL_REGISTRY_EXAMPLES, ...MAAS_EXAMPLES, ...TRAINING_EXAMPLES].map((e) => ({ ...e, metadata: { ...e.metadata, name: `odh-${e.metadata.name}` } }));
      const r = await createExamples(cluster(), desired, examples);
      expect(r.unguarded).toEqual([]);
      expect(r.missed).toEqual([]);
      expect(agent.calls.filter((c) => c.kind === 'ConversionReview').length).toBeGreaterThan(conversions);
      report.push(`opendatahub: ${examples.length} examples, ${r.calls} webhook calls`);
    }, 120_000);

    test('every controller pod deleted: the platform comes back by itself; a re-apply changes nothing', async () => {
      const r = await restartEveryPod(cluster(), desired);
      const again = await bringUp(cluster(), desired);
      expect(again.result.outcomes.filter((o) => o.action !== 'unchanged').map((o) => `${o.action} ${o.ref}`)).toEqual([]);
      report.push(`opendatahub: all ${r.deleted.length} pods deleted, back in ${r.seconds.toFixed(1)} s`);
    }, 480_000);
  });
});
