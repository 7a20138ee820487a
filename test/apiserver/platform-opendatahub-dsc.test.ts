/**
 * The opendatahub platform built from a DataScienceCluster (platforms/opendatahub-dsc.ts) on a
 * real API server, one server for the file: from the ODH operator's first-install DSC and
 * DSCI, and from README's "Enable all components" DSC (the components the project does not
 * provide skipped, as `--skip-unsupported` does), each checked as the default platforms are
 * (test/support/platform-on-apiserver.ts). Then what `mlplatform synth --dsc` writes is what
 * `mlplatform apply --dir` takes: a server-side dry run of it against the objects now on the
 * server succeeds and stores nothing.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import * as YAML from 'yaml';
import { run } from '../../cli/main';
import { KubeClient } from '../../lib/cluster/client';
import { desiredFromDir } from '../../lib/cluster/desired';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';
import { readDataScienceClusterFile } from '../../platforms/opendatahub-dsc';
import { describeWithApiServer } from '../support/apiserver';
import { DRY_RUN_KINDS } from '../support/apply';
import { expectPlatformOnApiServer } from '../support/platform-on-apiserver';

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

describeWithApiServer('the opendatahub platform from a DataScienceCluster on a real API server', (server) => {
  test('the operator\'s first-install DSC and DSCI: every object accepted, or rejected as its component\'s minimum Kubernetes explains', async () => {
    const platform = OpenDataHubPlatform.fromDataScienceCluster(new App({ outdir: '/nonexistent' }), 'opendatahub',
      fixture('dsc-v2-operator-default.yaml'), fixture('dsci-v2-operator-default.yaml'), { skipUnsupported: UNSUPPORTED });
    const { build, explained } = await expectPlatformOnApiServer(server(), platform);
    // The DSC's Trainer (with JobSet) is what the 1.28 server cannot take.
    expect(new Set(explained.map((l) => /-- explained: (\S+) needs/.exec(l)![1]))).toEqual(new Set(['jobset', 'trainer']));
    expect(build.model.objects.some((o) => o.component.componentName === 'notebook-controller')).toBe(true);
  }, 300_000);

  test('README\'s all-components DSC (dashboard, trustyai, feastoperator skipped): every object accepted, or explained', async () => {
    const platform = OpenDataHubPlatform.fromDataScienceCluster(new App({ outdir: '/nonexistent' }), 'opendatahub',
      fixture('dsc-v2-readme-all-components.yaml'), fixture('dsci-v2-sample.yaml'), { skipUnsupported: UNSUPPORTED });
    const { build } = await expectPlatformOnApiServer(server(), platform);
    for (const c of ['training-operator', 'mlflow-operator', 'spark-operator']) expect(build.model.objects.some((o) => o.component.componentName === c)).toBe(true);
  }, 300_000);

  test('mlplatform synth --dsc writes what mlplatform apply --dir takes: a server-side dry run of it succeeds and stores nothing', async () => {
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
      // The objects are on the server already (the tests above applied them with another field manager): adopt them.
      const r = await cli(['apply', '--dir', out, '--kubeconfig', server().kubeconfigPath, '--dry-run=server', '--adopt', 'all'], repo);
      expect(r.stderr).not.toContain('failed');
      // Every object but those the tests above only dry-ran (webhook configurations, APIServices) was found on the
      // server and checked there against the live one; those were checked as new ones.
      const desired = desiredFromDir(out, repo);
      const dryRunOnly = desired.objects.filter((o) => DRY_RUN_KINDS.has(o.json.kind)).length;
      expect(dryRunOnly).toBeGreaterThan(0);
      expect(r.stderr).toContain(`dry run (server): ${dryRunOnly} created, ${desired.objects.length - dryRunOnly} configured, 0 unchanged, 0 pruned`);
      expect(r.stdout).toBe('opendatahub: applied\n');
      expect(r.code).toBe(0);
      // Nothing stored: no ApplySet parent, no object labelled as its member.
      const client = new KubeClient(server().kubeConfig);
      expect(await client.get('v1', 'Secret', 'default', 'mlplatform-opendatahub')).toBeUndefined();
      const ns = await client.get('v1', 'Namespace', undefined, 'opendatahub');
      expect(ns?.metadata?.labels?.['applyset.kubernetes.io/part-of']).toBeUndefined();
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  }, 300_000);
});
