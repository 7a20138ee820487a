import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/check-types-and-lint.mjs on a project of three small files (not on this repository:
// that is the test task's own run of it), with a type-aware rule as the repository has.
const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'check-types-and-lint.mjs');

const TSCONFIG = { compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['es2022'], module: 'commonjs', types: [], skipLibCheck: true, isolatedModules: true }, include: ['src/**/*.ts'] };
const ESLINTRC = { root: true, parser: '@typescript-eslint/parser', plugins: ['@typescript-eslint'], rules: { '@typescript-eslint/no-floating-promises': 'error', 'no-var': 'error' } };
const SYNC = 'export function refresh(): void {\n  return;\n}\n';
const ASYNC = 'export async function refresh(): Promise<void> {\n  return;\n}\n';
const CALLER = 'import { refresh } from \'./refresh\';\n\nexport function caller(): number {\n  refresh();\n  return 1;\n}\n';

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-types-'));
  const all = { 'tsconfig.json': JSON.stringify(TSCONFIG), '.eslintrc.json': JSON.stringify(ESLINTRC), ...files };
  for (const [name, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
// Each run starts Node, TypeScript and ESLint (about 1.5 s of CPU): slow on a busy machine.
const check = (dir: string, ...targets: string[]) => spawnSync(process.execPath, [SCRIPT, '--cache', 'cache', ...(targets.length ? targets : ['src'])], { cwd: dir, encoding: 'utf8' });

describe('scripts/check-types-and-lint.mjs (the test task\'s type check and lint, on one program)', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('reports type errors as tsc does (file:line:col, the line quoted) and lint errors of type-aware rules, and exits 1; a file named to be linted that the tsconfig leaves out is linted, its type errors not reported', () => {
    dir = project({
      'src/refresh.ts': `${ASYNC}export const limit: number = 'ten';\n`,
      'src/caller.ts': CALLER,
      'tool.ts': 'import { refresh } from \'./src/refresh\';\n\nrefresh();\nexport const n: number = \'x\';\n',
    });
    const r = check(dir, 'src', 'tool.ts');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('src/refresh.ts:4:14 - error TS2322: Type \'string\' is not assignable to type \'number\'.\n\n4 export const limit: number = \'ten\';\n               ~~~~~\n');
    expect(r.stdout).toContain('Found 1 type error in 1 file.');
    expect(r.stdout).toMatch(/caller\.ts\n +4:3 +error +Promises must be awaited[^\n]*@typescript-eslint\/no-floating-promises/);
    expect(r.stdout).toMatch(/tool\.ts\n +3:1 +error[^\n]*no-floating-promises/);
    expect(r.stdout).not.toContain('tool.ts:4');
    expect(r.stdout).toMatch(/\(1 type error, 2 lint errors\)/);
    // No colours when the output is not a terminal (the test task's log).
    expect(r.stdout).not.toContain('\x1b[');
  }, 120_000);

  test('an unchanged file is linted again when an edit changes the types it reads, and a finding stays until fixed', () => {
    dir = project({ 'src/refresh.ts': SYNC, 'src/caller.ts': CALLER });
    expect(check(dir).status).toBe(0);
    // refresh() now returns a promise: caller.ts's text did not change, its call is now a floating promise.
    fs.writeFileSync(path.join(dir, 'src', 'refresh.ts'), ASYNC);
    const changed = check(dir);
    expect(changed.status).toBe(1);
    expect(changed.stdout).toMatch(/caller\.ts\n +4:3 +error[^\n]*no-floating-promises/);
    // Nothing changed since: the finding comes from the results kept between runs, and still fails.
    const again = check(dir);
    expect(again.status).toBe(1);
    expect(again.stdout).toContain('0 type-checked again');
    expect(again.stdout).toMatch(/caller\.ts\n +4:3 +error[^\n]*no-floating-promises/);
    fs.writeFileSync(path.join(dir, 'src', 'refresh.ts'), SYNC);
    expect(check(dir).status).toBe(0);
  }, 120_000);

  test('--package: a global of a type package only the project loads (jest\'s), in a file the package compiles or one it imports, is a type error', () => {
    // The project loads @types/jest (from this repository), the package's tsconfig no type package.
    const typeRoots = [path.join(__dirname, '..', '..', 'node_modules', '@types')];
    dir = project({
      'tsconfig.json': JSON.stringify({ ...TSCONFIG, compilerOptions: { ...TSCONFIG.compilerOptions, typeRoots, types: ['jest'] } }),
      'tsconfig.package.json': JSON.stringify({ compilerOptions: { ...TSCONFIG.compilerOptions, types: [] }, include: ['src/shipped.ts'] }),
      'src/shipped.ts': 'import { helper } from \'./helper\';\n\nexport const checks = { expect, helper };\nexport function mock(): jest.Mock | undefined {\n  const test = 1;\n  return test ? undefined : undefined;\n}\n',
      'src/helper.ts': 'export const helper = (): unknown => describe;\n',
      'src/unshipped.test.ts': 'test(\'is a test\', () => expect(1).toBe(1));\n',
    });
    const r = spawnSync(process.execPath, [SCRIPT, '--cache', 'cache', '--package', 'tsconfig.package.json', 'src'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    const found = r.stdout.split('\n').filter((l) => / - error TS2304/.test(l));
    expect(found).toEqual([
      'src/helper.ts:1:38 - error TS2304: Cannot find name \'describe\' where tsconfig.package.json compiles the package: the type package \'jest\' declares it, which tsconfig.json\'s "types" load and tsconfig.package.json\'s do not.',
      expect.stringMatching(/^src\/shipped\.ts:3:25 - error TS2304: Cannot find name 'expect' /),
      expect.stringMatching(/^src\/shipped\.ts:4:25 - error TS2304: Cannot find name 'jest' /),
    ]);
  }, 120_000);

  test('bad arguments: exit 2 with the usage', () => {
    const r = spawnSync(process.execPath, [SCRIPT, '--cache'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^check-types-and-lint: --cache needs a value\nusage: /);
  });
});
