import { App, Chart } from 'cdk8s';
import { appWrapperCrd, CRDS } from '../../../constructs/appwrapper/crds';
import { crdName, CrdScope, CustomResourceDefinition, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';
import { validateCustomResource } from '../../../lib/validation';

function render(): any {
  const c = new Chart(new App(), 'c');
  new CustomResourceDefinition(c, 'AppWrapper', { definition: appWrapperCrd });
  return c.toJson()[0];
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

const schema = rootSchema(appWrapperCrd.versions[0].schema).toJson();

/** An AppWrapper as users write them: a batch Job with its pod set, plus a plain Pod. */
const SAMPLE = {
  apiVersion: 'workload.codeflare.dev/v1beta2',
  kind: 'AppWrapper',
  metadata: { name: 'sample', namespace: 'team-a', labels: { 'kueue.x-k8s.io/queue-name': 'user-queue' } },
  spec: {
    suspend: true,
    components: [
      {
        annotations: { 'workload.codeflare.dev.appwrapper/retryLimit': '2' },
        podSets: [{ path: 'template.spec.template', replicas: 2, annotations: { 'example.com/x': 'y' } }],
        podSetInfos: [{
          nodeSelector: { 'nvidia.com/gpu.product': 'A100' },
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }],
          schedulingGates: [{ name: 'example.com/gate' }],
          labels: { team: 'a' },
          annotations: { note: 'n' },
        }],
        template: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: 'sample-job' },
          spec: { parallelism: 2, completions: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
        },
      },
      { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sample-pod' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
    ],
  },
};

describe('AppWrapper CRD', () => {
  test('one namespaced CRD: appwrappers.workload.codeflare.dev, short name aw, v1beta2 served and stored', () => {
    expect(CRDS.map(crdName)).toEqual(['appwrappers.workload.codeflare.dev']);
    const crd = render();
    expect(crd.metadata.name).toBe('appwrappers.workload.codeflare.dev');
    expect(crd.spec.scope).toBe(CrdScope.NAMESPACED);
    expect(crd.spec.names).toEqual({ kind: 'AppWrapper', listKind: 'AppWrapperList', plural: 'appwrappers', singular: 'appwrapper', shortNames: ['aw'] });
    expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage])).toEqual([['v1beta2', true, true]]);
    expect(crd.spec.versions[0].subresources).toEqual({ status: {} });
    expect(crd.spec.conversion).toBeUndefined();
  });

  test('printer columns: phase, the three condition columns and age', () => {
    expect(render().spec.versions[0].additionalPrinterColumns).toEqual([
      { name: 'Status', type: 'string', jsonPath: '.status.phase' },
      { name: 'Quota Reserved', type: 'string', jsonPath: '.status.conditions[?(@.type=="QuotaReserved")].status' },
      { name: 'Resources Deployed', type: 'string', jsonPath: '.status.conditions[?(@.type=="ResourcesDeployed")].status' },
      { name: 'Unhealthy', type: 'string', jsonPath: '.status.conditions[?(@.type=="Unhealthy")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
  });

  test('components are required and each template is a whole embedded object kept as written', () => {
    expect(at(schema, 'spec').required).toEqual(['components']);
    expect(at(schema, 'spec.components.[]').required).toEqual(['template']);
    expect(at(schema, 'spec.components.[].template')).toMatchObject({ 'type': 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
    expect(at(schema, 'spec.components.[].podSets.[]').required).toEqual(['path']);
    expect(at(schema, 'spec.components.[].podSets.[].replicas').format).toBe('int32');
  });

  test('pod set infos carry core tolerations and scheduling gates', () => {
    expect(at(schema, 'spec.components.[].podSetInfos.[].tolerations.[].tolerationSeconds').format).toBe('int64');
    expect(at(schema, 'spec.components.[].podSetInfos.[].schedulingGates.[]').required).toEqual(['name']);
  });

  test('status conditions are keyed by type, per AppWrapper and per component', () => {
    for (const p of ['status.conditions', 'status.componentStatus.[].conditions']) {
      expect(at(schema, p)).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    }
    expect(at(schema, 'status.componentStatus.[]').required).toEqual(['apiVersion', 'kind', 'name', 'podSets']);
    expect(at(schema, 'status.resettingCount').format).toBe('int32');
  });

  test('accepts a sample AppWrapper with nothing unknown', () => {
    expect(validateCustomResource(SAMPLE, render())).toEqual([]);
  });

  test('rejects an AppWrapper without components, and a component without a template', () => {
    const crd = render();
    expect(validateCustomResource({ ...SAMPLE, spec: { suspend: false } }, crd).map((i) => i.path + ': ' + i.message)).toEqual(['spec.components: required field is missing']);
    expect(validateCustomResource({ ...SAMPLE, spec: { components: [{ podSets: [{ path: 'template.spec' }] }] } }, crd).map((i) => i.path + ': ' + i.message)).toEqual(['spec.components[0].template: required field is missing']);
  });
});

test('an unknown field is reported (it would be pruned), so the sample test can fail', () => {
  const issues = validateCustomResource({ ...SAMPLE, spec: { ...SAMPLE.spec, queueName: 'q' } }, render());
  expect(issues.map((i) => i.path + ': ' + i.message)).toEqual(['spec.queueName: unknown field']);
});
