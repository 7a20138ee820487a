import * as fs from 'fs';
import * as path from 'path';

// The README's "Compose your own platform" example is code we run, not prose that rots.
const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

function exampleSource(): string {
  const section = README.split('## Compose your own platform')[1];
  const match = /```ts\n([\s\S]*?)```/.exec(section ?? '');
  if (!match) throw new Error('README.md has no ts example under "Compose your own platform"');
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
});
