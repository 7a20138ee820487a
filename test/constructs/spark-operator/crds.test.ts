import { App, Chart } from 'cdk8s';
import { CRDS, scheduledSparkApplicationCrd, sparkApplicationCrd, sparkConnectCrd } from '../../../constructs/spark-operator/crds';
import { CrdDefinition, CrdScope, crdName, CustomResourceDefinition, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';
import { validateCustomResource } from '../../../lib/validation/custom-resource';
import { formatIssue } from '../../../lib/validation/issues';

function schemaOf(def: CrdDefinition): JSONSchemaProps {
  return rootSchema(def.versions[0].schema).toJson();
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

const rendered = new Map<CrdDefinition, any>();
function issues(def: CrdDefinition, obj: unknown): string[] {
  if (!rendered.has(def)) {
    const chart = new Chart(new App({ outdir: '/nonexistent' }), 'c');
    rendered.set(def, new CustomResourceDefinition(chart, 'crd', { definition: def }).apiObject.toJson());
  }
  return validateCustomResource(obj, rendered.get(def)).map(formatIssue);
}

const pi = {
  type: 'Scala',
  mode: 'cluster',
  image: 'docker.io/library/spark:4.0.0',
  mainClass: 'org.apache.spark.examples.SparkPi',
  mainApplicationFile: 'local:///opt/spark/examples/jars/spark-examples.jar',
  arguments: ['5000'],
  sparkVersion: '4.0.0',
  driver: { cores: 1, memory: '512m', serviceAccount: 'spark-operator-spark', labels: { version: '4.0.0' } },
  executor: { instances: 1, cores: 1, memory: '512m' },
};

describe('Spark Operator CRDs', () => {
  test('three namespaced CRDs, one version each, with short names and API approval', () => {
    expect(CRDS.map(crdName)).toEqual([
      'scheduledsparkapplications.sparkoperator.k8s.io',
      'sparkapplications.sparkoperator.k8s.io',
      'sparkconnects.sparkoperator.k8s.io',
    ]);
    expect(CRDS.map((d) => d.shortNames)).toEqual([['scheduledsparkapp'], ['sparkapp'], ['sparkconn']]);
    expect(CRDS.map((d) => d.versions.map((v) => `${v.name}:${v.storage}`))).toEqual([['v1beta2:true'], ['v1beta2:true'], ['v1alpha1:true']]);
    for (const def of CRDS) {
      expect(def.scope).toBe(CrdScope.NAMESPACED);
      expect(def.categories).toBeUndefined();
      expect(def.versions[0].subresources).toEqual({ status: true });
      expect(def.annotations?.['api-approved.kubernetes.io']).toBe('https://github.com/kubeflow/spark-operator/pull/1298');
      expect(JSON.stringify(schemaOf(def))).not.toContain('x-kubernetes-validations');
      expect(schemaOf(def).required).toEqual(['metadata', 'spec']);
    }
  });

  test('printer columns as upstream', () => {
    expect(sparkApplicationCrd.versions[0].printerColumns!.map((c) => `${c.name}:${c.type}`)).toEqual([
      'Suspend:boolean', 'Status:string', 'Attempts:string', 'Start:string', 'Finish:string', 'Age:date',
    ]);
    expect(scheduledSparkApplicationCrd.versions[0].printerColumns!.map((c) => `${c.name}:${c.type}`)).toEqual([
      'Schedule:string', 'TimeZone:string', 'Suspend:string', 'Last Run:date', 'Last Run Name:string', 'Age:date',
    ]);
    expect(sparkConnectCrd.versions[0].printerColumns!.map((c) => c.jsonPath)).toEqual(['.metadata.creationTimestamp', '.status.state', '.status.server.podName']);
  });

  test('the scheduled template is the SparkApplication spec', () => {
    const template = at(schemaOf(scheduledSparkApplicationCrd), 'spec.template');
    expect(template).toEqual(at(schemaOf(sparkApplicationCrd), 'spec'));
    expect(template.required).toEqual(['driver', 'executor', 'mainApplicationFile', 'sparkVersion', 'type']);
    expect(at(schemaOf(scheduledSparkApplicationCrd), 'spec').required).toEqual(['schedule', 'template']);
  });

  test('driver and executor specs: bounds, enums and the open pod template', () => {
    const spec = schemaOf(sparkApplicationCrd);
    expect(at(spec, 'spec.driver.cores')).toMatchObject({ format: 'int32', minimum: 1 });
    expect(at(spec, 'spec.executor.instances')).toMatchObject({ format: 'int32', minimum: 1 });
    expect(at(spec, 'spec.driver.template')['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(at(spec, 'spec.type').enum).toEqual(['Java', 'Python', 'Scala', 'R']);
    expect(at(spec, 'spec.monitoring.prometheus.port')).toMatchObject({ minimum: 1024, maximum: 49151 });
    expect(at(spec, 'spec.driver.podName').pattern).toBe('[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*');
    expect(at(spec, 'spec.driver.initContainers.[]').required).toEqual(['name']);
    expect(at(schemaOf(sparkConnectCrd), 'spec.executor.instances').minimum).toBe(0);
    expect(at(schemaOf(sparkConnectCrd), 'spec').required).toEqual(['executor', 'server', 'sparkVersion']);
  });

  test('accepts a SparkApplication, a ScheduledSparkApplication and a SparkConnect as users write them', () => {
    expect(issues(sparkApplicationCrd, { apiVersion: 'sparkoperator.k8s.io/v1beta2', kind: 'SparkApplication', metadata: { name: 'spark-pi', namespace: 'default' }, spec: pi })).toEqual([]);
    expect(issues(scheduledSparkApplicationCrd, {
      apiVersion: 'sparkoperator.k8s.io/v1beta2',
      kind: 'ScheduledSparkApplication',
      metadata: { name: 'spark-pi-scheduled', namespace: 'default' },
      spec: { schedule: '@every 3m', concurrencyPolicy: 'Allow', template: { ...pi, restartPolicy: { type: 'Never' } } },
    })).toEqual([]);
    expect(issues(sparkConnectCrd, {
      apiVersion: 'sparkoperator.k8s.io/v1alpha1',
      kind: 'SparkConnect',
      metadata: { name: 'spark-connect', namespace: 'default' },
      spec: {
        sparkVersion: '4.0.0',
        server: { cores: 1, memory: '512m', template: { spec: { containers: [{ name: 'spark-kubernetes-driver', image: 'spark:4.0.0' }] } } },
        executor: { instances: 2, cores: 1, memory: '512m' },
      },
    })).toEqual([]);
  });

  test('rejects a SparkApplication without a type or with zero driver cores', () => {
    const bad = issues(sparkApplicationCrd, {
      apiVersion: 'sparkoperator.k8s.io/v1beta2',
      kind: 'SparkApplication',
      metadata: { name: 'x' },
      spec: { ...pi, type: undefined, driver: { cores: 0 } },
    }).join('\n');
    expect(bad).toMatch(/spec\.type/);
    expect(bad).toMatch(/spec\.driver\.cores/);
  });
});
