/* eslint-disable no-console */
// Extracts the validation constraints of upstream's CRDs (lib/crd-constraints.ts: path,
// keyword, value per CRD version; no descriptions) from upstream's rendered default installs
// into test/parity/crd-constraints/<install>.json, one file per install that ships CRDs.
//
// Run by a developer (the installs folder is not part of the project; nothing reads it at
// build, synth or test time):
//   ts-node --transpile-only scripts/extract-crd-constraints.ts ../shared/upstream/installs [--check]
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { constraintFacts, CrdConstraintsFile, storeFacts, StoredVersion } from '../lib/crd-constraints';
import { JSONSchemaProps } from '../lib/schema/types';

const SCRIPT = 'scripts/extract-crd-constraints.ts';
const OUT = path.join(__dirname, '..', 'test', 'parity', 'crd-constraints');

const args = process.argv.slice(2);
const check = args.includes('--check');
const dir = args.find((a) => !a.startsWith('--'));
if (!dir || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
  console.error(`usage: ts-node --transpile-only ${SCRIPT} <installs folder> [--check]`);
  process.exit(2);
}

interface CrdObject {
  kind?: string;
  metadata?: { name?: string };
  spec?: { versions?: Array<{ name: string; schema?: { openAPIV3Schema?: JSONSchemaProps } }> };
}

const expected = new Map<string, string>();
const seen = new Map<string, string>();
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.yaml')).sort()) {
  const install = f.replace(/\.yaml$/, '');
  const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJS({ maxAliasCount: -1 }) as CrdObject | null);
  const crds: CrdConstraintsFile['crds'] = {};
  const texts = new Map<string, string>();
  for (const d of docs) {
    if (!d || d.kind !== 'CustomResourceDefinition' || !d.metadata?.name) continue;
    const versions: Record<string, StoredVersion> = {};
    for (const v of d.spec?.versions ?? []) versions[v.name] = storeFacts(constraintFacts(v.schema?.openAPIV3Schema ?? {}));
    // One path per line: diffs stay readable.
    const vs = Object.entries(versions).map(([v, paths]) => `  ${JSON.stringify(v)}: {\n${Object.entries(paths).map(([p, k]) => `   ${JSON.stringify(p)}: ${JSON.stringify(k)}`).join(',\n')}\n  }`);
    const text = `{\n${vs.join(',\n')}\n }`;
    const key = `${d.metadata.name}\u0000${text}`;
    const first = seen.get(key);
    if (first) {
      crds[d.metadata.name] = { sameAs: first };
      texts.set(d.metadata.name, JSON.stringify({ sameAs: first }));
    } else {
      seen.set(key, install);
      crds[d.metadata.name] = versions;
      texts.set(d.metadata.name, text);
    }
  }
  if (!Object.keys(crds).length) continue;
  const generatedBy = `${SCRIPT} from upstream's rendered ${install} install; do not edit`;
  const lines = [...texts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([crd, text]) => ` ${JSON.stringify(crd)}: ${text}`);
  expected.set(`${install}.json`, `{"generatedBy": ${JSON.stringify(generatedBy)}, "install": ${JSON.stringify(install)}, "crds": {\n${lines.join(',\n')}\n}}\n`);
}

if (check) {
  const stale = [...expected].filter(([f, text]) => !fs.existsSync(path.join(OUT, f)) || fs.readFileSync(path.join(OUT, f), 'utf8') !== text).map(([f]) => f);
  if (stale.length) {
    console.error(`stale: ${stale.join(', ')}: run ${SCRIPT}`);
    process.exit(1);
  }
  console.log(`up to date: ${expected.size} files in ${OUT}`);
} else {
  fs.mkdirSync(OUT, { recursive: true });
  for (const f of fs.readdirSync(OUT)) if (f.endsWith('.json') && !expected.has(f)) fs.rmSync(path.join(OUT, f));
  for (const [f, text] of expected) fs.writeFileSync(path.join(OUT, f), text);
  console.log(`wrote ${expected.size} files to ${OUT}`);
}
