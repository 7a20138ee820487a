// Extracts the facts of an architecture document (Markdown tables: CRD ownership, cross-component
// dependencies, webhooks per component, named webhooks with paths and failure policies) into
// test/architecture/<name>.json, which test/architecture/*.test.ts holds a platform to.
// Facts only (names, kinds, paths, policies, counts); the document's text is not copied.
//
// Run by a developer (the document is not part of the project; nothing reads it at build,
// synth or test time):
//   ts-node --transpile-only scripts/extract-architecture-facts.ts <document.md> [--name opendatahub] [--check]
import * as fs from 'fs';
import * as path from 'path';
import { architectureFactsOf } from '../lib/architecture-compare';

const SCRIPT = 'scripts/extract-architecture-facts.ts';
const OUT = path.join(__dirname, '..', 'test', 'architecture');

function usage(msg: string): never {
  console.error(`${msg}\nusage: ts-node --transpile-only ${SCRIPT} <document.md> [--name NAME] [--check]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const nameAt = args.indexOf('--name');
const name = nameAt >= 0 ? args[nameAt + 1] : 'opendatahub';
if (!name || !/^[a-z0-9-]+$/.test(name)) usage(`--name: '${name}' is not a file name (lower-case letters, digits, dashes)`);
const file = args.find((a, i) => !a.startsWith('--') && (nameAt < 0 || i !== nameAt + 1));
if (!file) usage('the architecture document is required');
if (!fs.existsSync(file) || !fs.statSync(file).isFile()) usage(`no such file: ${file}`);

const facts = architectureFactsOf(fs.readFileSync(file, 'utf8'));
const text = JSON.stringify({ source: path.basename(file), generatedBy: SCRIPT, ...facts }, null, 2) + '\n';
const out = path.join(OUT, `${name}.json`);
if (check) {
  const old = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
  if (old !== text) {
    console.error(`${path.relative(process.cwd(), out)} is out of date: run ${SCRIPT} ${file} --name ${name}`);
    process.exit(1);
  }
  console.log(`${path.relative(process.cwd(), out)} is up to date`);
} else {
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(out, text);
  console.log(`${path.relative(process.cwd(), out)}: ${facts.crdOwners.reduce((s, o) => s + o.crds.length, 0)} CRDs of ${facts.crdOwners.length} owners, ` +
    `${facts.dependencies.length} dependencies, ${facts.webhookCounts.reduce((s, c) => s + c.count, 0)} webhooks counted, ${facts.webhooks.length} named`);
}
