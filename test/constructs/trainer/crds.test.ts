import { run } from '@bufbuild/cel';
import { jobSetCrd } from '../../../constructs/jobset/crds';
import { clusterTrainingRuntimeCrd, CRDS, trainingRuntimeCrd, trainJobCrd } from '../../../constructs/trainer/crds';
import { CrdScope, crdName } from '../../../lib/crd';
import { at, celRules, schemaOf } from '../support/schema';

const job = schemaOf(trainJobCrd);
const runtime = schemaOf(clusterTrainingRuntimeCrd);
const ruleAt = (schema: any, path: string, i = 0) => (path ? at(schema, path) : schema)['x-kubernetes-validations'][i].rule as string;

describe('Trainer CRDs (v2.3.0)', () => {
  test('three trainer.kubeflow.org CRDs serving and storing v1alpha1 only, no short names', () => {
    expect(CRDS.map(crdName)).toEqual([
      'clustertrainingruntimes.trainer.kubeflow.org', 'trainingruntimes.trainer.kubeflow.org', 'trainjobs.trainer.kubeflow.org',
    ]);
    for (const d of CRDS) {
      expect(d.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1alpha1', true, true]]);
      expect(d.shortNames).toBeUndefined();
      expect(d.conversion).toBeUndefined();
    }
    expect(clusterTrainingRuntimeCrd.scope).toBe(CrdScope.CLUSTER);
    expect(trainingRuntimeCrd.scope).toBe(CrdScope.NAMESPACED);
    expect(trainJobCrd.scope).toBe(CrdScope.NAMESPACED);
  });

  test('only TrainJob has a status subresource and printer columns (State, Age)', () => {
    expect(trainJobCrd.versions[0].subresources).toEqual({ status: true });
    expect(trainJobCrd.versions[0].printerColumns!.map((c) => `${c.name}:${c.jsonPath}`)).toEqual(['State:.status.conditions[-1:].type', 'Age:.metadata.creationTimestamp']);
    expect(trainingRuntimeCrd.versions[0].subresources).toBeUndefined();
    expect(clusterTrainingRuntimeCrd.versions[0].printerColumns).toBeUndefined();
  });

  test('CEL rule counts are the version\'s: TrainJob 19, each runtime 11', () => {
    expect(celRules(job)).toHaveLength(19);
    expect(celRules(runtime)).toHaveLength(11);
    expect(celRules(schemaOf(trainingRuntimeCrd))).toHaveLength(11);
  });

  test('both runtime kinds share one schema whose JobSet template is JobSet\'s own spec', () => {
    expect(schemaOf(trainingRuntimeCrd)).toEqual(runtime);
    expect(at(runtime, 'spec.template.spec')).toEqual(at(schemaOf(jobSetCrd), 'spec'));
  });

  test('mlPolicy takes at most one framework', () => {
    const rule = ruleAt(runtime, 'spec.mlPolicy');
    expect(run(rule, { self: { numNodes: 2, torch: {} } })).toBe(true);
    expect(run(rule, { self: { numNodes: 2 } })).toBe(true);
    expect(run(rule, { self: { torch: {}, mpi: {} } })).toBe(false);
    expect(run(rule, { self: { jax: {}, xgboost: {} } })).toBe(false);
  });

  test('MPI policy defaults: OpenMPI (or empty), one process per node, keys in /root/.ssh, launcher not a node', () => {
    const mpi = at(runtime, 'spec.mlPolicy.mpi');
    expect(mpi.properties!.mpiImplementation).toMatchObject({ enum: ['OpenMPI', ''], default: 'OpenMPI' });
    expect(mpi.properties!.numProcPerNode.default).toBe(1);
    expect(mpi.properties!.sshAuthMountPath).toMatchObject({ default: '/root/.ssh', maxLength: 4096 });
    expect(mpi.properties!.runLauncherAsNode.default).toBe(false);
  });

  test('flux processes per node must be positive; env injection never names the node container (upstream\'s rule, bounded names)', () => {
    expect(run(ruleAt(runtime, 'spec.mlPolicy.flux.numProcPerNode'), { self: 0 })).toBe(false);
    expect(run(ruleAt(runtime, 'spec.mlPolicy.flux.numProcPerNode'), { self: 4 })).toBe(true);
    const names = ruleAt(runtime, 'spec.mlPolicy.torch.envInjection.targets.[].containerNames');
    expect(run(names, { self: ['sidecar-1', 'preflight'] })).toBe(true);
    expect(run(names, { self: ['node', 'sidecar-1'] })).toBe(false);
    expect(at(runtime, 'spec.mlPolicy.torch.envInjection.targets.[].containerNames.[]').maxLength).toBe(63);
  });

  test('gang scheduling policies: coscheduling timeout 60s, Volcano topology hard at tier 1', () => {
    expect(at(runtime, 'spec.podGroupPolicy.coscheduling.scheduleTimeoutSeconds').default).toBe(60);
    expect(at(runtime, 'spec.podGroupPolicy.volcano.networkTopology.mode')).toMatchObject({ enum: ['hard', 'soft'], default: 'hard' });
  });

  test('TrainJob names must be RFC 1035 labels of at most 63 characters (rules on the root)', () => {
    const [pattern, size] = job['x-kubernetes-validations']!.map((r) => r.rule);
    expect(run(pattern, { self: { metadata: { name: 'llama-ft' } } })).toBe(true);
    expect(run(pattern, { self: { metadata: { name: '1st-run' } } })).toBe(false);
    expect(run(size, { self: { metadata: { name: 'a'.repeat(64) } } })).toBe(false);
  });

  test('runtimeRef is required and immutable, defaulting to a ClusterTrainingRuntime', () => {
    const spec = at(job, 'spec');
    expect(spec.required).toEqual(['runtimeRef']);
    expect(at(spec, 'runtimeRef').required).toEqual(['name']);
    expect(at(spec, 'runtimeRef.kind').default).toBe('ClusterTrainingRuntime');
    expect(at(spec, 'runtimeRef.apiGroup').default).toBe('trainer.kubeflow.org');
    expect(run(ruleAt(spec, 'runtimeRef'), { self: { name: 'a' }, oldSelf: { name: 'b' } })).toBe(false);
  });

  test('managedBy defaults to the trainjob controller and accepts only it and MultiKueue, immutably', () => {
    const managedBy = at(job, 'spec.managedBy');
    expect(managedBy.default).toBe('trainer.kubeflow.org/trainjob-controller');
    const [allowed, immutable] = managedBy['x-kubernetes-validations']!.map((r) => r.rule);
    expect(run(allowed, { self: 'kueue.x-k8s.io/multikueue' })).toBe(true);
    expect(run(allowed, { self: 'example.com/other' })).toBe(false);
    expect(immutable).toBe('self == oldSelf');
  });

  test('initializer storage URIs need a scheme or an absolute path', () => {
    const rule = ruleAt(job, 'spec.initializer.dataset.storageUri');
    expect(run(rule, { self: 'hf://tatsu-lab/alpaca' })).toBe(true);
    expect(run(rule, { self: '/mnt/data' })).toBe(true);
    expect(run(rule, { self: 'data/train.csv' })).toBe(false);
    expect(at(job, 'spec.initializer.model.secretRef')['x-kubernetes-map-type']).toBe('atomic');
  });

  test('runtime patches are a list map by manager, reaching pod spec fields managers may set', () => {
    const patches = at(job, 'spec.runtimePatches');
    expect(patches).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['manager'], 'maxItems': 16 });
    const pod = at(patches, '[].trainingRuntimeSpec.template.spec.replicatedJobs.[].template.spec.template.spec');
    expect(Object.keys(pod.properties!)).toEqual([
      'affinity', 'containers', 'imagePullSecrets', 'initContainers', 'nodeSelector', 'schedulingGates', 'securityContext',
      'serviceAccountName', 'terminationGracePeriodSeconds', 'tolerations', 'volumes',
    ]);
    expect(at(pod, 'containers.[]').required).toEqual(['name']);
  });

  test('trainer status needs lastUpdatedTime; progress is a percentage; at most 8 conditions', () => {
    const status = at(job, 'status');
    expect(run(ruleAt(status, 'trainerStatus'), { self: { progressPercentage: 10 } })).toBe(false);
    expect(run(ruleAt(status, 'trainerStatus'), { self: { lastUpdatedTime: '2026-01-01T00:00:00Z' } })).toBe(true);
    expect(at(status, 'trainerStatus.progressPercentage')).toMatchObject({ minimum: 0, maximum: 100 });
    expect(at(status, 'conditions').maxItems).toBe(8);
  });
});
