import * as fs from 'fs';
import * as path from 'path';
import { catalogueText, defaultCatalogueOf } from '../../cli/catalogue-of';

// `mlplatform list` and `help` answer from cli/catalogue.json instead of creating the default
// platforms (issue 29.2): it must be what the platforms say now.
jest.setTimeout(120_000);

test('cli/catalogue.json is current (else: npx projen gen:cli-catalogue)', () => {
  const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'cli', 'catalogue.json'), 'utf8');
  const current = catalogueText(defaultCatalogueOf());
  // Compared as data first (a readable diff), then as text (the file's layout).
  expect(JSON.parse(committed)).toEqual(JSON.parse(current));
  expect(committed).toBe(current);
});
