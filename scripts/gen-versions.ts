/**
 * Writes versions.json, the versions table as data, from the TypeScript image tables of
 * every component of the default platforms (lib/versions.ts). Tags and digests that
 * Renovate bumped are kept while the construct models the same release. Run with
 * `npx projen gen:versions`; `--check` writes nothing and exits 1 when regenerating would
 * change the file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { Platform } from '../lib/platform';
import { versionEntries, VersionsFile, versionsFileText } from '../lib/versions';
import { DEFAULT_PLATFORMS } from '../platforms';

const FILE = path.join(__dirname, '..', 'versions.json');

const app = new App({ outdir: '/nonexistent' });
const components = DEFAULT_PLATFORMS.map((p) => p.create(app)).flatMap((p: Platform) => p.components);
const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : '';
const previous: VersionsFile = current ? JSON.parse(current) : { images: [] };
const next = versionEntries(components, previous);
const text = versionsFileText(next);

if (process.argv.includes('--check')) {
  if (text !== current) {
    const key = (e: { construct: string; key: string }) => `${e.construct}/${e.key}`;
    const before = new Map(previous.images.map((e) => [key(e), JSON.stringify(e)]));
    const after = new Map(next.images.map((e) => [key(e), JSON.stringify(e)]));
    const lines = [
      ...[...after.keys()].filter((k) => !before.has(k)).map((k) => `  missing: ${k}`),
      ...[...before.keys()].filter((k) => !after.has(k)).map((k) => `  no such image: ${k}`),
      ...[...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k)).map((k) => `  out of date: ${k}`),
    ];
    process.stderr.write(`versions.json is not in sync with the components' image tables:\n${lines.join('\n') || '  (formatting)'}\nrun \`npx projen gen:versions\`\n`);
    process.exit(1);
  }
} else {
  fs.writeFileSync(FILE, text);
  process.stdout.write(`versions.json: ${next.images.length} images\n`);
}
