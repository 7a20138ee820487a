/**
 * The model-serving and opendatahub platforms in motion, one after the other on one control
 * plane (see test/apiserver/motion-serving.test.ts for the cluster). They cannot coexist:
 * both install KServe's CRDs and webhook configurations (the same names, their backends in
 * other namespaces), as two installs of one operator on a cluster would. So model-serving is
 * brought up with `mlplatform apply`'s code and exercised (examples through the real
 * webhooks, every pod deleted and the platform back); then opendatahub comes up on the same
 * cluster taking over (`--adopt all`) the objects the two share (the KServe CRDs among them,
 * so the large CRDs are created once, and the webhook configurations, pointed at
 * opendatahub's backends), less the components whose CRDs need a newer Kubernetes (JobSet,
 * the Trainer), with Kueue run below its declared 1.29 on purpose (as in motion-training);
 * OpenShift's service CA is played, and the OpenShift and ODH-operator APIs it leaves to
 * prerequisites get stand-in CRDs. What opendatahub did not take over of model-serving is
 * then pruned (`apply --prune --prune-crds` of model-serving's empty output): every such
 * object goes, the garbage collector and the namespace controller remove what hung from
 * them. Last, the opendatahub platform built from DataScienceClusters (the ODH operator's
 * first-install DSC and DSCI, README's all-components DSC) is checked against this cluster as
 * a server-side dry run, and `mlplatform synth --dsc`'s output through `mlplatform apply
 * --dir --dry-run=server`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { run } from '../../cli/main';
import { applySetParent } from '../../lib/cluster/applyset';
import { DesiredPlatform, desiredFromDir, desiredFromModel, describeRef } from '../../lib/cluster/desired';
import { buildPlatform } from '../../lib/synth';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';
import { readDataScienceClusterFile } from '../../platforms/opendatahub-dsc';
import { describeWithCluster } from '../support/cluster';
import { bringUp, checkBringUp, createExamples, eventuallyGone, installPrerequisites, reportText, restartEveryPod, tooNewComponents, WORKLOAD_KINDS, withoutComponents } from '../support/motion';
import { KSERVE_EXAMPLES, MAAS_EXAMPLES, MODEL_REGISTRY_EXAMPLES, TRAINING_EXAMPLES } from '../support/motion-examples';
import { expectPlatformDryRunOnApiServer } from '../support/platform-on-apiserver';

const report: string[] = [];
afterAll(() => { if (report.length) process.stdout.write(`motion-odh: ${report.join('; ')}\n`); });

const built = (name: string) => buildPlatform(DEFAULT_PLATFORMS.find((p) => p.name === name)!.create(new App({ outdir: '/nonexistent' })));

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'odh');
const fixture = (name: string): any => readDataScienceClusterFile(path.join(FIXTURES, name));
/** The DSC components the project does not provide, Managed in the operator's examples. */
const UNSUPPORTED = ['dashboard', 'trustyai', 'feastoperator'];

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

describeWithCluster('model-serving, then opendatahub taking over what the two share, in motion on one control plane', (cluster) => {
  const modelServing = built('model-serving');
  const msDesired = desiredFromModel(modelServing.model);
  const msRefs = new Set(msDesired.objects.map((o) => describeRef(o.json)));
  const odh = built('opendatahub');
  let desired: DesiredPlatform;
  /** What opendatahub takes over of model-serving: the objects of both (the same kind, namespace and name). */
  let takenOver: Set<string>;

  describe('model-serving', () => {
    test('mlplatform apply brings it up; every webhook it registers is called for the custom resources it creates', async () => {
      const { agent } = cluster();
      await installPrerequisites(cluster(), modelServing.model, msDesired);
      const since = { calls: agent.calls.length, started: agent.started.length };
      const up = await bringUp(cluster(), msDesired);
      report.push(`model-serving bring-up: ${reportText(await checkBringUp(cluster(), msDesired, up, since))}`);
    }, 360_000);

    test('one example of each kind a webhook guards is admitted through the real webhooks (ModelRegistry and LLMInferenceService at non-storage versions: converted)', async () => {
      const { agent } = cluster();
      const conversions = agent.calls.filter((c) => c.kind === 'ConversionReview').map((c) => c.pod.split('/')[0]);
      const examples = [...KSERVE_EXAMPLES, ...MODEL_REGISTRY_EXAMPLES, ...MAAS_EXAMPLES];
      const r = await createExamples(cluster(), msDesired, examples);
      expect(r.unguarded).toEqual([]);
      expect(r.missed).toEqual([]);
      expect(agent.calls.filter((c) => c.kind === 'ConversionReview').length).toBeGreaterThan(conversions.length);
      report.push(`model-serving: ${examples.length} examples, ${r.calls} webhook calls`);
    }, 120_000);

    test('every controller pod deleted: the platform comes back by itself; a re-apply changes nothing', async () => {
      const r = await restartEveryPod(cluster(), msDesired);
      const again = await bringUp(cluster(), msDesired);
      expect(again.result.outcomes.filter((o) => o.action !== 'unchanged').map((o) => `${o.action} ${o.ref}`)).toEqual([]);
      report.push(`model-serving: all ${r.deleted.length} pods deleted, back in ${r.seconds.toFixed(1)} s`);
    }, 480_000);
  });

  describe('opendatahub, over model-serving', () => {
    test('mlplatform apply --adopt all brings it up with OpenShift\'s service CA played, taking over what model-serving shares with it and creating the rest; every webhook it registers is called for the custom resources it applies', async () => {
      const { agent, server } = cluster();
      const skipped = tooNewComponents(odh.model, server.version);
      expect([...skipped].sort()).toEqual(['jobset', 'trainer']);
      const full = withoutComponents(desiredFromModel(odh.model), skipped);
      // Kueue declares 1.29 (its release's support statement) but this 1.28 server takes its CRDs: run below that minimum on purpose.
      desired = { ...full, kubernetes: (full.kubernetes ?? []).filter((n) => n.component !== 'kueue') };
      takenOver = new Set(desired.objects.map((o) => describeRef(o.json)).filter((ref) => msRefs.has(ref)));
      // KServe's large CRDs among them: created once, by model-serving's bring-up.
      for (const crd of ['inferenceservices', 'llminferenceservices', 'llminferenceserviceconfigs']) expect(takenOver).toContain(`apiextensions.k8s.io/v1 CustomResourceDefinition ${crd}.serving.kserve.io`);
      await installPrerequisites(cluster(), odh.model, desired);
      const since = { calls: agent.calls.length, started: agent.started.length };
      const up = await bringUp(cluster(), desired, { adopt: ['all'] });
      report.push(`opendatahub bring-up (${takenOver.size} objects taken over from model-serving): ${reportText(await checkBringUp(cluster(), desired, up, since, takenOver))}`);
    }, 600_000);

    test('model-serving\'s remainder pruned (its empty output, --prune --prune-crds): every object opendatahub did not take over gone, with the pods, ReplicaSets and custom resources that hung from them; what opendatahub took stays', async () => {
      const { client } = cluster();
      const remainder = msDesired.objects.filter((o) => !takenOver.has(describeRef(o.json)));
      const namespaces = [...new Set(remainder.filter((o) => WORKLOAD_KINDS.includes(o.json.kind)).map((o) => o.json.metadata.namespace as string))];
      // The pruned workloads' namespaces are model-serving's alone: every ReplicaSet and pod in them hangs from a pruned object.
      expect(namespaces.filter((ns) => desired.objects.some((o) => o.json.metadata.namespace === ns))).toEqual([]);
      const dependents = async () => {
        const out: string[] = [];
        for (const ns of namespaces) {
          for (const rs of await client.list('apps/v1', 'ReplicaSet', { namespace: ns })) out.push(`ReplicaSet ${ns}/${rs.metadata.name}`);
          for (const p of await client.list('v1', 'Pod', { namespace: ns })) out.push(`Pod ${ns}/${p.metadata.name}`);
        }
        return out;
      };
      expect((await dependents()).length).toBeGreaterThan(0);
      // A custom resource that hangs from a pruned CRD: the LocalModelCache example (opendatahub has no LocalModel CRDs).
      const localModelCache = KSERVE_EXAMPLES.find((e) => e.kind === 'LocalModelCache')!;
      expect(remainder.some((o) => o.json.kind === 'CustomResourceDefinition' && o.json.spec.names.kind === 'LocalModelCache')).toBe(true);
      expect(await client.get(localModelCache.apiVersion, localModelCache.kind, localModelCache.metadata.namespace, localModelCache.metadata.name)).toBeDefined();
      const t0 = Date.now();
      const empty: DesiredPlatform = { ...msDesired, objects: [], prerequisites: [], kubernetes: [] };
      const pruned = await bringUp(cluster(), empty, { prune: true, pruneCrds: true });
      expect(pruned.result.outcomes.filter((o) => o.action === 'pruned').map((o) => o.ref).sort()).toEqual(remainder.map((o) => describeRef(o.json)).sort());
      expect(pruned.result.outcomes.filter((o) => o.action !== 'pruned').map((o) => `${o.action} ${o.ref}`)).toEqual([]);
      const exists = async (o: { json: { apiVersion: string; kind: string; metadata: { namespace?: string; name: string } } }) =>
        !!(await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name, { metadataOnly: true }).catch(() => undefined));
      await eventuallyGone('every object of model-serving opendatahub did not take over, and its dependents, gone', remainder, exists, (o) => describeRef(o.json),
        dependents, 180_000, (left) => `${left.length} left: ${left.slice(0, 10).join(', ')}`);
      // The examples namespace stays; its LocalModelCache went with its CRD.
      expect(await client.get('v1', 'Namespace', undefined, 'examples')).toBeDefined();
      // What opendatahub took over is still there.
      const kept: string[] = [];
      for (const o of desired.objects.filter((x) => takenOver.has(describeRef(x.json)))) if (!(await exists(o))) kept.push(describeRef(o.json));
      expect(kept).toEqual([]);
      report.push(`model-serving's remainder pruned (${remainder.length} objects) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }, 240_000);

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

  // Formerly platform-opendatahub-dsc.test.ts, on a server of its own where each DSC platform's objects were applied for real.
  // Here the CRDs are those opendatahub's bring-up applied for real (the same JSON, checked), and the rest is a dry run.
  describe('the opendatahub platform from a DataScienceCluster, against this cluster with opendatahub up (server-side dry runs)', () => {
    const appliedCrds = () => desired.objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.json);

    test('the operator\'s first-install DSC and DSCI: every object accepted, or rejected as its component\'s minimum Kubernetes explains', async () => {
      const platform = OpenDataHubPlatform.fromDataScienceCluster(new App({ outdir: '/nonexistent' }), 'opendatahub',
        fixture('dsc-v2-operator-default.yaml'), fixture('dsci-v2-operator-default.yaml'), { skipUnsupported: UNSUPPORTED });
      const { build, explained } = await expectPlatformDryRunOnApiServer(cluster().server, platform, appliedCrds());
      // The DSC's Trainer (with JobSet) is what the 1.28 server cannot take.
      expect(new Set(explained.map((l) => /-- explained: (\S+) needs/.exec(l)![1]))).toEqual(new Set(['jobset', 'trainer']));
      expect(build.model.objects.some((o) => o.component.componentName === 'notebook-controller')).toBe(true);
    }, 300_000);

    test('README\'s all-components DSC (dashboard, trustyai, feastoperator skipped): every object accepted, or explained', async () => {
      const platform = OpenDataHubPlatform.fromDataScienceCluster(new App({ outdir: '/nonexistent' }), 'opendatahub',
        fixture('dsc-v2-readme-all-components.yaml'), fixture('dsci-v2-sample.yaml'), { skipUnsupported: UNSUPPORTED });
      const { build } = await expectPlatformDryRunOnApiServer(cluster().server, platform, appliedCrds());
      for (const c of ['training-operator', 'mlflow-operator', 'spark-operator']) expect(build.model.objects.some((o) => o.component.componentName === c)).toBe(true);
    }, 300_000);

    test('mlplatform synth --dsc writes what mlplatform apply --dir takes: a server-side dry run of it over the live opendatahub succeeds and stores nothing', async () => {
      const { client, server } = cluster();
      const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-dsc-apply-'));
      fs.mkdirSync(path.join(repo, '.git'));
      try {
        // The operator's default DSC less the Trainer, whose CRDs (and JobSet's) this 1.28 server rejects (above).
        const dsc = fixture('dsc-v2-operator-default.yaml');
        dsc.spec.components.trainer = { managementState: 'Removed' };
        fs.writeFileSync(path.join(repo, 'dsc.yaml'), YAML.stringify(dsc));
        const synth = await cli(['synth', '--dsc', 'dsc.yaml', '--dsci', path.join(FIXTURES, 'dsci-v2-operator-default.yaml'),
          '--skip-unsupported', UNSUPPORTED.join(','), '--out', 'dist', '--formats', 'none'], repo);
        expect(synth.stderr).toBe('');
        expect(synth.code).toBe(0);
        const out = path.join(repo, 'dist', 'opendatahub');
        const files = fs.readdirSync(out, { recursive: true, encoding: 'utf8' });
        expect(files.some((f) => f.startsWith('00-foundation/'))).toBe(true);
        // The same platform name as the live one: its ApplySet, whose members the run checks against the live objects.
        const fromDir = desiredFromDir(out, repo);
        const absent: string[] = [];
        for (const o of fromDir.objects) {
          if (!(await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name, { metadataOnly: true }))) absent.push(describeRef(o.json));
        }
        // A Namespace opendatahub has not (odh-model-registries) and few more: most of the output is on the server.
        expect(absent.length).toBeGreaterThan(0);
        expect(absent.length).toBeLessThan(fromDir.objects.length / 10);
        const parent = applySetParent('opendatahub');
        const parentBefore = await client.get('v1', 'Secret', parent.namespace, parent.name);
        expect(parentBefore).toBeDefined();
        const r = await cli(['apply', '--dir', out, '--kubeconfig', server.kubeconfigPath, '--dry-run=server'], repo);
        expect(r.stderr).not.toContain('failed');
        // Every object not on the server was checked as a new one; every other against the live one.
        const counts = /dry run \(server\): (\d+) created, (\d+) configured, (\d+) unchanged, 0 pruned/.exec(r.stderr);
        expect(counts).not.toBeNull();
        const [created, configured, unchanged] = counts!.slice(1).map(Number);
        expect(created).toBe(absent.length);
        expect(configured + unchanged).toBe(fromDir.objects.length - absent.length);
        expect(r.stdout).toBe('opendatahub: applied\n');
        expect(r.code).toBe(0);
        // Nothing stored: the ApplySet parent as it was, no object the output adds.
        expect((await client.get('v1', 'Secret', parent.namespace, parent.name))?.metadata.resourceVersion).toBe(parentBefore!.metadata.resourceVersion);
        const stored: string[] = [];
        for (const o of fromDir.objects.filter((x) => absent.includes(describeRef(x.json)))) {
          if (await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name)) stored.push(describeRef(o.json));
        }
        expect(stored).toEqual([]);
      } finally {
        fs.rmSync(repo, { recursive: true, force: true });
      }
    }, 300_000);
  });
});
