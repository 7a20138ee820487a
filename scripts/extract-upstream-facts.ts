// Extracts the facts the parity test compares (lib/parity.ts: webhooks, RBAC per workload,
// containers with env values, probes and resources, volumes, Services, monitors, ConfigMap
// values, custom resources' texts) from upstream's rendered default installs, into
// test/parity/facts/<install>.json, one file per install, with where it came from.
// Facts only: names, paths, flags, triples, ports, short values; a long or multi-line value
// (a script, a JSON or YAML document) only as the sha256 of its normalized text, no upstream text.
//
// Run by a developer (the installs folder is not part of the project; nothing reads it at
// build, synth or test time):
//   npx projen gen:parity-facts -- ../shared/upstream/installs
//   ts-node --transpile-only scripts/extract-upstream-facts.ts ../shared/upstream/installs [--check]
// The folder holds <install>.yaml files and _sources-*.json files that record, per install,
// the repository, tag (ref), commit, rendered folder and post-processing.
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { extractFacts, ParityFactsFile, PARITY_FACTS_VERSION } from '../lib/parity';

const SCRIPT = 'scripts/extract-upstream-facts.ts';
const OUT = path.join(__dirname, '..', 'test', 'parity', 'facts');

function usage(msg: string): never {
  console.error(`${msg}\nusage: ts-node --transpile-only ${SCRIPT} <installs folder> [--check]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const dir = args.find((a) => !a.startsWith('--'));
if (!dir) usage('the installs folder is required');
if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) usage(`no such folder: ${dir}`);

interface SourceRecord {
  repo: string;
  ref?: string;
  tag?: string;
  commit: string;
  file?: string;
  renderedFrom?: string;
  postProcessing?: string;
}
const sources = new Map<string, SourceRecord>();
for (const f of fs.readdirSync(dir).filter((x) => /^_sources-.*\.json$/.test(x)).sort()) {
  for (const [name, rec] of Object.entries(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, SourceRecord>)) sources.set(name, rec);
}

function loadObjects(file: string): any[] {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS({ maxAliasCount: -1 }));
  const out: any[] = [];
  for (const d of docs) {
    if (!d || typeof d !== 'object' || !d.kind || !d.apiVersion) continue;
    for (const o of d.kind === 'List' && Array.isArray(d.items) ? d.items : [d]) out.push(o);
  }
  return out;
}

function imagesOf(objs: any[]): string[] {
  const images = new Set<string>();
  for (const o of objs) {
    const spec = o.spec?.template?.spec;
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) if (c.image) images.add(c.image);
  }
  return [...images].sort();
}

fs.mkdirSync(OUT, { recursive: true });
let stale = 0;
const installs = fs.readdirSync(dir).filter((x) => x.endsWith('.yaml')).sort();
for (const file of installs) {
  const install = file.replace(/\.yaml$/, '');
  const src = sources.get(install);
  if (!src) usage(`${file}: no entry '${install}' in the folder's _sources-*.json files`);
  const tag = src.ref ?? src.tag;
  if (!tag) usage(`${file}: its source record has neither ref nor tag`);
  const objs = loadObjects(path.join(dir, file));
  const out: ParityFactsFile = {
    source: {
      install,
      repository: src.repo,
      tag,
      commit: src.commit,
      renderedFrom: src.renderedFrom ?? '',
      ...(src.postProcessing && src.postProcessing !== 'none' ? { postProcessing: src.postProcessing } : {}),
      images: imagesOf(objs),
    },
    extractor: { script: SCRIPT, version: PARITY_FACTS_VERSION },
    facts: extractFacts(objs),
  };
  // One fact per line: reviewable diffs when a pin moves.
  const text = `{\n  "source": ${JSON.stringify(out.source, null, 2).replace(/\n/g, '\n  ')},\n  "extractor": ${JSON.stringify(out.extractor)},\n  "facts": [\n${out.facts.map((f) => `    ${JSON.stringify(f)}`).join(',\n')}\n  ]\n}\n`;
  const target = path.join(OUT, `${install}.json`);
  if (check) {
    if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) {
      console.error(`${path.relative(process.cwd(), target)} is not current: run npx projen gen:parity-facts -- ${dir}`);
      stale++;
    }
    continue;
  }
  fs.writeFileSync(target, text);
  console.log(`${path.relative(process.cwd(), target)}: ${out.facts.length} facts (${src.repo}@${tag})`);
}
if (stale) process.exit(1);
