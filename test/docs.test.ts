import * as fs from 'fs';
import * as path from 'path';

// The how-to in docs/components.md is code we run, not prose that rots (day two 15).
const DOC = fs.readFileSync(path.join(__dirname, '..', 'docs', 'components.md'), 'utf8');

test('docs/components.md: the example component synthesizes and passes every check (day two 15)', () => {
  const source = /```ts\n([\s\S]*?)```/.exec(DOC)![1].replace(/from 'cdk8s-mlplatform'/g, "from '../index'");
  const file = path.join(__dirname, '.docs-components-example.ts');
  fs.writeFileSync(file, source);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { build } = require('./.docs-components-example');
    const objs = build.model.objects.map((o: any) => o.json);
    const deployment = objs.find((o: any) => o.kind === 'Deployment' && o.metadata.name === 'widget-controller');
    expect(deployment.metadata.namespace).toBe('widget-system');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.template.spec.containers[0].image).toBe('example.com/widget-operator:v1.2.0');
    expect(objs.some((o: any) => o.kind === 'CustomResourceDefinition' && o.metadata.name === 'widgets.example.com')).toBe(true);
    const rules = objs.filter((o: any) => o.kind === 'ClusterRole').flatMap((r: any) => r.rules);
    expect(rules).toEqual(expect.arrayContaining([expect.objectContaining({ apiGroups: ['example.com'], resources: ['widgets'] })]));
  } finally {
    fs.rmSync(file, { force: true });
  }
});
