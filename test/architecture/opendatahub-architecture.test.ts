/**
 * The opendatahub platform held to the Open Data Hub platform architecture
 * (test/architecture/opendatahub.json, made from the document by
 * scripts/extract-architecture-facts.ts): every CRD, dependency and named webhook of the
 * document is in the platform or declared in platforms/opendatahub-architecture.ts.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { architectureOf } from '../../lib/architecture';
import { ArchitectureFacts, architectureFactsOf, compareArchitecture, DIFFERENCE_CLASSES, parseMarkdownTables } from '../../lib/architecture-compare';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';
import { OPENDATAHUB_ARCHITECTURE_DECLARATIONS } from '../../platforms/opendatahub-architecture';
import { build, problemsOf } from '../platforms/helpers';

const facts: ArchitectureFacts = JSON.parse(fs.readFileSync(path.join(__dirname, 'opendatahub.json'), 'utf8'));
const b = build((app) => new OpenDataHubPlatform(app, 'opendatahub'));
const arch = architectureOf(b.model, b.largeCrds);
const comparison = compareArchitecture(arch, facts, OPENDATAHUB_ARCHITECTURE_DECLARATIONS);
const line = (r: { table: string; key: string; ours: string }) => `${r.table} ${r.key} (ours: ${r.ours})`;

describe('opendatahub platform against the Open Data Hub platform architecture', () => {
  test('the facts cover the document\'s tables: 12 CRD owners, 24 dependencies, 121 webhooks by component, 47 named', () => {
    expect(facts.crdOwners).toHaveLength(12);
    expect(facts.dependencies).toHaveLength(24);
    expect(facts.webhookCounts.reduce((s, c) => s + c.count, 0)).toBe(121);
    expect(facts.stated).toEqual({ crds: 56, webhooks: 121 });
    expect(facts.webhooks).toHaveLength(47);
    // Every external webhook row carries its path and failure policy, wherever the row put them.
    expect(facts.webhooks.filter((w) => w.table === 'external' && (!w.path || !w.failurePolicy))).toEqual([]);
  });

  test('every difference from the architecture is declared', () => {
    expect(comparison.undeclared.map(line)).toEqual([]);
  });

  test('no declaration is stale: each names a row that differs', () => {
    expect(comparison.stale.map((d) => `${d.table} ${d.key}`)).toEqual([]);
  });

  test('every declaration has a known class and a reason; optional ones name the setting that enables them', () => {
    for (const d of OPENDATAHUB_ARCHITECTURE_DECLARATIONS.differences) {
      expect(DIFFERENCE_CLASSES).toContain(d.class);
      expect(d.reason.length).toBeGreaterThan(20);
      if (d.class === 'optional') expect(d.setting).toBeTruthy();
    }
    for (const m of OPENDATAHUB_ARCHITECTURE_DECLARATIONS.componentNames) {
      for (const c of m.ours) expect(b.model.components.map((x) => x.componentName)).toContain(c);
    }
  });

  test('matched rows match on owner, path and failure policy', () => {
    const row = (key: string) => comparison.rows.find((r) => r.key === key)!;
    expect(row('kserve/InferenceService').status).toBe('match');
    expect(row('kserve validating clusterservingruntime.kserve-webhook-server.validator /validate-serving-kserve-io-v1alpha1-clusterservingruntime').status).toBe('match');
    expect(row('distributed-workloads validating vworkload.kb.io /validate-kueue-x-k8s-io-v1beta2-workload').ours).toMatch(/^kueue validating vworkload\.kb\.io .* Fail$/);
  });
});

describe('compareArchitecture', () => {
  const doc = [
    '# CRD Ownership Map',
    '| Owner | CRDs | Count |', '|---|---|---|',
    '| kserve | InferenceService, Nope | 2 |',
    'Dependencies¶',
    '| From | To | Type |', '|---|---|---|',
    '| modelmesh-serving | kserve | watches-crd:InferenceService |',
    '| Component | Webhooks |', '|---|---|',
    '| kserve | 1 |',
    '| Webhook | Type | Owner | Target Type | Path | Failure Policy |', '|---|---|---|---|---|---|',
    // A shifted row: the path under Target Type and the policy under Path, as the document has them.
    '| inferenceservice.kserve-webhook-server.validator | validating | kserve | /validate-serving-kserve-io-v1beta1-inferenceservice | Ignore | |',
  ].join('\n');

  test('parses tables generically: heading, header, rows', () => {
    const tables = parseMarkdownTables(doc);
    expect(tables.map((t) => [t.heading, t.header[0], t.rows.length])).toEqual([
      ['CRD Ownership Map', 'Owner', 1], ['Dependencies', 'From', 1], ['Dependencies', 'Component', 1], ['Dependencies', 'Webhook', 1],
    ]);
  });

  test('a missing CRD, a different failure policy and a count are undeclared; a declaration of a matching row is stale', () => {
    const f = architectureFactsOf(doc);
    expect(f.webhooks[0]).toMatchObject({ path: '/validate-serving-kserve-io-v1beta1-inferenceservice', failurePolicy: 'Ignore' });
    const c = compareArchitecture(arch, f, { componentNames: [], differences: [{ table: 'crd', key: 'kserve/InferenceService', class: 'defect', reason: 'declared although it matches' }] });
    expect(c.undeclared.map((r) => `${r.table} ${r.key}`)).toEqual([
      'crd kserve/Nope',
      'webhook kserve validating inferenceservice.kserve-webhook-server.validator /validate-serving-kserve-io-v1beta1-inferenceservice',
      'webhook-count kserve',
    ]);
    expect(c.rows.find((r) => r.table === 'dependency')!.status).toBe('match');
    expect(c.stale.map((d) => d.key)).toEqual(['kserve/InferenceService']);
  });

  test('a document without the tables is refused with what is missing', () => {
    expect(() => architectureFactsOf('# nothing here\n')).toThrow(/no CRD ownership table \(a table with columns Owner, CRDs\)/);
  });
});

describe('REPORT.md of an opendatahub platform given the architecture document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odh-arch-'));
  const doc = path.join(dir, 'arch.md');
  fs.writeFileSync(doc, [
    '| Owner | CRDs | Count |', '|---|---|---|', '| kserve | InferenceService, LocalModelCache, NoSuchKind | 3 |', '',
    '| From | To | Type |', '|---|---|---|', '| odh-cli | opendatahub-operator | go-module |', '',
    '| Component | Webhooks |', '|---|---|', '| kserve | 15 |', '',
    '| Webhook | Type | Owner | Target Type | Path | Failure Policy |', '|---|---|---|---|---|---|', '| vjob.kb.io | validating | distributed-workloads | /validate-batch-v1-job | Fail | |',
  ].join('\n'));

  test('has the comparison section, each row classified by the platform\'s declarations', () => {
    const report = build((app) => new OpenDataHubPlatform(app, 'odh', { architectureDocument: doc })).files.get('REPORT.md')!;
    expect(report).toContain('\n## Compared with the architecture\n');
    expect(report).toContain('| kserve: InferenceService | kserve (inferenceservices.serving.kserve.io) | match |  |');
    expect(report).toContain('| kserve: NoSuchKind | not served | undeclared |  |');
    expect(report).toMatch(/\| odh-cli -> opendatahub-operator \(go-module\) \| none \| repository-artefact \| odh-cli is a command-line tool/);
    expect(report).toMatch(/\| distributed-workloads validating vjob\.kb\.io \/validate-batch-v1-job Fail \| kueue validating vjob\.kb\.io \/validate-batch-v1-job Fail \| match \|/);
    // Without the document, no section.
    expect(b.files.get('REPORT.md')).not.toContain('Compared with the architecture');
  });

  test('a path that cannot be read fails naming the prop, the path and the fix', () => {
    expect(problemsOf(() => new OpenDataHubPlatform(new App(), 'odh', { architectureDocument: path.join(dir, 'missing.md') }))).toEqual([
      `odh: architectureDocument '${path.join(dir, 'missing.md')}' cannot be read (ENOENT): give the path of the architecture document, or leave architectureDocument out`,
    ]);
  });
});
