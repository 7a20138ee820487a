import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { RULES, validateManifests, WARNING_RULES } from '../../lib/validation';

/**
 * The corpus: test/fixtures/invalid/<RULE-ID>--<what>.yaml each breaks one rule (and only
 * that rule: every error found in it has that id); test/fixtures/valid/ holds objects the
 * API server accepts, which must give no finding at all. A fixture that needs a newer
 * Kubernetes than the default says so in a comment: `# kubernetes-version: 1.34`.
 */

const FIXTURES = join(__dirname, '..', 'fixtures');
const invalid = readdirSync(join(FIXTURES, 'invalid')).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
const valid = readdirSync(join(FIXTURES, 'valid')).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.startsWith('kustomization')).sort();

describe('invalid corpus', () => {
  test.each(invalid)('%s', (file) => {
    const expected = file.split('--')[0];
    expect(Object.keys(RULES)).toContain(expected);
    const version = /^# kubernetes-version: (\d+\.\d+)/m.exec(readFileSync(join(FIXTURES, 'invalid', file), 'utf8'))?.[1];
    const findings = validateManifests([join('invalid', file)], { cwd: FIXTURES, kubernetesVersion: version });
    const errors = findings.filter((f) => f.severity === 'error');
    if (WARNING_RULES.has(expected)) {
      expect(errors).toEqual([]);
      expect(findings.map((f) => f.rule)).toContain(expected);
    } else {
      expect(errors.length).toBeGreaterThan(0);
      expect([...new Set(errors.map((f) => f.rule))]).toEqual([expected]);
    }
    for (const f of findings) expect(f.file).toBe(join('invalid', file));
  });

  test('every rule has at least one invalid fixture', () => {
    const covered = new Set(invalid.map((f) => f.split('--')[0]));
    expect(Object.keys(RULES).filter((r) => !covered.has(r))).toEqual([]);
  });
});

describe('valid corpus', () => {
  test.each(valid)('%s', (file) => {
    expect(validateManifests([join('valid', file)], { cwd: FIXTURES })).toEqual([]);
  });

  test('the folder as a whole (kustomization.yaml skipped)', () => {
    // The corpus files are independent cases that reuse names (ml/web...): applied as one folder
    // they would overwrite each other, which K8S-DUPLICATE reports (issue 17.16). Nothing else.
    const findings = validateManifests(['valid'], { cwd: FIXTURES });
    expect(findings.filter((f) => f.rule !== 'K8S-DUPLICATE')).toEqual([]);
    for (const f of findings) expect(f.message).toMatch(/ is also defined in \S+#\d+ with different content;/);
    // Each duplicate names a file other than its own.
    for (const f of findings) expect(f.message).not.toContain(` in ${f.file}#`);
  });
});
