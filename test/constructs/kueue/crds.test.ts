import { run } from '@bufbuild/cel';
import {
  admissionCheckCrd, clusterQueueCrd, cohortCrd, CRDS, localQueueCrd, multiKueueClusterCrd, multiKueueConfigCrd,
  provisioningRequestConfigCrd, resourceFlavorCrd, topologyCrd, workloadCrd, workloadPriorityClassCrd,
} from '../../../constructs/kueue/crds';
import { CrdDefinition, CrdScope, crdName, rootSchema } from '../../../lib/crd';
import { JSONSchemaProps } from '../../../lib/schema/types';
import { compileCelRules } from '../../../lib/validation';

function schemaOf(def: CrdDefinition, version = 'v1beta2'): JSONSchemaProps {
  return rootSchema(def.versions.find((v) => v.name === version)!.schema).toJson();
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node: any = schema;
  for (const part of path.split('.')) {
    node = part === '[]' ? node.items : node.properties?.[part];
    if (!node) throw new Error(`no ${path}`);
  }
  return node;
}

const rulesAt = (def: CrdDefinition, path: string, version = 'v1beta2') => (path ? at(schemaOf(def, version), path) : schemaOf(def, version))['x-kubernetes-validations'] ?? [];

function countRules(j: any): number {
  let n = (j['x-kubernetes-validations'] ?? []).length;
  for (const v of Object.values(j.properties ?? {})) n += countRules(v);
  if (j.items) n += countRules(j.items);
  if (j.additionalProperties && typeof j.additionalProperties === 'object') n += countRules(j.additionalProperties);
  return n;
}

describe('kueue CRDs', () => {
  test('the 11 kueue.x-k8s.io CRDs with their scopes and short names', () => {
    expect(Object.fromEntries(CRDS.map((d) => [crdName(d), [d.scope, d.shortNames]]))).toEqual({
      'admissionchecks.kueue.x-k8s.io': [CrdScope.CLUSTER, ['ac']],
      'clusterqueues.kueue.x-k8s.io': [CrdScope.CLUSTER, ['cq']],
      'cohorts.kueue.x-k8s.io': [CrdScope.CLUSTER, ['co']],
      'localqueues.kueue.x-k8s.io': [CrdScope.NAMESPACED, ['queue', 'queues', 'lq']],
      'multikueueclusters.kueue.x-k8s.io': [CrdScope.CLUSTER, ['mkc']],
      'multikueueconfigs.kueue.x-k8s.io': [CrdScope.CLUSTER, ['mkconf']],
      'provisioningrequestconfigs.kueue.x-k8s.io': [CrdScope.CLUSTER, ['prc']],
      'resourceflavors.kueue.x-k8s.io': [CrdScope.CLUSTER, ['flavor', 'flavors', 'rf']],
      'topologies.kueue.x-k8s.io': [CrdScope.CLUSTER, ['topo']],
      'workloadpriorityclasses.kueue.x-k8s.io': [CrdScope.CLUSTER, ['wpc']],
      'workloads.kueue.x-k8s.io': [CrdScope.NAMESPACED, ['kwl', 'kueueworkload', 'kueueworkloads']],
    });
    for (const d of CRDS) expect(d.categories).toBeUndefined();
  });

  test('every CRD serves v1beta1 and v1beta2, stores v1beta2, and deprecates v1beta1 except MultiKueueConfig', () => {
    for (const d of CRDS) {
      expect(d.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1beta1', true, false], ['v1beta2', true, true]]);
      expect(d.versions[0].deprecated).toBe(d === multiKueueConfigCrd ? undefined : true);
      expect(d.versions[1].deprecated).toBeUndefined();
    }
  });

  test('the five kinds upstream converts by webhook, the others with strategy None', () => {
    const webhook = CRDS.filter((d) => d.conversion?.strategy === 'Webhook').map(crdName).sort();
    expect(webhook).toEqual([
      'clusterqueues.kueue.x-k8s.io', 'cohorts.kueue.x-k8s.io', 'localqueues.kueue.x-k8s.io', 'multikueueclusters.kueue.x-k8s.io', 'workloads.kueue.x-k8s.io',
    ]);
    for (const d of CRDS.filter((x) => x.conversion?.strategy === 'Webhook')) expect(d.conversion).toEqual({ strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] });
    for (const d of [admissionCheckCrd, multiKueueConfigCrd, provisioningRequestConfigCrd, workloadPriorityClassCrd]) {
      expect(d.conversion).toMatchObject({ strategy: 'None', schemasDifferBecause: expect.stringContaining('v1beta1') });
    }
    expect(resourceFlavorCrd.conversion).toBeUndefined();
    expect(topologyCrd.conversion).toBeUndefined();
  });

  test('status subresources where upstream has them', () => {
    const withStatus = CRDS.filter((d) => d.versions.every((v) => v.subresources?.status)).map((d) => d.kind).sort();
    expect(withStatus).toEqual(['AdmissionCheck', 'ClusterQueue', 'Cohort', 'LocalQueue', 'MultiKueueCluster', 'Workload']);
    for (const d of CRDS) for (const v of d.versions) expect(v.subresources?.scale).toBeUndefined();
  });

  test('printer columns', () => {
    const cols = (d: CrdDefinition, v: number) => d.versions[v].printerColumns!.map((c) => `${c.name}:${c.type}:${c.jsonPath}`);
    expect(cols(clusterQueueCrd, 1)).toEqual(['Cohort:string:.spec.cohortName', 'Strategy:string:.spec.queueingStrategy', 'Pending Workloads:integer:.status.pendingWorkloads', 'Admitted Workloads:integer:.status.admittedWorkloads']);
    expect(cols(clusterQueueCrd, 0)[0]).toBe('Cohort:string:.spec.cohort');
    expect(cols(localQueueCrd, 1)).toEqual(['ClusterQueue:string:.spec.clusterQueue', 'Pending Workloads:integer:.status.pendingWorkloads', 'Admitted Workloads:integer:.status.admittedWorkloads']);
    expect(cols(multiKueueClusterCrd, 1)).toEqual(["Connected:string:.status.conditions[?(@.type=='Active')].status", 'Age:date:.metadata.creationTimestamp']);
    expect(cols(workloadPriorityClassCrd, 1)).toEqual(['Value:integer:.value']);
    expect(cols(workloadCrd, 1)).toEqual([
      'Queue:string:.spec.queueName', 'Reserved in:string:.status.admission.clusterQueue',
      "Admitted:string:.status.conditions[?(@.type=='Admitted')].status", "Finished:string:.status.conditions[?(@.type=='Finished')].status",
      'Age:date:.metadata.creationTimestamp',
    ]);
    for (const d of [admissionCheckCrd, cohortCrd, multiKueueConfigCrd, provisioningRequestConfigCrd, resourceFlavorCrd, topologyCrd]) {
      expect(d.versions.every((v) => !v.printerColumns)).toBe(true);
    }
  });

  test('CEL rule counts per version are those of upstream, and every rule compiles', () => {
    const counts = Object.fromEntries(CRDS.map((d) => [d.kind, d.versions.map((v) => countRules(schemaOf(d, v.name)))]));
    expect(counts).toEqual({
      AdmissionCheck: [1, 1],
      ClusterQueue: [4, 4],
      Cohort: [1, 1],
      LocalQueue: [1, 1],
      MultiKueueCluster: [0, 1],
      MultiKueueConfig: [0, 1],
      ProvisioningRequestConfig: [0, 0],
      ResourceFlavor: [10, 10],
      Topology: [3, 3],
      WorkloadPriorityClass: [0, 0],
      // Upstream has 14 and 23: the whole-object and topology-slice rules are upstream's; on pod
      // sets ours add topologyRequest rules (one more in v1beta1, two in v1beta2; see test/parity/crd-constraint-declarations.ts).
      Workload: [15, 25],
    });
    for (const d of CRDS) {
      const crd = { spec: { versions: d.versions.map((v) => ({ name: v.name, schema: { openAPIV3Schema: schemaOf(d, v.name) } })) }, metadata: { name: crdName(d) } };
      expect(compileCelRules(crd)).toEqual([]);
    }
  });

  test('v1beta1 keeps the fields v1beta2 renamed or dropped', () => {
    expect(at(schemaOf(clusterQueueCrd, 'v1beta1'), 'spec').properties).toHaveProperty('cohort');
    expect(at(schemaOf(clusterQueueCrd), 'spec').properties).toHaveProperty('cohortName');
    expect(at(schemaOf(admissionCheckCrd, 'v1beta1'), 'spec.retryDelayMinutes')).toMatchObject({ format: 'int64', default: 15 });
    expect(at(schemaOf(admissionCheckCrd), 'spec').properties).not.toHaveProperty('retryDelayMinutes');
    expect(at(schemaOf(workloadCrd, 'v1beta1'), 'status').properties).toHaveProperty('accumulatedPastExexcutionTimeSeconds');
    expect(at(schemaOf(workloadCrd), 'status').properties).toHaveProperty('accumulatedPastExecutionTimeSeconds');
    expect(at(schemaOf(workloadCrd, 'v1beta1'), 'spec.priorityClassSource').enum).toEqual(['kueue.x-k8s.io/workloadpriorityclass', 'scheduling.k8s.io/priorityclass', '']);
  });

  test('cluster queue quotas: resource groups, flavors and quantities', () => {
    const rg = at(schemaOf(clusterQueueCrd), 'spec.resourceGroups');
    expect(rg).toMatchObject({ 'maxItems': 16, 'x-kubernetes-list-type': 'atomic' });
    expect(rg.items!.required).toEqual(['coveredResources', 'flavors']);
    const quota = at(rg, '[].flavors.[].resources.[]');
    expect(quota.required).toEqual(['name', 'nominalQuota']);
    expect(quota.properties!.nominalQuota).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(at(schemaOf(clusterQueueCrd), 'spec.queueingStrategy')).toMatchObject({ enum: ['StrictFIFO', 'BestEffortFIFO'], default: 'BestEffortFIFO' });
  });

  test('a cluster queue without a cohort cannot set borrowingLimit', () => {
    const [rule] = rulesAt(clusterQueueCrd, 'spec');
    const group = (r: object) => [{ coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu', nominalQuota: 1, ...r }] }] }];
    expect(run(rule.rule, { self: { resourceGroups: group({ borrowingLimit: 1 }) } })).toBe(false);
    expect(run(rule.rule, { self: { cohortName: 'c', resourceGroups: group({ borrowingLimit: 1 }) } })).toBe(true);
    expect(run(rule.rule, { self: { resourceGroups: group({}) } })).toBe(true);
  });

  test('each flavor of a resource group covers exactly its resources', () => {
    const [rule] = at(schemaOf(clusterQueueCrd), 'spec.resourceGroups').items!['x-kubernetes-validations']!;
    expect(run(rule.rule, { self: { coveredResources: ['cpu', 'memory'], flavors: [{ name: 'f', resources: [{ name: 'cpu' }] }] } })).toBe(false);
    expect(run(rule.rule, { self: { coveredResources: ['cpu'], flavors: [{ name: 'f', resources: [{ name: 'cpu' }] }] } })).toBe(true);
  });

  test('flavor fungibility preference and preemption policies', () => {
    const [pref] = rulesAt(clusterQueueCrd, 'spec.flavorFungibility');
    expect(run(pref.rule, { self: { preference: 'BorrowingOverPreemption', whenCanBorrow: 'MayStopSearch', whenCanPreempt: 'TryNextFlavor' } })).toBe(false);
    expect(run(pref.rule, { self: { preference: 'BorrowingOverPreemption', whenCanBorrow: 'TryNextFlavor', whenCanPreempt: 'TryNextFlavor' } })).toBe(true);
    const [pre] = rulesAt(clusterQueueCrd, 'spec.preemption');
    expect(run(pre.rule, { self: { reclaimWithinCohort: 'Never', borrowWithinCohort: { policy: 'LowerPriority' } } })).toBe(false);
    expect(run(pre.rule, { self: { reclaimWithinCohort: 'Any', borrowWithinCohort: { policy: 'LowerPriority' } } })).toBe(true);
  });

  test('immutable references: AdmissionCheck controller, LocalQueue cluster queue', () => {
    for (const [def, path] of [[admissionCheckCrd, 'spec.controllerName'], [localQueueCrd, 'spec.clusterQueue']] as const) {
      const [rule] = rulesAt(def, path);
      expect(run(rule.rule, { self: 'a', oldSelf: 'b' })).toBe(false);
      expect(run(rule.rule, { self: 'a', oldSelf: 'a' })).toBe(true);
    }
  });

  test('resource flavor: taint effects, toleration semantics, topology needs node labels', () => {
    const [effects] = rulesAt(resourceFlavorCrd, 'spec.nodeTaints');
    expect(run(effects.rule, { self: [{ key: 'k', effect: 'NoSchedule' }] })).toBe(true);
    expect(run(effects.rule, { self: [{ key: 'k', effect: 'Sometimes' }] })).toBe(false);
    const tol = rulesAt(resourceFlavorCrd, 'spec.tolerations');
    expect(tol).toHaveLength(5);
    const ok = (self: any[]) => tol.every((r) => run(r.rule, { self }) === true);
    expect(ok([{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }])).toBe(true);
    expect(ok([{ operator: 'Exists' }])).toBe(true);
    expect(ok([{ value: 'v' }])).toBe(false);
    expect(ok([{ key: 'k', operator: 'Exists', value: 'v' }])).toBe(false);
    expect(ok([{ key: 'k', effect: 'NoSchedule', tolerationSeconds: 5 }])).toBe(false);
    expect(ok([{ key: 'k', operator: 'Maybe' }])).toBe(false);
    const spec = rulesAt(resourceFlavorCrd, 'spec');
    const topo = spec.find((r) => r.rule.includes('size(self.nodeLabels) >= 1'))!;
    expect(run(topo.rule, { self: { topologyName: 't' } })).toBe(false);
    expect(run(topo.rule, { self: { topologyName: 't', nodeLabels: { a: 'b' } } })).toBe(true);
  });

  test('topology levels are unique, hostname only last', () => {
    const [unique, hostname] = rulesAt(topologyCrd, 'spec.levels');
    expect(run(unique.rule, { self: [{ nodeLabel: 'a' }, { nodeLabel: 'a' }] })).toBe(false);
    expect(run(hostname.rule, { self: [{ nodeLabel: 'kubernetes.io/hostname' }, { nodeLabel: 'rack' }] })).toBe(false);
    expect(run(hostname.rule, { self: [{ nodeLabel: 'rack' }, { nodeLabel: 'kubernetes.io/hostname' }] })).toBe(true);
  });

  test('multikueue: exactly one cluster source, unique cluster names', () => {
    const [source] = rulesAt(multiKueueClusterCrd, 'spec.clusterSource');
    expect(run(source.rule, { self: {} })).toBe(false);
    expect(run(source.rule, { self: { kubeConfig: { location: 's' } } })).toBe(true);
    expect(run(source.rule, { self: { kubeConfig: { location: 's' }, clusterProfileRef: { name: 'p' } } })).toBe(false);
    const [unique] = rulesAt(multiKueueConfigCrd, 'spec.clusters');
    expect(run(unique.rule, { self: ['a', 'a'] })).toBe(false);
  });

  test('workload: pod template is a PodSpec, priority class references match their group', () => {
    expect(at(schemaOf(workloadCrd), 'spec.podSets.[].template.spec').required).toEqual(['containers']);
    expect(at(schemaOf(workloadCrd), 'spec.podSets')).toMatchObject({ 'minItems': 1, 'maxItems': 18, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    const [group, kind] = rulesAt(workloadCrd, 'spec.priorityClassRef');
    expect(run(group.rule, { self: { group: 'kueue.x-k8s.io', kind: 'PriorityClass', name: 'p' } })).toBe(false);
    expect(run(kind.rule, { self: { group: 'scheduling.k8s.io', kind: 'PriorityClass', name: 'p' } })).toBe(true);
    const root = rulesAt(workloadCrd, '');
    // Upstream's seven whole-object rules (v0.19.2).
    expect(root.length).toBe(7);
    const count = root.find((r) => r.message!.startsWith('the admission must assign'))!;
    const admitted = (n: number) => ({ conditions: [{ type: 'QuotaReserved', status: 'True' }], admission: { clusterQueue: 'cq', podSetAssignments: Array.from({ length: n }, (_, i) => ({ name: `p${i}` })) } });
    expect(run(count.rule, { self: { spec: { podSets: [{ name: 'a' }, { name: 'b' }] }, status: admitted(2) } })).toBe(true);
    expect(run(count.rule, { self: { spec: { podSets: [{ name: 'a' }, { name: 'b' }] }, status: admitted(1) } })).toBe(false);
    const time = root.find((r) => r.message!.startsWith('maximumExecutionTimeSeconds'))!;
    const isAdmitted = { conditions: [{ type: 'Admitted', status: 'True' }] };
    expect(run(time.rule, { self: { spec: { maximumExecutionTimeSeconds: 60 }, status: isAdmitted }, oldSelf: { spec: {}, status: isAdmitted } })).toBe(false);
    expect(run(time.rule, { self: { spec: { maximumExecutionTimeSeconds: 60 }, status: {} }, oldSelf: { spec: {}, status: isAdmitted } })).toBe(true);
    const queue = root.find((r) => r.message!.startsWith('queueName'))!;
    const reserved = { conditions: [{ type: 'QuotaReserved', status: 'True' }], admission: { clusterQueue: 'cq' } };
    expect(run(queue.rule, { self: { spec: { queueName: 'b' }, status: reserved }, oldSelf: { spec: { queueName: 'a' }, status: reserved } })).toBe(false);
    expect(run(queue.rule, { self: { spec: { queueName: 'b' } }, oldSelf: { spec: { queueName: 'a' } } })).toBe(true);
  });

  test('the status conditions of v1beta2 hold at most 16 entries', () => {
    for (const d of [admissionCheckCrd, clusterQueueCrd, localQueueCrd, multiKueueClusterCrd, workloadCrd]) {
      expect(at(schemaOf(d), 'status.conditions')).toMatchObject({ 'maxItems': 16, 'x-kubernetes-list-map-keys': ['type'] });
      expect(at(schemaOf(d, 'v1beta1'), 'status.conditions').maxItems).toBeUndefined();
    }
  });
});
