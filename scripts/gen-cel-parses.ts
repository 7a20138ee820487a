/**
 * Writes lib/validation/cel-parses.json, the CEL parse table (lib/validation/cel-table.ts):
 * the syntax tree @bufbuild/cel's parser gives for every CEL expression that the checks of the
 * default platforms parse (CRD rules and message expressions, admission policies'
 * expressions), keyed by the expression's text, with the versions of the parser. Derived from
 * the platforms themselves: each is built with every check and nothing reused, and what was
 * parsed is parsed again here. Run with `npx projen gen:cel-parses`; `--check` writes nothing
 * and exits 1 when regenerating would change the file (the test task runs it).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '@bufbuild/cel';
import { App } from 'cdk8s';
import { buildPlatform } from '../lib/synth';
import { parsedCelTexts } from '../lib/validation/cel';
import { celParserVersion, encodeTree } from '../lib/validation/cel-table';
import { DEFAULT_PLATFORMS } from '../platforms';

// Every check runs (no verdicts kept from before), so every expression is parsed.
process.env.MLP_SYNTH_CACHE = '0';
for (const p of DEFAULT_PLATFORMS) buildPlatform(p.create(new App({ outdir: '/nonexistent' })));
const texts = parsedCelTexts().sort();
const lines = texts.map((t) => `    ${JSON.stringify(t)}: ${JSON.stringify(encodeTree(parse(t)))}`);
const text = `{\n  "parser": ${JSON.stringify(celParserVersion())},\n  "expressions": {\n${lines.join(',\n')}\n  }\n}\n`;
const FILE = path.join(__dirname, '..', 'lib', 'validation', 'cel-parses.json');
const file = path.relative(process.cwd(), FILE);
const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '';

if (process.argv.includes('--check')) {
  if (text !== current) {
    process.stderr.write(`${file} is not current (the CEL expressions of the default platforms, or the parser's version, changed): run \`npx projen gen:cel-parses\`\n`);
    process.exit(1);
  }
} else {
  fs.writeFileSync(FILE, text);
  process.stdout.write(`${file}: ${texts.length} expressions, ${text.length} bytes\n`);
}
