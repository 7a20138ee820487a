/**
 * `mlplatform apply --platform serving` on an empty v1.28 API server (webhook admission off:
 * no webhook backend runs here), while the test plays the controllers (Deployment status,
 * EndpointSlices, Certificate Ready). Then `mlplatform diff` finds nothing and a second
 * apply changes nothing. This is also the serving platform's test on a real API server (the
 * other default platforms' are their bring-ups in motion and platform-version-gates.test.ts): every object stored.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { run } from '../../cli/main';
import { applySetId, applySetParent, APPLYSET_GROUP_KINDS, APPLYSET_PART_OF, APPLYSET_TOOLING } from '../../lib/cluster/applyset';
import { KubeClient } from '../../lib/cluster/client';
import { PHASES } from '../../lib/phases';
import { buildPlatform, writeFiles } from '../../lib/synth';
import { compileCelRules } from '../../lib/validation';
import { ServingPlatform } from '../../platforms';
import { describeWithApiServer } from '../support/apiserver';
import { FIELD_MANAGER as STAND_IN_MANAGER, prerequisiteCrds, waitEstablished } from '../support/apply';
import { playControllers } from '../support/controllers';

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd: os.tmpdir() });
  return { code, stdout, stderr };
}

describeWithApiServer('mlplatform apply, diff: the serving platform', (server) => {
  const build = buildPlatform(new ServingPlatform(new App({ outdir: '/nonexistent' }), 'serving'));
  const objects = build.model.objects;

  test('fails before changing anything when a prerequisite is missing, and names it', async () => {
    const r = await cli(['apply', '--platform', 'serving', '--kubeconfig', server().kubeconfigPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/prerequisite cert-manager is missing: the server does not serve cert-manager\.io\/v1 (Certificate|Issuer)/);
    expect(r.stderr).toContain('nothing was changed');
    const client = new KubeClient(server().kubeConfig);
    const ns = objects.find((o) => o.json.kind === 'Namespace')!.json.metadata.name;
    expect(await client.get('v1', 'Namespace', undefined, ns)).toBeUndefined();
    expect(await client.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).toEqual([]);
  }, 120_000);

  test('applies from empty in phase order, waiting for what each phase needs; diff then finds nothing; a second apply changes nothing', async () => {
    const client = new KubeClient(server().kubeConfig);
    // The prerequisites, as if installed (cert-manager's APIs and the other external kinds).
    const standIns = prerequisiteCrds(objects, build.model.externalKinds);
    for (const crd of standIns) await client.apply(crd, { fieldManager: STAND_IN_MANAGER });
    expect(await waitEstablished(client, standIns.map((c) => c.metadata.name))).toEqual([]);

    const player = playControllers(client);
    let first;
    try {
      first = await cli(['apply', '--platform', 'serving', '--kubeconfig', server().kubeconfigPath, '--timeout', '60s']);
    } finally {
      await player.stop();
    }
    expect(first.stderr).not.toContain('failed');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('serving: applied\n');

    // Phase order: each phase's header comes in PHASES order, and no phase starts before the one before it was ready.
    const headers = first.stderr.split('\n').filter((l) => /^\d\d-[a-z-]+: \d+ objects$/.test(l)).map((l) => l.split(':')[0]);
    const present = PHASES.filter((p) => objects.some((o) => o.phase === p));
    expect(headers).toEqual(present);
    // Every webhook configuration went in only after the player gave its Service a ready endpoint.
    const webhookConfigs = objects.filter((o) => /WebhookConfiguration$/.test(o.json.kind));
    expect(webhookConfigs.length).toBeGreaterThan(0);
    for (const w of webhookConfigs) {
      for (const hook of w.json.webhooks) {
        const svc = `${hook.clientConfig.service.namespace}/${hook.clientConfig.service.name}`;
        const endpoints = player.events.find((e) => e.what === 'endpoints' && e.object === svc);
        expect({ svc, endpoints: !!endpoints }).toEqual({ svc, endpoints: true });
      }
      const live = await client.get(w.json.apiVersion, w.json.kind, undefined, w.json.metadata.name);
      expect(live).toBeDefined();
    }
    // Every workload was made ready by the player once, and apply waited for each (see the log).
    const deployments = objects.filter((o) => ['Deployment', 'DaemonSet', 'StatefulSet'].includes(o.json.kind));
    expect(player.events.filter((e) => e.what === 'available').map((e) => e.object).sort())
      .toEqual(deployments.map((d) => `${d.json.metadata.namespace}/${d.json.metadata.name}`).sort());
    for (const d of deployments) expect(first.stderr).toMatch(new RegExp(`^  apps/v1 ${d.json.kind} ${d.json.metadata.namespace}/${d.json.metadata.name}: (Available|rolled out)`, 'm'));
    const log = first.stderr;
    expect(log.indexOf('20-webhooks:')).toBeGreaterThan(log.indexOf('10-controllers:'));

    // The whole platform went in on a fresh v1.28 server (what test/support/platform-on-apiserver.ts
    // proves for the other default platforms): no rejection, and so no CRD whose rules our
    // compilation for the server's version flags.
    const crds = objects.filter((o) => o.json.kind === 'CustomResourceDefinition');
    expect(crds.length).toBeGreaterThan(0);
    expect(crds.filter((c) => compileCelRules(c.json, server().version).length > 0).map((c) => c.json.metadata.name)).toEqual([]);
    // Every object is on the server, with the ApplySet label; the parent names the kinds.
    const parent = applySetParent('serving');
    for (const o of objects) {
      const live = await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name);
      expect({ object: `${o.json.kind} ${o.json.metadata.name}`, partOf: live?.metadata?.labels?.[APPLYSET_PART_OF] })
        .toEqual({ object: `${o.json.kind} ${o.json.metadata.name}`, partOf: applySetId(parent) });
    }
    const secret = await client.get('v1', 'Secret', parent.namespace, parent.name);
    expect(secret?.metadata.annotations[APPLYSET_TOOLING]).toMatch(/^mlplatform\//);
    expect(secret?.metadata.annotations[APPLYSET_GROUP_KINDS].split(',')).toEqual(expect.arrayContaining(['CustomResourceDefinition.apiextensions.k8s.io', 'Deployment.apps', 'Namespace']));

    const diff = await cli(['diff', '--platform', 'serving', '--kubeconfig', server().kubeconfigPath]);
    expect(diff.stdout).toBe(`no changes: ${objects.length} objects as in the output\n`);
    expect(diff.code).toBe(0);

    // The synthesized folder (with its GitOps entry points beside the phases) is the same platform.
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-serving-')), 'serving');
    writeFiles(dir, build.files);
    writeFiles(dir, new Map([['argocd/root.yaml', 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: serving\n  namespace: argocd\n']]));
    const fromDir = await cli(['diff', '--dir', dir, '--kubeconfig', server().kubeconfigPath]);
    expect(fromDir.stdout).toBe(`no changes: ${objects.length} objects as in the output\n`);
    expect(fromDir.code).toBe(0);

    const versions = async () => Promise.all(objects.map(async (o) => `${o.json.kind} ${o.json.metadata.name} ${(await client.get(o.json.apiVersion, o.json.kind, o.json.metadata.namespace, o.json.metadata.name))?.metadata.resourceVersion}`));
    const before = await versions();
    const second = await cli(['apply', '--platform', 'serving', '--kubeconfig', server().kubeconfigPath, '--timeout', '10s']);
    // Nothing was written: every resourceVersion is as it was.
    expect(await versions()).toEqual(before);
    expect(second.code).toBe(0);
    expect(second.stderr.split('\n').filter((l) => l.includes('configured '))).toEqual([]);
    expect(second.stdout).toBe('serving: no changes\n');
    expect(second.stderr).toContain(`no changes: ${objects.length} objects unchanged`);
  }, 300_000);
}, { webhookAdmission: false });
