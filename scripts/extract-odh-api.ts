// Extracts what `OpenDataHubPlatform.fromDataScienceCluster` and `mlplatform synth --dsc` need from
// the Open Data Hub operator at the release the opendatahub platform models (v3.4.0):
//
// - platforms/opendatahub-dsc-api.json: the DataScienceCluster (v1, v2) and DSCInitialization
//   (v1, v2) spec schemas as the operator's published CRDs declare them (its OLM bundle for
//   3.4.0 in redhat-openshift-ecosystem/community-operators-prod, the CRDs controller-gen made
//   from the API types at the tag): types, enums, patterns, lengths, defaults and required
//   fields only. Descriptions are dropped; CEL rules (x-kubernetes-validations) are dropped
//   (they compare with the stored object: immutability, or monitoring storage rules the
//   operator's API server enforces); every object that lists its properties is closed
//   (additionalProperties: false), as the API server's strict field validation is.
// - test/fixtures/odh/*.yaml: real DataScienceCluster and DSCInitialization examples from the
//   operator's repository at the tag (the samples, the README's and docs/DESIGN.md's examples)
//   and the operator's defaults: the DSC and DSCI it creates itself at first install
//   (pkg/initialinstall/creation.go), written as YAML. Each fixture's header names the
//   repository, tag, commit and path it comes from.
//
// Run by a developer with local clones (nothing reads them at build, synth or test time):
//   ts-node --transpile-only scripts/extract-odh-api.ts --operator <opendatahub-operator git dir> \
//     --bundle <community-operators-prod git dir> [--check]
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';

const SCRIPT = 'scripts/extract-odh-api.ts';
const OPERATOR_REPO = 'opendatahub-io/opendatahub-operator';
const TAG = 'v3.4.0';
const BUNDLE_REPO = 'redhat-openshift-ecosystem/community-operators-prod';
const BUNDLE_DIR = 'operators/opendatahub-operator/3.4.0/manifests';
const CRDS = {
  dataScienceCluster: `${BUNDLE_DIR}/datasciencecluster.opendatahub.io_datascienceclusters.yaml`,
  dscInitialization: `${BUNDLE_DIR}/dscinitialization.opendatahub.io_dscinitializations.yaml`,
};
const ROOT = path.join(__dirname, '..');
const API_OUT = path.join(ROOT, 'platforms', 'opendatahub-dsc-api.json');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'odh');

function usage(msg: string): never {
  console.error(`${msg}\nusage: ts-node --transpile-only ${SCRIPT} --operator <git dir> --bundle <git dir> [--check]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const check = args.includes('--check');
const operatorDir = arg('--operator') ?? usage('--operator is required');
const bundleDir = arg('--bundle') ?? usage('--bundle is required');

const git = (dir: string, ...a: string[]) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const operatorCommit = git(operatorDir, 'rev-parse', `${TAG}^{commit}`).trim();
const show = (p: string) => git(operatorDir, 'show', `${operatorCommit}:${p}`);
// The bundle: the newest commit that touched the 3.4.0 folder (its release commit).
const bundleCommit = git(bundleDir, 'log', '-1', '--format=%H', 'HEAD', '--', BUNDLE_DIR).trim();
if (!bundleCommit) usage(`${bundleDir} has no ${BUNDLE_DIR}`);
const showBundle = (p: string) => git(bundleDir, 'show', `${bundleCommit}:${p}`);

// --- schemas ---------------------------------------------------------------------------------

type Schema = Record<string, unknown>;
const KEPT = new Set(['type', 'properties', 'items', 'additionalProperties', 'enum', 'pattern', 'maxLength', 'minLength', 'minimum', 'maximum', 'default', 'required', 'anyOf', 'format', 'nullable', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields']);

/** The CRD schema's facts: kept keywords only, objects with properties closed. */
function facts(s: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (!KEPT.has(k)) continue;
    if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, ps]) => [p, facts(ps)]));
    } else if (k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) {
      out[k] = facts(v as Schema);
    } else if (k === 'anyOf') {
      out.anyOf = (v as Schema[]).map(facts);
    } else {
      out[k] = v;
    }
  }
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

function specSchemas(crdPath: string): Record<string, Schema> {
  const crd = YAML.parse(showBundle(crdPath));
  const out: Record<string, Schema> = {};
  for (const v of crd.spec.versions) {
    if (!v.served) continue;
    out[v.name] = { served: true, storage: v.storage, spec: facts(v.schema.openAPIV3Schema.properties.spec) };
  }
  return out;
}

const api = {
  generatedBy: SCRIPT,
  // The operator's first-install objects (pkg/initialinstall/creation.go), as the fixtures hold them.
  defaults: { dataScienceCluster: YAML.parse(defaultDsc()), dscInitialization: YAML.parse(defaultDsci()) },
  operator: { repository: OPERATOR_REPO, tag: TAG, commit: operatorCommit },
  crds: { repository: BUNDLE_REPO, commit: bundleCommit, paths: CRDS },
  group: { dataScienceCluster: 'datasciencecluster.opendatahub.io', dscInitialization: 'dscinitialization.opendatahub.io' },
  dataScienceCluster: specSchemas(CRDS.dataScienceCluster),
  dscInitialization: specSchemas(CRDS.dscInitialization),
};

// --- fixtures --------------------------------------------------------------------------------

interface Fixture {
  readonly name: string;
  readonly source: string;
  readonly note?: string;
  readonly text: string;
}

function header(f: Omit<Fixture, 'name' | 'text'>): string {
  return [
    `# Generated by ${SCRIPT}; do not edit.`,
    `# repository: ${OPERATOR_REPO}`,
    `# tag: ${TAG}`,
    `# commit: ${operatorCommit}`,
    `# path: ${f.source}`,
    ...(f.note ? [`# ${f.note}`] : []),
  ].join('\n') + '\n';
}

/** The fenced block of a Markdown file that follows the line `heading` (trimmed) and holds a DSC or DSCI. */
function markdownBlock(file: string, heading: string): string {
  const lines = show(file).split('\n');
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) throw new Error(`${file}@${TAG}: no line '${heading}'`);
  const open = lines.findIndex((l, i) => i > at && l.startsWith('```'));
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
  const text = lines.slice(open + 1, close).join('\n') + '\n';
  if (!/kind: (DataScienceCluster|DSCInitialization)/.test(text)) throw new Error(`${file}@${TAG}: the block after '${heading}' is not a DSC or DSCI`);
  YAML.parse(text);
  return text;
}

/**
 * The DataScienceCluster the operator creates at first install (CreateDefaultDSC): each
 * component field of the Go literal with its ManagementState, named by the json tag of the
 * dscv2.Components field.
 */
function defaultDsc(): string {
  const types = show('api/datasciencecluster/v2/datasciencecluster_types.go');
  const block = types.slice(types.indexOf('type Components struct {'));
  const body = block.slice(0, block.indexOf('\n}\n'));
  const jsonName = new Map([...body.matchAll(/^\s*(\w+)\s+componentApi\.\w+\s+`json:"(\w+),omitempty"`/gm)].map((m) => [m[1], m[2]]));
  const src = show('pkg/initialinstall/creation.go');
  const fn = src.slice(src.indexOf('func CreateDefaultDSC('), src.indexOf('func CreateDefaultDSCI('));
  const components: Record<string, { managementState: string }> = {};
  for (const m of fn.matchAll(/^\t{4}(\w+): componentApi\.\w+\{[\s\S]*?ManagementState: operatorv1\.(\w+)/gm)) {
    const name = jsonName.get(m[1]);
    if (!name) throw new Error(`creation.go: component field ${m[1]} is not in dscv2.Components`);
    components[name] = { managementState: m[2] };
  }
  if (Object.keys(components).length !== jsonName.size) {
    throw new Error(`creation.go: CreateDefaultDSC sets ${Object.keys(components).length} of the ${jsonName.size} components (${[...jsonName.values()].filter((n) => !components[n]).join(', ')} missing); check the extraction`);
  }
  const name = /Name: "([^"]+)"/.exec(fn)?.[1];
  return YAML.stringify({ apiVersion: 'datasciencecluster.opendatahub.io/v2', kind: 'DataScienceCluster', metadata: { name }, spec: { components } });
}

/** The DSCInitialization the operator creates at first install (CreateDefaultDSCI), its monitoring namespace the ODH default. */
function defaultDsci(): string {
  const src = show('pkg/initialinstall/creation.go');
  const fn = src.slice(src.indexOf('func CreateDefaultDSCI('));
  const consts = show('pkg/cluster/const.go');
  const monitoringNamespace = /DefaultMonitoringNamespaceODH\s*=\s*"([^"]+)"/.exec(consts)?.[1];
  const monitoringState = /Monitoring: serviceApi\.DSCIMonitoring\{\s*ManagementSpec: common\.ManagementSpec\{ManagementState: operatorv1\.(\w+)\}/.exec(fn)?.[1];
  const metrics = /Metrics:\s+&serviceApi\.Metrics\{\}/.test(fn);
  const caState = /TrustedCABundle: &dsciv2\.TrustedCABundleSpec\{\s*ManagementState: "(\w+)",?\s*\}/.exec(fn)?.[1];
  const name = /Name: "([^"]+)"/.exec(fn)?.[1];
  if (!monitoringNamespace || !monitoringState || !metrics || !caState || !name) {
    throw new Error('creation.go: CreateDefaultDSCI no longer has the shape this script reads (monitoring, metrics, trustedCABundle, name); check the extraction');
  }
  // applicationsNamespace and customCABundle are left to the CRD defaults, as the operator leaves them.
  return YAML.stringify({
    apiVersion: 'dscinitialization.opendatahub.io/v2',
    kind: 'DSCInitialization',
    metadata: { name },
    spec: {
      monitoring: { managementState: monitoringState, namespace: monitoringNamespace, metrics: {} },
      trustedCABundle: { managementState: caState },
    },
  });
}

const FIXTURE_LIST: Fixture[] = [
  { name: 'dsc-v2-sample.yaml', source: 'config/samples/datasciencecluster_v2_datasciencecluster.yaml', text: show('config/samples/datasciencecluster_v2_datasciencecluster.yaml') },
  { name: 'dsci-v2-sample.yaml', source: 'config/samples/dscinitialization_v2_dscinitialization.yaml', text: show('config/samples/dscinitialization_v2_dscinitialization.yaml') },
  {
    name: 'dsc-v2-operator-default.yaml',
    source: 'pkg/initialinstall/creation.go (CreateDefaultDSC)',
    note: 'the DataScienceCluster the operator creates at first install, its Go literal written as YAML',
    text: defaultDsc(),
  },
  {
    name: 'dsci-v2-operator-default.yaml',
    source: 'pkg/initialinstall/creation.go (CreateDefaultDSCI), pkg/cluster/const.go (DefaultMonitoringNamespaceODH)',
    note: 'the DSCInitialization the operator creates at first install on Open Data Hub, its Go literal written as YAML',
    text: defaultDsci(),
  },
  { name: 'dsc-v2-readme-all-components.yaml', source: 'README.md ("1. Enable all components")', text: markdownBlock('README.md', '1. Enable all components') },
  { name: 'dsc-v2-readme-dashboard-workbenches.yaml', source: 'README.md ("2. Enable only Dashboard and Workbenches")', text: markdownBlock('README.md', '2. Enable only Dashboard and Workbenches') },
  { name: 'dsc-v2-readme-workbench-namespace.yaml', source: 'README.md ("3. Enable Workbenches with custom namespace")', text: markdownBlock('README.md', '3. Enable Workbenches with custom namespace') },
  { name: 'dsci-v2-readme-default.yaml', source: 'README.md ("1. Default DSCI configuration")', text: markdownBlock('README.md', '1. Default DSCI configuration') },
  { name: 'dsci-v2-readme-custom-namespace.yaml', source: 'README.md ("2. DSCI with custom application and monitoring namespace")', text: markdownBlock('README.md', '2. DSCI with custom application and monitoring namespace') },
  { name: 'dsc-v1-design-all-components.yaml', source: 'docs/DESIGN.md ("1. Enable all components in DataScienceCluster")', text: markdownBlock('docs/DESIGN.md', '1. Enable all components in DataScienceCluster') },
  { name: 'dsc-v1-design-dashboard-workbenches.yaml', source: 'docs/DESIGN.md ("2. Enable only Dashboard and Workbenches(Jupyter Notebooks) in DataScienceCluster")', text: markdownBlock('docs/DESIGN.md', '2. Enable only Dashboard and Workbenches(Jupyter Notebooks) in DataScienceCluster') },
];

const outputs = new Map<string, string>();
outputs.set(API_OUT, JSON.stringify(api, null, 2) + '\n');
for (const f of FIXTURE_LIST) outputs.set(path.join(FIXTURES, f.name), header(f) + f.text);

let stale = 0;
for (const [file, text] of outputs) {
  const rel = path.relative(process.cwd(), file);
  if (check) {
    const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (old !== text) {
      console.error(`${rel} is out of date: run ${SCRIPT} --operator ${operatorDir} --bundle ${bundleDir}`);
      stale++;
    }
    continue;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  console.log(`wrote ${rel}`);
}
if (stale) process.exit(1);
if (check) console.log(`${outputs.size} files up to date`);
