import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PHASES } from '../lib/phases';

// The README's "Compose your own platform" example is code we run, not prose that rots.
const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

function exampleSource(heading = 'Compose your own platform'): string {
  const section = README.split(`## ${heading}`)[1]?.split('\n## ')[0];
  const match = /```ts\n([\s\S]*?)```/.exec(section ?? '');
  if (!match) throw new Error(`README.md has no ts example under "${heading}"`);
  // The example imports from the repository root; this file runs from test/.
  return match[1].replace(/from '\.\//g, "from '../");
}

describe('README', () => {
  test('opens with a quick start of exactly two commands: synth and test', () => {
    const quick = README.split('## Quick start')[1].split('\n## ')[0];
    const commands = /```sh\n([\s\S]*?)```/.exec(quick)![1].trim().split('\n');
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^npm ci && npx cdk8s synth\b/);
    expect(commands[1]).toMatch(/^npm ci && npx projen test\b/);
  });

  test('right after the quick start: how to deploy (Argo CD and Flux root objects that synth writes), then where to go next (day two 8, 15)', () => {
    const sections = README.split('\n## ').map((x) => x.split('\n')[0]);
    const quick = sections.indexOf('Quick start');
    expect(sections.slice(quick + 1, quick + 3)).toEqual(['Deploy with Argo CD or Flux', 'Next: your own platform, deploy it, upgrade it']);
    const deploy = README.split('## Deploy with Argo CD or Flux')[1].split('\n## ')[0];
    const commands = /```sh\n([\s\S]*?)```/.exec(deploy)![1].trim().split('\n');
    expect(commands).toHaveLength(3);
    expect(commands.map((c) => /-f dist\/serving\/(\S+)/.exec(c)?.[1])).toEqual(['argocd/argocd-cm-health.yaml', 'argocd/root.yaml', 'flux/root.yaml']);
    const next = README.split('## Next: your own platform, deploy it, upgrade it')[1].split('\n## ')[0];
    for (const doc of ['docs/components.md', 'docs/upgrade.md']) {
      expect(next).toContain(`(${doc})`);
      expect(fs.existsSync(path.join(__dirname, '..', doc))).toBe(true);
    }
    expect(next).toContain('images.overrides');
  });

  test('the phase table lists every phase folder synth writes (issue 17.16)', () => {
    const table = README.split('## What synth writes')[1].split('\n\n')[2];
    const folders = [...table.matchAll(/^\| `(\d\d-[a-z-]+)\/` \|/gm)].map((m) => m[1]);
    expect(folders).toEqual(PHASES);
  });

  test('says how to run a consumer project, and where misspelled props are caught', () => {
    const running = README.split('**Running it.**')[1]?.split('\n\n')[0] ?? '';
    expect(running).toContain('tsc');
    expect(running).toContain('tsx');
    expect(running).toMatch(/misspelled/);
  });

  test("the consumer's cdk8s.yaml shows tsc's errors: the cdk8s CLI drops the app's stdout (day two 4)", () => {
    const running = README.split('**Running it.**')[1]?.split('\n## ')[0] ?? '';
    const yaml = /```yaml\n([\s\S]*?)```/.exec(running)?.[1] ?? '';
    const app = /^app: (.*)$/m.exec(yaml)?.[1] ?? '';
    expect(app).toMatch(/\bnpx tsc\b/);
    // Every tsc run in the command writes to stderr.
    for (const part of app.split('&&').filter((p) => /\btsc\b/.test(p))) expect(part).toMatch(/1>&2|>&2/);
  });

  test('the compose-your-own-platform example synthesizes and passes every check', () => {
    const file = path.join(__dirname, '.readme-example.ts');
    fs.writeFileSync(file, exampleSource());
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { result } = require('./.readme-example');
      const objs = result.model.objects.map((o: any) => o.json);
      const controller = objs.find((o: any) => o.kind === 'Deployment' && o.metadata.name === 'kserve-controller-manager');
      expect(controller.metadata.namespace).toBe('model-serving');
      expect(controller.spec.replicas).toBe(2);
      expect(controller.spec.template.spec.containers[0].image).toBe('registry.internal.example.com/mirror/kserve/kserve-controller:v0.20.0');
      expect(objs.filter((o: any) => o.kind === 'ClusterServingRuntime').map((o: any) => o.metadata.name)).toEqual(['kserve-sklearnserver', 'kserve-huggingfaceserver']);
      expect(objs.some((o: any) => o.kind === 'Issuer')).toBe(false);
      expect(objs.find((o: any) => o.kind === 'Certificate').spec.issuerRef).toEqual({ kind: 'ClusterIssuer', name: 'internal-ca' });
      expect(objs.find((o: any) => o.kind === 'InferencePool').metadata.namespace).toBe('model-serving');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  test('the customize-a-distribution example synthesizes, passes every check and shows each customization', () => {
    const source = exampleSource('Customize a distribution');
    expect(source.trim().split('\n').length).toBeLessThan(30);
    // Its own file (jest keeps a file's first contents for the whole test file), in a
    // git-ignored folder one level down.
    const dir = path.join(__dirname, '.cache');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'readme-customize.ts');
    fs.writeFileSync(file, source.replace(/from '\.\.\//g, "from '../../"));
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { result } = require('./.cache/readme-customize');
      const objs = result.model.objects.map((o: any) => o.json);
      const deployment = (name: string) => objs.find((o: any) => o.kind === 'Deployment' && o.metadata.name === name);
      const ids = result.model.components.map((c: any) => c.componentName);
      expect(ids).toContain('kserve');
      expect(ids).not.toContain('modelmesh-serving');
      expect(ids).not.toContain('llama-stack-k8s-operator');
      const kserve = deployment('kserve-controller-manager');
      expect(kserve.metadata.namespace).toBe('odh-apps');
      expect(kserve.spec.replicas).toBe(2);
      expect(kserve.spec.template.spec.containers[0].resources.limits.memory).toBe('2Gi');
      // images.overrides pins it by digest (day two 15: the README had no overrides example).
      expect(kserve.spec.template.spec.containers[0].image).toBe('registry.internal.example.com/mirror/kserve/kserve-controller@sha256:4f1c5a0e3b2d6c8e9a7b1d3f5e7c9a1b3d5f7e9c1a3b5d7f9e1c3a5b7d9f1e3c');
      expect(deployment('odh-model-controller').spec.template.spec.priorityClassName).toBe('system-cluster-critical');
      const images = objs.filter((o: any) => o.kind === 'Deployment').flatMap((d: any) => d.spec.template.spec.containers.map((c: any) => c.image));
      expect(images.filter((i: string) => !i.startsWith('registry.internal.example.com/mirror/'))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the package example runs as a PlatformApp through runApp and writes the platform with its GitOps files', () => {
    const source = exampleSource('Use it as a package');
    expect(source).toContain('runApp(app);');
    const dir = path.join(__dirname, '.cache');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'readme-package.ts');
    fs.writeFileSync(file, source.replace(/from 'cdk8s-mlplatform'/g, "from '../../index'"));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mlp-readme-package-'));
    const before = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = out;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('./.cache/readme-package');
      expect(process.exitCode ?? 0).toBe(0);
      const files = fs.readdirSync(path.join(out, 'mine'));
      expect(files).toEqual(expect.arrayContaining(['REPORT.md', 'kustomization.yaml', 'argocd', 'flux', '00-foundation', '10-controllers']));
      const root = fs.readFileSync(path.join(out, 'mine', 'argocd', 'root.yaml'), 'utf8');
      expect(root).toContain('repoURL: https://git.example.com/platform.git');
    } finally {
      if (before === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = before;
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
