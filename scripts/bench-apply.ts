// Apply speed: `mlplatform apply` of the largest default platform on a real API server, phase
// by phase, against `kubectl apply --server-side --force-conflicts -f <phase folder>` of the
// same phase folders, each on a fresh API server of the same binaries (KUBEBUILDER_ASSETS,
// webhook admission off: no backend runs). Waits are excluded from both: between phases the
// bench waits for the phase's CRDs to be Established, outside the timing. Ours includes its
// checks before the first write (prerequisites, version, owners, access reviews) and the
// dry run that keeps unchanged objects from being written; the kubectl side runs a first apply.
//
//   KUBEBUILDER_ASSETS=... npx ts-node --transpile-only scripts/bench-apply.ts
//   BENCH_APPLY_PLATFORM (default: the largest default platform whose components all run on the
//   server's version), KUBECTL (default kubectl; skipped when absent).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { applyPlatform } from '../lib/cluster/apply';
import { KubeClient } from '../lib/cluster/client';
import { desiredFromModel } from '../lib/cluster/desired';
import { compareKubernetesVersions } from '../lib/kubernetes-version';
import { PHASES } from '../lib/phases';
import { buildPlatform, writeFiles } from '../lib/synth';
import { DEFAULT_PLATFORMS } from '../platforms';
import { startApiServer } from '../test/support/apiserver';
import { FIELD_MANAGER, prerequisiteCrds, waitEstablished } from '../test/support/apply';

const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const NAME = process.env.BENCH_APPLY_PLATFORM;

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

async function main(): Promise<void> {
  // The server's version (kube-apiserver --version): the platform must run on it.
  const v = spawnSync(path.join(process.env.KUBEBUILDER_ASSETS ?? '', 'kube-apiserver'), ['--version'], { encoding: 'utf8' });
  const serverVersion = /v(\d+\.\d+)/.exec(v.stdout)?.[1];
  if (!serverVersion) throw new Error(`cannot run kube-apiserver from KUBEBUILDER_ASSETS=${process.env.KUBEBUILDER_ASSETS}: ${v.stderr}`);
  // BENCH_APPLY_PLATFORM, else the largest default platform whose components all run on that version.
  const candidates = DEFAULT_PLATFORMS.filter((p) => (NAME ? p.name === NAME : true));
  if (!candidates.length) throw new Error(`BENCH_APPLY_PLATFORM=${NAME}: no such platform`);
  const fitting = candidates.map((p) => buildPlatform(p.create(new App({ outdir: '/nonexistent' }))))
    .filter((b) => NAME || b.model.components.every((c) => compareKubernetesVersions(c.kubernetes.min, serverVersion) <= 0))
    .sort((a, b) => b.model.objects.length - a.model.objects.length);
  if (!fitting.length) throw new Error(`no default platform runs on Kubernetes ${serverVersion}`);
  const build = fitting[0];
  const desired = desiredFromModel(build.model);
  const NAME_USED = build.model.platform.name;
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-bench-apply-')), NAME_USED);
  writeFiles(dir, build.files);
  const phases = PHASES.filter((p) => desired.objects.some((o) => o.phase === p));
  const kubectl = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  const haveKubectl = kubectl.status === 0;
  const lines: string[] = [];
  const say = (l: string) => { lines.push(l); process.stdout.write(`${l}\n`); };
  say(`Apply speed: ${NAME_USED} (${desired.objects.length} objects; the largest default platform whose components run on Kubernetes ${serverVersion}), phase by phase, waits excluded, each tool on a fresh API server (${process.env.KUBEBUILDER_ASSETS}).`);
  if (!haveKubectl) say(`kubectl not found ('${KUBECTL}'): only mlplatform apply is measured.`);

  const results: Record<string, { ours?: number; kubectl?: number; objects: number }> = {};
  for (const p of phases) results[p] = { objects: desired.objects.filter((o) => o.phase === p).length };

  for (const tool of haveKubectl ? ['ours', 'kubectl'] as const : ['ours'] as const) {
    const server = await startApiServer({ webhookAdmission: false });
    try {
      const client = new KubeClient(server.kubeConfig);
      const standIns = prerequisiteCrds(build.model.objects, build.model.externalKinds);
      for (const crd of standIns) await client.apply(crd, { fieldManager: FIELD_MANAGER });
      await waitEstablished(client, standIns.map((c) => c.metadata.name));
      for (const phase of phases) {
        const objects = desired.objects.filter((o) => o.phase === phase);
        const start = process.hrtime.bigint();
        if (tool === 'ours') {
          // The prerequisites are stand-in CRDs of the kinds used only: that check is left out here.
          await applyPlatform(client, { ...desired, objects, prerequisites: [] }, { waits: false });
        } else {
          const r = spawnSync(KUBECTL, ['apply', '--server-side', '--force-conflicts', '--field-manager', 'bench', '--kubeconfig', server.kubeconfigPath, '-f', path.join(dir, phase)], { encoding: 'utf8' });
          if (r.status !== 0) throw new Error(`kubectl apply of ${phase} failed:\n${r.stderr}`);
        }
        results[phase][tool] = seconds(start);
        // Outside the timing: the next phase needs this phase's kinds served.
        client.forgetDiscovery();
        await waitEstablished(client, objects.filter((o) => o.json.kind === 'CustomResourceDefinition').map((o) => o.json.metadata.name));
      }
    } finally {
      await server.stop();
    }
  }
  say('phase              objects   mlplatform s   kubectl s   ratio');
  let ours = 0;
  let theirs = 0;
  for (const p of phases) {
    const r = results[p];
    ours += r.ours ?? 0;
    theirs += r.kubectl ?? 0;
    say(`${p.padEnd(18)} ${String(r.objects).padStart(7)} ${(r.ours ?? 0).toFixed(2).padStart(14)} ${r.kubectl === undefined ? '-'.padStart(11) : r.kubectl.toFixed(2).padStart(11)}   ${r.kubectl ? ((r.ours ?? 0) / r.kubectl).toFixed(2) : '-'}`);
  }
  say(`${'total'.padEnd(18)} ${String(desired.objects.length).padStart(7)} ${ours.toFixed(2).padStart(14)} ${haveKubectl ? theirs.toFixed(2).padStart(11) : '-'.padStart(11)}   ${haveKubectl ? (ours / theirs).toFixed(2) : '-'}`);
  const out = path.resolve(__dirname, '..', '.bench');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'apply-latest.txt'), `${lines.join('\n')}\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
