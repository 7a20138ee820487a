import { CelInput, run } from '@bufbuild/cel';
import { App, Chart } from 'cdk8s';
import { CRDS, rayClusterCrd, rayCronJobCrd, rayJobCrd, rayServiceCrd } from '../../../constructs/kuberay/crds';
import { CrdDefinition, CrdScope, crdName, CustomResourceDefinition, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';
import { validateCustomResource } from '../../../lib/validation/custom-resource';
import { formatIssue } from '../../../lib/validation/issues';

function schemaOf(def: CrdDefinition, version = 'v1'): JSONSchemaProps {
  return rootSchema(def.versions.find((v) => v.name === version)!.schema).toJson();
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : part === '{}' ? node.additionalProperties : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

function countRules(node: any): number {
  if (!node || typeof node !== 'object') return 0;
  return (node['x-kubernetes-validations']?.length ?? 0) + Object.values(node).reduce((n: number, v) => n + countRules(v), 0);
}

const rendered = new Map<CrdDefinition, any>();
/** The emitted CRD, once per definition (the validator caches compiled schemas by object). */
function crdJson(def: CrdDefinition): any {
  if (!rendered.has(def)) {
    const chart = new Chart(new App({ outdir: '/nonexistent' }), 'c');
    rendered.set(def, new CustomResourceDefinition(chart, 'crd', { definition: def }).apiObject.toJson());
  }
  return rendered.get(def);
}

function issues(def: CrdDefinition, obj: unknown): string[] {
  return validateCustomResource(obj, crdJson(def)).map(formatIssue);
}

const pod = (name: string) => ({ spec: { containers: [{ name, image: 'rayproject/ray:2.52.0', resources: { limits: { cpu: '1', memory: '2Gi' } } }] } });
const clusterSpec = {
  rayVersion: '2.52.0',
  headGroupSpec: { rayStartParams: { 'dashboard-host': '0.0.0.0' }, template: pod('ray-head') },
  workerGroupSpecs: [{ groupName: 'small', replicas: 1, minReplicas: 1, maxReplicas: 5, rayStartParams: {}, template: pod('ray-worker') }],
};

describe('KubeRay CRDs', () => {
  test('four namespaced ray.io CRDs in category all, without short names', () => {
    expect(CRDS.map(crdName).sort()).toEqual(['rayclusters.ray.io', 'raycronjobs.ray.io', 'rayjobs.ray.io', 'rayservices.ray.io']);
    for (const def of CRDS) {
      expect(def.scope).toBe(CrdScope.NAMESPACED);
      expect(def.categories).toEqual(['all']);
      expect(def.shortNames).toBeUndefined();
      for (const v of def.versions) expect(v.subresources).toEqual({ status: true });
    }
  });

  test('RayCluster, RayJob and RayService store v1 and serve deprecated v1alpha1 without conversion', () => {
    for (const def of [rayClusterCrd, rayJobCrd, rayServiceCrd]) {
      expect(def.versions.map((v) => [v.name, v.storage, v.served ?? true, v.deprecated ?? false])).toEqual([
        ['v1', true, true, false],
        ['v1alpha1', false, true, true],
      ]);
      expect(def.conversion?.strategy).toBe('None');
    }
    expect(rayCronJobCrd.versions.map((v) => v.name)).toEqual(['v1']);
    expect(rayCronJobCrd.conversion).toBeUndefined();
  });

  test('CEL rules: 3 on RayCluster, 9 on RayJob, 5 on RayService, 9 on RayCronJob, none on v1alpha1', () => {
    expect(countRules(schemaOf(rayClusterCrd))).toBe(3);
    expect(countRules(schemaOf(rayJobCrd))).toBe(9);
    expect(countRules(schemaOf(rayServiceCrd))).toBe(5);
    expect(countRules(schemaOf(rayCronJobCrd))).toBe(9);
    for (const def of [rayClusterCrd, rayJobCrd, rayServiceCrd]) expect(countRules(schemaOf(def, 'v1alpha1'))).toBe(0);
  });

  test('printer columns as upstream, the wide ones at priority 1', () => {
    const cols = rayClusterCrd.versions[0].printerColumns!;
    expect(cols.map((c) => c.name)).toEqual(['desired workers', 'available workers', 'cpus', 'memory', 'gpus', 'tpus', 'status', 'age', 'head pod IP', 'head service IP']);
    expect(cols.filter((c) => c.priority === 1).map((c) => c.name)).toEqual(['tpus', 'head pod IP', 'head service IP']);
    expect(rayJobCrd.versions[0].printerColumns!.map((c) => c.jsonPath)).toEqual([
      '.status.jobStatus', '.status.jobDeploymentStatus', '.status.rayClusterName', '.status.startTime', '.status.endTime', '.metadata.creationTimestamp',
    ]);
    expect(rayJobCrd.versions[1].printerColumns).toBeUndefined();
    expect(rayServiceCrd.versions[0].printerColumns!.map((c) => c.jsonPath)).toEqual(['.status.serviceStatus', '.status.numServeEndpoints']);
    expect(rayCronJobCrd.versions[0].printerColumns!.map((c) => `${c.name}:${c.type}`)).toEqual(['schedule:string', 'timezone:string', 'last schedule:date', 'age:date', 'suspend:boolean']);
  });

  test('worker groups default their replica bounds; pod templates keep containers required', () => {
    const worker = at(schemaOf(rayClusterCrd), 'spec.workerGroupSpecs.[]');
    expect(worker.required).toEqual(['groupName', 'maxReplicas', 'minReplicas', 'template']);
    expect(worker.properties!.maxReplicas.default).toBe(2147483647);
    expect(worker.properties!.minReplicas.default).toBe(0);
    expect(worker.properties!.numOfHosts.default).toBe(1);
    expect(at(schemaOf(rayClusterCrd), 'spec.headGroupSpec.template.spec').required).toEqual(['containers']);
    expect(at(schemaOf(rayClusterCrd), 'spec.headGroupSpec.template.spec.schedulingGroup.podGroupName').type).toBe('string');
    // v1alpha1 still requires rayStartParams.
    expect(at(schemaOf(rayClusterCrd, 'v1alpha1'), 'spec.headGroupSpec').required).toEqual(['rayStartParams', 'template']);
    expect(at(schemaOf(rayClusterCrd), 'spec.headGroupSpec').required).toEqual(['template']);
  });

  test('managedBy is immutable and names KubeRay or MultiKueue', () => {
    const rules = at(schemaOf(rayJobCrd), 'spec.managedBy')['x-kubernetes-validations']!;
    expect(rules).toHaveLength(2);
    expect(run(rules[0].rule, { self: 'ray.io/kuberay-operator', oldSelf: 'kueue.x-k8s.io/multikueue' })).toBe(false);
    expect(run(rules[1].rule, { self: 'kueue.x-k8s.io/multikueue' })).toBe(true);
    expect(run(rules[1].rule, { self: 'someone-else' })).toBe(false);
  });

  test('a deletion strategy is either the legacy pair or rules, and each rule condition names one status', () => {
    const strategy = at(schemaOf(rayJobCrd), 'spec.deletionStrategy')['x-kubernetes-validations']!;
    const ok = (self: CelInput) => strategy.every((r) => run(r.rule, { self }) === true);
    expect(ok({ onSuccess: { policy: 'DeleteCluster' }, onFailure: { policy: 'DeleteNone' } })).toBe(true);
    expect(ok({ deletionRules: [{ policy: 'DeleteSelf', condition: { jobStatus: 'SUCCEEDED' } }] })).toBe(true);
    expect(ok({ onSuccess: { policy: 'DeleteCluster' } })).toBe(false);
    expect(ok({ onSuccess: { policy: 'DeleteCluster' }, onFailure: { policy: 'DeleteNone' }, deletionRules: [] })).toBe(false);
    const condition = at(schemaOf(rayJobCrd), 'spec.deletionStrategy.deletionRules.[].condition')['x-kubernetes-validations']!;
    const cond = (self: CelInput) => condition.every((r) => run(r.rule, { self }) === true);
    expect(cond({ jobStatus: 'FAILED', ttlSeconds: 60 })).toBe(true);
    expect(cond({ jobDeploymentStatus: 'Failed' })).toBe(true);
    expect(cond({ jobStatus: 'FAILED', jobDeploymentStatus: 'Failed' })).toBe(false);
    expect(cond({ ttlSeconds: 10 })).toBe(false);
  });

  test('RayCronJob requires a schedule and a job template, the RayJob spec', () => {
    const spec = at(schemaOf(rayCronJobCrd), 'spec');
    expect(spec.required).toEqual(['jobTemplate', 'schedule']);
    expect(spec.properties!.timeZone.minLength).toBe(1);
    expect(JSON.stringify(spec.properties!.jobTemplate)).toBe(JSON.stringify(at(schemaOf(rayJobCrd), 'spec')).replace(/^\{/, `{"description":${JSON.stringify(spec.properties!.jobTemplate.description)},`));
  });

  test('accepts a RayCluster, a RayJob, a RayService and a RayCronJob as users write them', () => {
    expect(issues(rayClusterCrd, { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'raycluster' }, spec: clusterSpec })).toEqual([]);
    const job = {
      entrypoint: 'python /home/ray/samples/sample_code.py',
      runtimeEnvYAML: 'pip:\n  - requests==2.26.0\n',
      shutdownAfterJobFinishes: true,
      ttlSecondsAfterFinished: 60,
      deletionStrategy: { deletionRules: [{ policy: 'DeleteCluster', condition: { jobStatus: 'SUCCEEDED', ttlSeconds: 30 } }] },
      rayClusterSpec: clusterSpec,
    };
    expect(issues(rayJobCrd, { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rayjob' }, spec: job })).toEqual([]);
    expect(issues(rayServiceCrd, {
      apiVersion: 'ray.io/v1',
      kind: 'RayService',
      metadata: { name: 'rayservice' },
      spec: { serveConfigV2: 'applications: []\n', rayClusterConfig: clusterSpec },
    })).toEqual([]);
    expect(issues(rayCronJobCrd, {
      apiVersion: 'ray.io/v1',
      kind: 'RayCronJob',
      metadata: { name: 'nightly' },
      spec: { schedule: '0 3 * * *', timeZone: 'Etc/UTC', jobTemplate: job },
    })).toEqual([]);
    expect(issues(rayJobCrd, { apiVersion: 'ray.io/v1alpha1', kind: 'RayJob', metadata: { name: 'old' }, spec: { entrypoint: 'python x.py', rayClusterSpec: clusterSpec } })).toEqual([]);
  });

  test('rejects a RayJob whose deletion strategy mixes both forms', () => {
    const bad = issues(rayJobCrd, {
      apiVersion: 'ray.io/v1',
      kind: 'RayJob',
      metadata: { name: 'rayjob' },
      spec: { entrypoint: 'x', deletionStrategy: { onSuccess: { policy: 'DeleteCluster' }, deletionRules: [{ policy: 'DeleteSelf', condition: { jobStatus: 'FAILED' } }] } },
    });
    expect(bad.join('\n')).toMatch(/use either onSuccess\/onFailure or deletionRules, not both/);
  });
});
