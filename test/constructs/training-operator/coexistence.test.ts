import { App } from 'cdk8s';
import { JobSet } from '../../../constructs/jobset';
import { Trainer } from '../../../constructs/trainer';
import { TrainingOperator } from '../../../constructs/training-operator';
import { CertificateProvider } from '../../../lib/certificates';
import { Component } from '../../../lib/component';
import { ImageSpec } from '../../../lib/images';
import { Platform } from '../../../lib/platform';
import { buildPlatform } from '../../../lib/synth';
import { problemsOf } from '../../platforms/helpers';

function both(): Platform {
  const p = new Platform(new App(), 'p', { name: 'training', certificates: CertificateProvider.selfManaged() });
  new JobSet(p, 'jobset');
  new Trainer(p, 'trainer');
  new TrainingOperator(p, 'training-operator');
  return p;
}

const built = buildPlatform(both());
const of = (component: string) => built.model.objects.filter((o) => o.component.componentName === component).map((o) => o.json);
const key = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Stands for Kueue's MPIJob integration, which handles mpi-operator's kubeflow.org/v2beta1 MPIJob. */
class MpiV2Consumer extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = {};
  constructor(scope: Platform, id: string) {
    super(scope, id, 'consumer-system');
    this.require({ group: 'kubeflow.org', version: 'v2beta1', kind: 'MPIJob', reason: 'manages MPIJobs of mpi-operator' });
  }
}

describe('Trainer and training-operator in one platform', () => {
  test('builds with every check passing (no duplicate objects, every webhook wired)', () => {
    expect(built.model.components.map((c) => c.componentName)).toEqual(['jobset', 'training-operator', 'trainer']);
  });

  test('their CRDs are disjoint: trainer.kubeflow.org and kubeflow.org', () => {
    const crds = (c: string) => of(c).filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name);
    expect(crds('trainer').every((n) => n.endsWith('.trainer.kubeflow.org'))).toBe(true);
    expect(crds('training-operator').every((n) => n.endsWith('.kubeflow.org') && !n.endsWith('.trainer.kubeflow.org'))).toBe(true);
    expect(new Set([...crds('trainer'), ...crds('training-operator')]).size).toBe(9);
  });

  test('no object name clashes between them, cluster-scoped ones included', () => {
    const trainer = new Set(of('trainer').map(key));
    expect(of('training-operator').map(key).filter((k) => trainer.has(k))).toEqual([]);
    expect(of('trainer').filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['kubeflow-system']);
    expect(of('training-operator').filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['kubeflow']);
  });

  test('webhook configuration names and webhook names are all distinct', () => {
    const configs = built.model.objects.map((o) => o.json).filter((o) => o.kind.endsWith('WebhookConfiguration'));
    const names = configs.map((c) => `${c.kind}/${c.metadata.name}`);
    expect(new Set(names).size).toBe(names.length);
    const hooks = configs.flatMap((c) => c.webhooks.map((w: any) => w.name));
    expect(hooks).toHaveLength(4 + 4 + 5);
    expect(new Set(hooks).size).toBe(hooks.length);
  });

  test('MPIJob: training-operator serves kubeflow.org/v1 only, so a consumer of the v2beta1 MPIJob fails with both versions named', () => {
    const mpi = built.model.kinds.get('kubeflow.org/MPIJob')!;
    expect(mpi.versions.map((v) => v.name)).toEqual(['v1']);
    const p = both();
    new MpiV2Consumer(p, 'consumer');
    expect(problemsOf(() => buildPlatform(p))).toEqual([
      "p/consumer: component 'consumer' (MpiV2Consumer) requires kubeflow.org/v2beta1/MPIJob (manages MPIJobs of mpi-operator), but in platform 'training' " +
        "kubeflow.org/MPIJob comes from component 'training-operator' (TrainingOperator), which serves v1; use a provider that serves v2beta1",
    ]);
  });

  test('without the mpijob scheme, training-operator leaves mpijobs.kubeflow.org to another provider', () => {
    const p = new Platform(new App(), 'p', { name: 'training', certificates: CertificateProvider.selfManaged() });
    new TrainingOperator(p, 'training-operator', { schemes: ['tfjob', 'pytorchjob', 'xgboostjob', 'paddlejob', 'jaxjob'] });
    expect(buildPlatform(p).model.kinds.has('kubeflow.org/MPIJob')).toBe(false);
  });
});
