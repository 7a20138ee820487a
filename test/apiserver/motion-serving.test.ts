/**
 * The serving platform in motion: `mlplatform apply` (the CLI, lib/cluster/apply.ts) on a
 * cluster whose control plane is real (test/support/cluster.ts: kube-apiserver with webhook
 * and ServiceAccount admission, kube-controller-manager, kube-scheduler; a node agent for
 * three workers and a GPU node; cert-manager played from a test CA). First it fails, naming
 * the missing prerequisite, and changes nothing; then it applies from empty in phase order,
 * waiting for what each phase needs, and `mlplatform diff` finds nothing. Nothing writes a
 * status for the test: Deployments become Available and Services get endpoints because the
 * controllers computed it, and every admission and conversion webhook of the platform is
 * really called (stand-ins answer where the pods run). This is also the serving platform's
 * test on a real API server (every object stored; formerly cluster-serving.test.ts, on a
 * server of its own with the controllers played).
 */
import * as fs from 'fs';
import * as os from 'os';
import { dirname, join } from 'path';
import { App } from 'cdk8s';
import { run } from '../../cli/main';
import { applySetId, applySetParent, APPLYSET_GROUP_KINDS, APPLYSET_PART_OF, APPLYSET_TOOLING } from '../../lib/cluster/applyset';
import { DesiredPlatform, desiredFromDir, desiredFromModel, Manifest } from '../../lib/cluster/desired';
import { waitEndpoints } from '../../lib/cluster/waits';
import { PHASES } from '../../lib/phases';
import { buildPlatform, writeFiles } from '../../lib/synth';
import { compileCelRules } from '../../lib/validation';
import { ServingPlatform } from '../../platforms';
import { describeWithCluster } from '../support/cluster';
import { bringUp, eventually, installPrerequisites, statusManagers, webhookPathsFor, workloads, workloadUp } from '../support/motion';
import { KSERVE_EXAMPLES } from '../support/motion-examples';
import { Json } from '../support/watch';

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd: os.tmpdir() });
  return { code, stdout, stderr };
}

const NS = 'kserve';
const WORKERS = ['worker-1', 'worker-2', 'worker-3'];

/** One custom resource of each kind a KServe webhook guards that the platform does not create itself. */
const EXAMPLES = KSERVE_EXAMPLES;

const report: string[] = [];
afterAll(() => { if (report.length) process.stdout.write(`motion-serving: ${report.join('; ')}\n`); });

describeWithCluster('the serving platform in motion: a real control plane, webhooks really called', (cluster) => {
  const build = buildPlatform(new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving'));
  const desired = desiredFromModel(build.model);
  const objects = build.model.objects;
  const webhookConfigs = desired.objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind)).map((o) => o.json);
  const live = (o: Manifest) => cluster().client.get(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name);

  test('mlplatform apply fails before changing anything when a prerequisite is missing, and names it', async () => {
    const { client, server } = cluster();
    const r = await cli(['apply', '--platform', 'serving', '--kubeconfig', server.kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/prerequisite cert-manager is missing: the server does not serve cert-manager\.io\/v1 (Certificate|Issuer)/);
    expect(r.stderr).toContain('nothing was changed');
    const ns = objects.find((o) => o.json.kind === 'Namespace')!.json.metadata.name;
    expect(await client.get('v1', 'Namespace', undefined, ns)).toBeUndefined();
    expect(await client.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).toEqual([]);
  }, 120_000);

  test('mlplatform apply brings it up from empty in phase order, waiting for what each phase needs: workloads up and endpoints published as the controllers computed them, webhooks called through their Services; diff then finds nothing', async () => {
    const { client, agent, ca, server } = cluster();
    // cert-manager's APIs, as if installed (the cluster plays cert-manager itself).
    await installPrerequisites(cluster(), build.model, desired);

    const t0 = Date.now();
    const first = await cli(['apply', '--platform', 'serving', '--kubeconfig', server.kubeconfigPath, '--timeout', '240s']);
    const seconds = (Date.now() - t0) / 1000;
    if (first.code !== 0) throw new Error(`mlplatform apply failed (${first.code}):\n${first.stderr.split('\n').slice(-40).join('\n')}\n--- test cluster errors ---\n${cluster().errors().join('\n')}`);
    expect(first.stderr).not.toContain('failed');
    expect(first.stdout).toBe('serving: applied\n');
    expect(first.stderr).toContain(`${objects.length} created, 0 configured, 0 unchanged, 0 pruned`);
    const log = first.stderr;
    // Phase order: each phase's header comes in PHASES order, and no phase starts before the one before it was ready.
    const headers = log.split('\n').filter((l) => /^\d\d-[a-z-]+: \d+ objects$/.test(l)).map((l) => l.split(':')[0]);
    expect(headers).toEqual(PHASES.filter((p) => objects.some((o) => o.phase === p)));
    expect(log.indexOf('20-webhooks:')).toBeGreaterThan(log.indexOf('10-controllers:'));
    // Every webhook configuration went in only after apply saw its Service with a ready endpoint: in the log, the
    // Service's wait comes before the first line that reports objects of the webhooks' phase applied.
    expect(webhookConfigs.length).toBeGreaterThan(0);
    const webhookPhase = log.indexOf('20-webhooks:');
    const webhooksApplied = webhookPhase + log.slice(webhookPhase).search(/\n  [a-z0-9-]+: \d+ created/);
    expect(webhooksApplied).toBeGreaterThan(webhookPhase);
    for (const w of webhookConfigs) {
      for (const hook of w.webhooks) {
        const svc = `${hook.clientConfig.service.namespace}/${hook.clientConfig.service.name}`;
        const ready = log.indexOf(`  v1 Service ${svc}: a ready endpoint`);
        expect({ svc, readyBeforeWebhooks: ready >= 0 && ready < webhooksApplied }).toEqual({ svc, readyBeforeWebhooks: true });
      }
    }
    // apply waited for each workload (see the log).
    const deployments = objects.filter((o) => ['Deployment', 'DaemonSet', 'StatefulSet'].includes(o.json.kind));
    for (const d of deployments) expect(log).toMatch(new RegExp(`^  apps/v1 ${d.json.kind} ${d.json.metadata.namespace}/${d.json.metadata.name}: (Available|rolled out)`, 'm'));

    // Workloads: up, with their status written by kube-controller-manager (no one else).
    const ws = await workloads(cluster(), desired);
    expect(ws.filter((w) => !workloadUp(w)).map((w) => `${w.kind} ${w.metadata.name}`)).toEqual([]);
    for (const w of ws) expect({ w: w.metadata.name, managers: statusManagers(w) }).toEqual({ w: w.metadata.name, managers: ['kube-controller-manager'] });
    // The node agent's DaemonSet: on the three workers, not on the tainted GPU node.
    const ds = ws.find((w) => w.kind === 'DaemonSet')!;
    expect(ds.status.desiredNumberScheduled).toBe(3);
    // Pods: scheduled by the scheduler onto workers, Running, each with an IP of its own.
    const pods = await client.list('v1', 'Pod', { namespace: NS });
    expect(pods.length).toBeGreaterThanOrEqual(6);
    for (const p of pods) {
      expect(WORKERS).toContain(p.spec.nodeName);
      expect(p.status.phase).toBe('Running');
      // The ServiceAccount admission plugin mounted a token.
      expect((p.spec.volumes ?? []).some((v: Json) => String(v.name).startsWith('kube-api-access-'))).toBe(true);
    }
    expect(new Set(pods.map((p) => p.status.podIP)).size).toBe(pods.length);

    // Each webhook Service has an endpoint the endpointslice controller published, at a pod's IP.
    const services = [...new Set(webhookConfigs.flatMap((c) => c.webhooks.map((w: Json) => w.clientConfig.service.name)))];
    for (const name of services) {
      const slices = await client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace: NS, labelSelector: `kubernetes.io/service-name=${name}` });
      expect(slices.map((s) => s.metadata.labels['endpointslice.kubernetes.io/managed-by'])).toEqual(['endpointslice-controller.k8s.io']);
      expect(slices[0].endpoints.map((e: Json) => pods.some((p) => p.status.podIP === e.addresses[0]))).toEqual([true]);
    }
    // cert-manager's CA injected into every webhook (from the test CA that issued the serving certificates).
    const bundle = Buffer.from(ca.certPem).toString('base64');
    for (const c of webhookConfigs) for (const w of (await live(c as Manifest))!.webhooks) expect({ w: w.name, ca: w.clientConfig.caBundle === bundle }).toEqual({ w: w.name, ca: true });

    // The platform's own custom resources went through the real webhooks: one AdmissionReview per object and webhook.
    const admissions = agent.calls.filter((c) => c.kind === 'AdmissionReview');
    for (const o of desired.objects.filter((x) => x.phase === '30-resources')) {
      const plural = `${o.json.kind.toLowerCase()}s`;
      for (const path of webhookPathsFor(webhookConfigs, o.json.apiVersion, plural, 'CREATE', !!o.json.metadata.namespace)) {
        expect({ object: `${o.json.kind} ${o.json.metadata.name}`, path, called: admissions.some((a) => a.path.startsWith(path)) }).toEqual({ object: `${o.json.kind} ${o.json.metadata.name}`, path, called: true });
      }
    }
    expect(cluster().errors()).toEqual([]);

    // The whole platform went in on a fresh v1.28 server (what test/support/platform-on-apiserver.ts
    // proves for the other default platforms): no rejection, and so no CRD whose rules our
    // compilation for the server's version flags.
    const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
    expect(crds.length).toBeGreaterThan(0);
    expect(crds.filter((c) => compileCelRules(c.json, server.version).length > 0).map((c) => c.json.metadata.name)).toEqual([]);
    // Every object is on the server, with the ApplySet label; the parent names the kinds.
    const parent = applySetParent('serving');
    for (const o of objects) {
      const l = await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name, { metadataOnly: true });
      expect({ object: `${o.json.kind} ${o.json.metadata.name}`, partOf: l?.metadata?.labels?.[APPLYSET_PART_OF] })
        .toEqual({ object: `${o.json.kind} ${o.json.metadata.name}`, partOf: applySetId(parent) });
    }
    const secret = await client.get('v1', 'Secret', parent.namespace, parent.name);
    expect(secret?.metadata.annotations[APPLYSET_TOOLING]).toMatch(/^mlplatform\//);
    expect(secret?.metadata.annotations[APPLYSET_GROUP_KINDS].split(',')).toEqual(expect.arrayContaining(['CustomResourceDefinition.apiextensions.k8s.io', 'Deployment.apps', 'Namespace']));

    const diff = await cli(['diff', '--platform', 'serving', '--kubeconfig', server.kubeconfigPath]);
    expect(diff.stdout).toBe(`no changes: ${objects.length} objects as in the output\n`);
    expect(diff.code).toBe(0);
    // The synthesized folder (with its GitOps entry points beside the phases) is the same platform: the same objects in
    // the same phases and order, the same name and prerequisites, so `mlplatform diff --dir` of it finds what the diff
    // above found (`diff --dir` itself runs against a real server in cluster.test.ts; a second whole dry run here cost
    // the API server some 10 s of CPU).
    const dir = join(fs.mkdtempSync(join(os.tmpdir(), 'mlplatform-serving-')), 'serving');
    try {
      writeFiles(dir, build.files);
      writeFiles(dir, new Map([['argocd/root.yaml', 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: serving\n  namespace: argocd\n']]));
      const fromDir = desiredFromDir(dir, os.tmpdir());
      expect(fromDir.name).toBe('serving');
      expect(fromDir.objects.map((o) => ({ json: o.json, phase: o.phase }))).toEqual(desired.objects.map((o) => ({ json: o.json, phase: o.phase })));
      expect(fromDir.prerequisites).toEqual(desired.prerequisites);
    } finally {
      fs.rmSync(dirname(dir), { recursive: true, force: true });
    }
    report.push(`bring-up ${seconds.toFixed(1)} s to Available, ${desired.objects.length} objects, ${agent.started.length} pods started, ${admissions.length} AdmissionReviews and ${agent.calls.length - admissions.length} ConversionReviews answered`);
  }, 300_000);

  test('one example of each kind a webhook guards is admitted through the real webhooks', async () => {
    const { client, agent } = cluster();
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'examples' } }, { fieldManager: 'examples' });
    await eventually('the default ServiceAccount of namespace examples', () => client.get('v1', 'ServiceAccount', 'examples', 'default'), (sa) => !!sa);
    const before = agent.calls.length;
    const missed: string[] = [];
    for (const ex of EXAMPLES) {
      const from = agent.calls.length;
      await client.apply(ex, { fieldManager: 'examples' });
      expect(await live(ex)).toBeDefined();
      const paths = webhookPathsFor(webhookConfigs, ex.apiVersion, `${ex.kind.toLowerCase()}s`, 'CREATE', !!ex.metadata.namespace);
      expect({ kind: ex.kind, guarded: paths.length > 0 }).toEqual({ kind: ex.kind, guarded: true });
      for (const path of paths) if (!agent.calls.slice(from).some((c) => c.path.startsWith(path))) missed.push(`${ex.kind}: ${path}`);
    }
    expect(missed).toEqual([]);
    report.push(`${EXAMPLES.length} examples, ${agent.calls.length - before} webhook calls`);
  }, 120_000);

  test('every controller pod deleted: the platform comes back by itself, and no webhook blocks its own backend; a second mlplatform apply then changes nothing', async () => {
    const { client, agent } = cluster();
    const old = await client.list('v1', 'Pod', { namespace: NS });
    const t0 = Date.now();
    for (const p of old) await client.delete('v1', 'Pod', NS, p.metadata.name, { propagationPolicy: 'Background' });
    const oldUids = new Set(old.map((p) => p.metadata.uid));
    await eventually('the platform back up with new pods', async () => ({
      down: (await workloads(cluster(), desired)).filter((w) => !workloadUp(w)).map((w) => w.metadata.name),
      pods: (await client.list('v1', 'Pod', { namespace: NS })).map((p) => ({ uid: p.metadata.uid, phase: p.status?.phase })),
    }), (s) => !s.down.length && s.pods.length === old.length && s.pods.every((p) => !oldUids.has(p.uid) && p.phase === 'Running'), 120_000);
    const back = Date.now() - t0;
    // Every old pod's deletion was confirmed by the agent (a kubelet's job), and the new ones serve the webhooks.
    for (const p of old) expect(agent.confirmedDeletions).toContain(`${NS}/${p.metadata.name}`);
    // A second apply changes nothing: no object written, every resourceVersion as it was.
    const versions = async () => Promise.all(objects.map(async (o) => `${o.json.kind} ${o.json.metadata.name} ${(await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name, { metadataOnly: true }))?.metadata.resourceVersion}`));
    const before = await versions();
    const second = await cli(['apply', '--platform', 'serving', '--kubeconfig', cluster().server.kubeconfigPath, '--timeout', '60s']);
    expect(await versions()).toEqual(before);
    expect(second.code).toBe(0);
    expect(second.stderr.split('\n').filter((l) => l.includes('configured '))).toEqual([]);
    expect(second.stdout).toBe('serving: no changes\n');
    expect(second.stderr).toContain(`no changes: ${objects.length} objects unchanged`);
    // A dry-run create passes every webhook again (new pods, new stand-ins).
    const from = agent.calls.length;
    await client.apply({ ...EXAMPLES[0], metadata: { ...EXAMPLES[0].metadata, name: 'after-restart' } }, { fieldManager: 'examples', dryRun: true });
    expect(agent.calls.length).toBeGreaterThan(from);
    report.push(`all ${old.length} pods deleted: back in ${(back / 1000).toFixed(1)} s`);
  }, 180_000);

  describe('a broken webhook Service fails the bring-up, naming the webhook, the Service and why', () => {
    /**
     * The platform with one object changed by `edit` (which returns undefined for the others), less its CRDs: those are
     * on the cluster as the bring-up left them, each failure below comes before anything would change them, and a dry
     * run of KServe's large CRDs was most of what each of these failing bring-ups cost the API server.
     */
    const broken = (edit: (o: Json) => Json | undefined): DesiredPlatform =>
      ({ ...desired, objects: desired.objects.filter((o) => o.json.kind !== 'CustomResourceDefinition').map((o) => ({ ...o, json: (edit(JSON.parse(JSON.stringify(o.json))) ?? o.json) as Manifest })) });
    const webhookService = (o: Json) => o.kind === 'Service' && o.metadata.name === 'kserve-webhook-server-service';
    const slicesOf = () => cluster().client.list('discovery.k8s.io/v1', 'EndpointSlice', { namespace: NS, labelSelector: 'kubernetes.io/service-name=kserve-webhook-server-service' });
    const emptySlices = async () => eventually('the Service without ready endpoints', slicesOf,
      (slices) => !slices.some((s) => (s.ports ?? []).length && (s.endpoints ?? []).some((e: Json) => e.conditions?.ready !== false)));
    const servingCert = desired.objects.find((o) => o.json.kind === 'Certificate' && o.json.metadata.name === 'serving-cert')!.json;
    /** Waits until the webhook backend serves the certificate cert-manager issued for these names. */
    const servingCertFor = (names: string[]) => eventually('the webhook backend serving the certificate issued again', async () => {
      const secret = await cluster().client.get('v1', 'Secret', NS, servingCert.spec.secretName);
      return { names: secret?.metadata.annotations['cert-manager.io/alt-names'], version: secret?.metadata.resourceVersion, sources: Object.values(cluster().agent.certificateSources) };
    }, (s) => s.names === names.join(',') && s.sources.includes(`secret ${servingCert.spec.secretName}@${s.version}`));
    afterEach(async () => {
      // Back to the platform as it is: each test broke the Service or the Certificate (the
      // failed bring-up applied the rest unchanged), so those two are repaired, and checked:
      // as in the output, a ready endpoint again, the certificate for the Service's names
      // served, and a dry-run create passes every webhook it should call.
      const { client, agent } = cluster();
      const service = desired.objects.find((o) => webhookService(o.json))!.json;
      await client.apply(service, { fieldManager: 'mlplatform' });
      await client.apply(servingCert, { fieldManager: 'mlplatform' });
      await servingCertFor(servingCert.spec.dnsNames);
      const liveService = (await live(service as Manifest))!;
      expect({ selector: liveService.spec.selector, targetPorts: liveService.spec.ports.map((p: Json) => p.targetPort) })
        .toEqual({ selector: service.spec.selector, targetPorts: service.spec.ports.map((p: Json) => p.targetPort) });
      expect((await live(servingCert as Manifest))!.spec.dnsNames).toEqual(servingCert.spec.dnsNames);
      await waitEndpoints(client, NS, service.metadata.name, { timeoutMs: 60_000, intervalMs: 200 });
      await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: EXAMPLES[0].metadata.namespace! } }, { fieldManager: 'examples' });
      const from = agent.calls.length;
      const probe = { ...EXAMPLES[0], metadata: { ...EXAMPLES[0].metadata, name: 'after-repair' } };
      await client.apply(probe, { fieldManager: 'examples', dryRun: true });
      const paths = webhookPathsFor(webhookConfigs, probe.apiVersion, `${probe.kind.toLowerCase()}s`, 'CREATE', !!probe.metadata.namespace);
      expect(paths.filter((path) => !agent.calls.slice(from).some((c) => c.path.startsWith(path)))).toEqual([]);
    }, 180_000);

    test('a selector that matches no pod', async () => {
      const platform = broken((o) => (webhookService(o) ? { ...o, spec: { ...o.spec, selector: { ...o.spec.selector, 'control-plane': 'kserve-controler-manager' } } } : undefined));
      await cluster().client.apply(platform.objects.find((o) => webhookService(o.json))!.json, { fieldManager: 'mlplatform' });
      await emptySlices();
      const error = await bringUp(cluster(), platform, { timeoutMs: 8_000 }).then(() => undefined, (e: Error) => e.message);
      expect(error).toMatch(/v1 Service kserve\/kserve-webhook-server-service: not a ready endpoint after 8 s/);
      expect(error).toMatch(/its selector control-plane=kserve-controler-manager,controller-tools\.k8s\.io=1\.0 matches no pod in namespace kserve \(.*Deployment kserve-controller-manager labels its pods .*control-plane=kserve-controller-manager/);
      expect(error).toMatch(/needed by .*ValidatingWebhookConfiguration inferenceservice\.serving\.kserve\.io \(webhook inferenceservice\.kserve-webhook-server\.validator\)/);
    }, 120_000);

    test('a target port no container declares', async () => {
      const platform = broken((o) => (webhookService(o) ? { ...o, spec: { ...o.spec, ports: o.spec.ports.map((p: Json) => ({ ...p, targetPort: 'webhook' })) } } : undefined));
      await cluster().client.apply(platform.objects.find((o) => webhookService(o.json))!.json, { fieldManager: 'mlplatform' });
      await emptySlices();
      const error = await bringUp(cluster(), platform, { timeoutMs: 8_000 }).then(() => undefined, (e: Error) => e.message);
      expect(error).toMatch(/v1 Service kserve\/kserve-webhook-server-service: not a ready endpoint after 8 s/);
      expect(error).toMatch(/port https targets the container port named 'webhook', which no container of the 1 selected pods declares \(they declare: [^)]*webhook-server/);
      expect(error).toMatch(/needed by .*ValidatingWebhookConfiguration servingruntime\.serving\.kserve\.io \(webhook servingruntime\.kserve-webhook-server\.validator\)/);
    }, 120_000);

    test('a certificate for other DNS names', async () => {
      const isCert = (o: Json) => o.kind === 'Certificate' && o.metadata.name === 'serving-cert';
      const platform = broken((o) => (isCert(o) ? { ...o, spec: { ...o.spec, dnsNames: ['kserve-webhook.kserve.svc'] } } : undefined));
      const cert = platform.objects.find((o) => isCert(o.json))!.json;
      await cluster().client.apply(cert, { fieldManager: 'mlplatform' });
      // The backend serves the new certificate once cert-manager issued it.
      await servingCertFor(['kserve-webhook.kserve.svc']);
      const error = await bringUp(cluster(), platform, { timeoutMs: 8_000 }).then(() => undefined, (e: Error) => e.message);
      expect(error).toMatch(/failed calling webhook "[^"]+\.kserve-webhook-server\.validator"/);
      expect(error).toMatch(/https:\/\/kserve-webhook-server-service\.kserve\.svc:443\//);
      expect(error).toMatch(/x509: certificate is valid for kserve-webhook\.kserve\.svc, not kserve-webhook-server-service\.kserve\.svc/);
    }, 120_000);
  });
});
