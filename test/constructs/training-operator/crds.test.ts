import { run } from '@bufbuild/cel';
import { CRDS, mpiJobCrd, paddleJobCrd, pyTorchJobCrd, tfJobCrd } from '../../../constructs/training-operator/crds';
import { CrdScope, crdName } from '../../../lib/crd';
import { at, celRules, schemaOf } from '../support/schema';

describe('training-operator CRDs (release-1.9)', () => {
  test('six namespaced kubeflow.org CRDs serving and storing v1 only', () => {
    expect(CRDS.map(crdName)).toEqual([
      'jaxjobs.kubeflow.org', 'mpijobs.kubeflow.org', 'paddlejobs.kubeflow.org', 'pytorchjobs.kubeflow.org', 'tfjobs.kubeflow.org', 'xgboostjobs.kubeflow.org',
    ]);
    for (const d of CRDS) {
      expect(d.scope).toBe(CrdScope.NAMESPACED);
      expect(d.versions.map((v) => [v.name, v.served ?? true, v.storage])).toEqual([['v1', true, true]]);
      expect(d.versions[0].subresources?.status).toBe(true);
      expect(d.shortNames).toBeUndefined();
    }
    expect(CRDS.map((d) => d.kind)).toEqual(['JAXJob', 'MPIJob', 'PaddleJob', 'PyTorchJob', 'TFJob', 'XGBoostJob']);
  });

  test('PyTorchJob, PaddleJob and JAXJob scale through their Worker replicas', () => {
    const scaled = CRDS.filter((d) => d.versions[0].subresources?.scale).map((d) => d.kind);
    expect(scaled).toEqual(['JAXJob', 'PaddleJob', 'PyTorchJob']);
    expect(pyTorchJobCrd.versions[0].subresources?.scale).toEqual({
      specReplicasPath: '.spec.pytorchReplicaSpecs.Worker.replicas',
      statusReplicasPath: '.status.replicaStatuses.Worker.active',
      labelSelectorPath: '.status.replicaStatuses.Worker.selector',
    });
    expect(paddleJobCrd.versions[0].subresources?.scale?.specReplicasPath).toBe('.spec.paddleReplicaSpecs.Worker.replicas');
  });

  test('printer columns: State then Age, except MPIJob (Age then State)', () => {
    const cols = (d: typeof tfJobCrd) => d.versions[0].printerColumns!.map((c) => c.name);
    expect(cols(tfJobCrd)).toEqual(['State', 'Age']);
    expect(cols(mpiJobCrd)).toEqual(['Age', 'State']);
  });

  test('each has one CEL rule: the scheduling queue is immutable', () => {
    for (const d of CRDS) {
      const rules = celRules(schemaOf(d));
      expect(rules).toEqual([{ path: 'spec.runPolicy.schedulingPolicy.queue', rule: 'self == oldSelf', message: 'schedulingPolicy.queue is immutable' }]);
      expect(run(rules[0].rule, { self: 'a', oldSelf: 'b' })).toBe(false);
    }
  });

  test('replica specs are required maps of pod templates from the core table', () => {
    const spec = at(schemaOf(tfJobCrd), 'spec');
    expect(spec.required).toEqual(['tfReplicaSpecs']);
    const template = at(spec, 'tfReplicaSpecs.{}.template');
    expect(at(template, 'spec').required).toEqual(['containers']);
    expect(Object.keys(at(template, 'metadata').properties!)).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(at(spec, 'runPolicy.suspend').default).toBe(false);
  });

  test('MPIJob v1 keeps slotsPerWorker, mainContainer and the deprecated top-level cleanPodPolicy', () => {
    expect(Object.keys(at(schemaOf(mpiJobCrd), 'spec').properties!)).toEqual(['cleanPodPolicy', 'mainContainer', 'mpiReplicaSpecs', 'runPolicy', 'slotsPerWorker']);
  });

  test('PyTorchJob elastic policy carries the rendezvous settings and HPA metrics', () => {
    const elastic = at(schemaOf(pyTorchJobCrd), 'spec.elasticPolicy');
    expect(Object.keys(elastic.properties!)).toEqual([
      'maxReplicas', 'maxRestarts', 'metrics', 'minReplicas', 'nProcPerNode', 'rdzvBackend', 'rdzvConf', 'rdzvHost', 'rdzvId', 'rdzvPort', 'standalone',
    ]);
  });
});
