/** `mlplatform report --compare-architecture FILE` (ODH-ARCH): the document's rows next to the platform's, each difference classified. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { run } from '../../cli/main';

jest.setTimeout(180_000);

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

// A small architecture document in the user's folder: a matching CRD, a declared optional one
// (KServe's LocalModel cache, off in opendatahub), an unknown one, a dependency and webhooks.
const DOC = [
  'CRD Ownership Map¶',
  '| Owner | CRDs | Count |', '|---|---|---|',
  '| kserve | InferenceService, LocalModelCache, NoSuchKind | 3 |',
  '',
  'Cross-Component Dependencies¶',
  '| From | To | Type |', '|---|---|---|',
  '| modelmesh-serving | kserve | watches-crd:InferenceService |',
  '',
  'Webhooks¶',
  '| Component | Webhooks |', '|---|---|',
  '| kserve | 15 |',
  '',
  'External Webhooks¶',
  '| Webhook | Type | Owner | Target Type | Path | Failure Policy |', '|---|---|---|---|---|---|',
  '| clusterservingruntime.kserve-webhook-server.validator | validating | kserve | /validate-serving-kserve-io-v1alpha1-clusterservingruntime | Fail | |',
].join('\n');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mlplatform-arch-'));
fs.writeFileSync(path.join(dir, 'arch.md'), DOC);

describe('mlplatform report --compare-architecture', () => {
  test('opendatahub: each row of the document next to ours, classified by the platform\'s declarations', async () => {
    const r = await cli(['report', '--platform', 'opendatahub', '--compare-architecture', 'arch.md'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# Architecture of platform opendatahub\n/);
    expect(r.stdout).toContain('\n## Compared with the architecture\n');
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| kserve') || l.startsWith('| modelmesh'));
    expect(rows).toEqual(expect.arrayContaining([
      '| kserve: InferenceService | kserve (inferenceservices.serving.kserve.io) | match |  |',
      expect.stringMatching(/^\| kserve: LocalModelCache \| not served \| optional \| KServe's LocalModel cache; .* \(enable: KServeProps\.localModel .*\) \|$/),
      '| kserve: NoSuchKind | not served | undeclared |  |',
      expect.stringMatching(/^\| modelmesh-serving -> kserve \(watches-crd:InferenceService\) \| modelmesh-serving -> kserve crd-owner inferenceservices\.serving\.kserve\.io.* \| match \|  \|$/),
      '| kserve validating clusterservingruntime.kserve-webhook-server.validator /validate-serving-kserve-io-v1alpha1-clusterservingruntime Fail | kserve validating clusterservingruntime.kserve-webhook-server.validator /validate-serving-kserve-io-v1alpha1-clusterservingruntime Fail | match |  |',
      '| kserve: 15 | kserve: 15 | match |  |',
    ]));
    expect(r.stdout).toMatch(/undeclared 1, stale declarations \d+\./);
  });

  test('another platform has no declarations: its differences are undeclared (JSON)', async () => {
    const r = await cli(['report', '--platform', 'serving', '--format', 'json', '--compare-architecture', path.join(dir, 'arch.md')], os.tmpdir());
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout).architectureComparison;
    // serving has KServe's LocalModel cache and no ModelMesh; its KServe serves a different number of webhooks.
    expect(c.undeclared.map((x: any) => `${x.table} ${x.key}`)).toEqual(['crd kserve/NoSuchKind', 'dependency modelmesh-serving -> kserve watches-crd:InferenceService', 'webhook-count kserve']);
    expect(c.stale).toEqual([]);
  });

  test('a missing file, a document without the tables, and svg are usage errors naming the fix', async () => {
    const missing = await cli(['report', '--platform', 'serving', '--compare-architecture', 'nope.md'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('mlplatform report: --compare-architecture nope.md: no such file');
    fs.writeFileSync(path.join(dir, 'empty.md'), '# nothing\n');
    const empty = await cli(['report', '--platform', 'serving', '--compare-architecture', 'empty.md'], dir);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/no CRD ownership table \(a table with columns Owner, CRDs\)/);
    const svg = await cli(['report', '--platform', 'serving', '--format', 'svg', '--compare-architecture', 'arch.md'], dir);
    expect(svg.code).toBe(2);
    expect(svg.stderr).toMatch(/use --format md or json/);
  });
});
