import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { GatewayApiInferenceExtension } from '../constructs/gateway-api-inference-extension';
import { Katib } from '../constructs/katib/katib';
import { KServe } from '../constructs/kserve';
import { Kueue } from '../constructs/kueue';
import { CERT_MANAGER } from '../lib/component';
import { Platform } from '../lib/platform';
import { recordedProblems } from '../lib/problems';
import { PlatformApp, runApp } from '../lib/synth';

// Day two 2: a wrong value set in a constructor ended in a Node stack trace (the path printed
// twice) at the first one; only synth-time checks got the clean problem list. In a PlatformApp,
// construction problems are collected and reported by runApp with the others, all at once.

function badApp(outdir: string): PlatformApp {
  const app = new PlatformApp({ outdir, gitops: false });
  const p = new Platform(app, 'mine', { name: 'mine', prerequisites: [CERT_MANAGER], images: { registryMirror: 'https://Registry.example.com/ml' } });
  new Kueue(p, 'kueue', { replicas: -1 });
  new GatewayApiInferenceExtension(p, 'gateway-api-inference-extension');
  new KServe(p, 'kserve', { localModel: false, replicas: 2.5 });
  new Katib(p, 'katib', { namespace: 'Acme_Katib' });
  return app;
}

test('constructor problems of a PlatformApp are collected and reported by runApp, each once, with the fix, no stack trace (day two 2)', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'construction-problems-'));
  const app = badApp(outdir);
  let stderr = '';
  const code = runApp(app, { stderr: { write: (s: string) => (stderr += s) }, env: {} });
  process.exitCode = 0;
  expect(code).toBe(1);
  expect(stderr.split('\n')).toEqual([
    'synth failed: 5 problems:',
    "  - mine: images.registryMirror 'https://Registry.example.com/ml' must be host[:port][/path-component]... (the OCI distribution reference grammar: host a DNS name with a dot, 'localhost' or host:port, no scheme; path components lower-case [a-z0-9] joined by '.', '_', '__' or '-'), e.g. mirror.example.com/ml",
    '  - mine/kueue/ControllerManager: replicas -1 must be a whole number >= 0 (0 stops the controller)',
    '  - mine/kserve/ControllerManager: replicas 2.5 must be a whole number >= 0 (0 stops the controller)',
    '  - mine/kserve/LLMInferenceServiceController: replicas 2.5 must be a whole number >= 0 (0 stops the controller)',
    "  - mine/katib: namespace 'Acme_Katib' is not a valid namespace name (lower-case DNS label, at most 63 characters), e.g. 'acme-katib'",
    '',
  ]);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(fs.readdirSync(outdir)).toEqual([]);
  fs.rmSync(outdir, { recursive: true, force: true });
});

test('under a plain App (unit tests, buildPlatform by hand) a construction problem still throws at once', () => {
  const p = new Platform(new App(), 'p', { name: 'p', prerequisites: [CERT_MANAGER] });
  expect(() => new Kueue(p, 'kueue', { replicas: -1 })).toThrow('p/kueue/ControllerManager: replicas -1 must be a whole number >= 0 (0 stops the controller)');
  expect(recordedProblems(p)).toEqual([]);
});

test('an error thrown while a PlatformApp program builds its constructs ends as a failed synth: the list, exit 1, no stack trace (day two 2)', () => {
  const dir = fs.mkdtempSync(path.join(__dirname, '.construction-'));
  const file = path.join(dir, 'main.ts');
  const lib = path.relative(dir, path.join(__dirname, '..', 'lib')).split(path.sep).join('/');
  fs.writeFileSync(file, `
import { CERT_MANAGER } from '${lib}/component';
import { Platform } from '${lib}/platform';
import { PlatformApp, runApp } from '${lib}/synth';
const app = new PlatformApp({ outdir: 'never-written', gitops: false });
new Platform(app, 'first', { name: 'first', prerequisites: [CERT_MANAGER], images: { registryMirror: 'https://Mirror' } });
new Platform(app, 'second', { name: 'second', kubernetesVersion: '1.20' });
runApp(app);
`);
  const env: Record<string, string | undefined> = { ...process.env, DEBUG: '' };
  delete env.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), file], { cwd: dir, encoding: 'utf8', env });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^synth failed: 2 problems:\n {2}- first: images\.registryMirror 'https:\/\/Mirror' must be host/);
  expect(r.stderr).toContain("\n  - second: kubernetesVersion '1.20' is older than");
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr.match(/second: kubernetesVersion/g)).toHaveLength(1);
}, 60_000);
