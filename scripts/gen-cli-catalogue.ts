/**
 * Writes cli/catalogue.json: what `mlplatform list` and `mlplatform help` show of the default
 * platforms (names, descriptions, each component with its version, namespaces, Kubernetes
 * support and images), so that they answer without creating a platform. Derived from the
 * platforms themselves (cli/catalogue-of.ts); test/cli/catalogue.test.ts fails when it is not
 * current. Run with `npx projen gen:cli-catalogue`; `--check` writes nothing and exits 1 when
 * regenerating would change the file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { catalogueText, defaultCatalogueOf } from '../cli/catalogue-of';

const FILE = path.join(__dirname, '..', 'cli', 'catalogue.json');
const text = catalogueText(defaultCatalogueOf());
if (process.argv.includes('--check')) {
  if (!fs.existsSync(FILE) || fs.readFileSync(FILE, 'utf8') !== text) {
    process.stderr.write('cli/catalogue.json is not current: run `npx projen gen:cli-catalogue`\n');
    process.exit(1);
  }
} else {
  fs.writeFileSync(FILE, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), FILE)}\n`);
}
