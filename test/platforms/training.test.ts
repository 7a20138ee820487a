import { App } from 'cdk8s';
import { build, pinnable, problemsOf } from './helpers';
import { DistributedWorkloads } from '../../constructs/distributed-workloads';
import { CertificateProvider } from '../../lib/certificates';
import { Platform } from '../../lib/platform';
import { ODH_OPERATOR } from '../../lib/prerequisites';
import { applyOrder, objectCounts, wiringTable } from '../../lib/report';
import { TrainingPlatform } from '../../platforms/training';

const training = build((app) => new TrainingPlatform(app, 'training'));
const objects = training.model.objects.map((o) => o.json);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);

describe('training platform', () => {
  test('orders every job operator before Kueue, which manages their jobs, and JobSet before Trainer', () => {
    const order = training.model.components.map((c) => c.componentName);
    expect(order).toEqual(['training-operator', 'spark-operator', 'kuberay', 'jobset', 'appwrapper', 'trainer', 'codeflare', 'kueue']);
  });

  test('Kueue manages every job kind of the platform: one mutating and one validating webhook per integration', () => {
    const mutating = ofKind('MutatingWebhookConfiguration').find((c) => c.metadata.name === 'kueue-mutating-webhook-configuration')!;
    const names = mutating.webhooks.map((w: any) => w.name);
    for (const n of ['mjob.kb.io', 'mjobset.kb.io', 'mtrainjob.kb.io', 'mpytorchjob.kb.io', 'mrayjob.kb.io', 'mraycluster.kb.io', 'mappwrapper.kb.io', 'msparkapplication.kb.io']) {
      expect(names).toContain(n);
    }
    const kueue = training.model.components.find((c) => c.componentName === 'kueue')!;
    expect(kueue.requires.map((r) => `${r.group}/${r.kind}`)).toEqual(expect.arrayContaining([
      'jobset.x-k8s.io/JobSet', 'trainer.kubeflow.org/TrainJob', 'kubeflow.org/PyTorchJob', 'ray.io/RayJob', 'workload.codeflare.dev/AppWrapper', 'sparkoperator.k8s.io/SparkApplication',
    ]));
  });

  test('AppWrapper\'s webhook name repeats Kueue\'s, in another configuration: both are wired and shown with their configuration', () => {
    const lines = wiringTable(training.model).filter((l) => l.includes('/mappwrapper.kb.io'));
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.includes('kueue-mutating-webhook-configuration/mappwrapper.kb.io'))).toBe(true);
    expect(lines.every((l) => !l.includes('UNRESOLVED') && !l.includes('NO CA SOURCE'))).toBe(true);
  });

  test('certificates are self-managed: every webhook gets its caBundle at run time from its own controller', () => {
    expect(ofKind('Certificate')).toEqual([]);
    for (const l of wiringTable(training.model)) expect(l).toMatch(/self-managed by [a-z-]+ \(caBundle patched at run time\)/);
    expect(training.model.runtimeChanges.length).toBeGreaterThan(10);
  });

  test('ships default queues: a ResourceFlavor, a ClusterQueue and a LocalQueue, after the CRDs and webhooks', () => {
    const queues = training.model.objects.filter((o) => ['ResourceFlavor', 'ClusterQueue', 'LocalQueue'].includes(o.json.kind));
    expect(queues.map((o) => `${o.json.kind}/${o.json.metadata.name}`)).toEqual(['ResourceFlavor/default-flavor', 'ClusterQueue/cluster-queue', 'LocalQueue/user-queue']);
    for (const q of queues) expect(q.phase).toBe('30-resources');
  });

  test('no RBAC rule uses a wildcard', () => {
    for (const r of [...ofKind('ClusterRole'), ...ofKind('Role')].flatMap((x) => x.rules ?? [])) {
      expect([...r.verbs, ...(r.resources ?? []), ...(r.apiGroups ?? [])]).not.toContain('*');
    }
  });

  test('webhook wiring', () => {
    expect(wiringTable(training.model).join('\n')).toMatchSnapshot();
  });

  test('apply order', () => {
    expect(applyOrder(training.model).join('\n')).toMatchSnapshot();
  });

  test('object counts by kind', () => {
    expect(objectCounts(training.model)).toMatchSnapshot();
  });

  test('full output of the queues and of Kueue\'s webhooks', () => {
    const kueue = training.model.objects.filter((o) => o.component.componentName === 'kueue' && /Queue|Flavor|WebhookConfiguration/.test(o.json.kind));
    expect(kueue.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('distributed workloads', () => {
  test('composes Kueue, KubeRay, Trainer with JobSet and AppWrapper in any platform, Kueue last', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'dw', certificates: CertificateProvider.selfManaged() });
      DistributedWorkloads.addTo(p);
      return p;
    });
    expect(b.model.components.map((c) => c.componentName)).toEqual(['kuberay', 'jobset', 'appwrapper', 'trainer', 'kueue']);
  });

  test('with CodeFlare, the platform must declare Open Data Hub\'s DSCInitialization', () => {
    const make = (prerequisites: boolean) => (app: App) => {
      const p = new Platform(app, 'p', { name: 'dw', certificates: CertificateProvider.selfManaged(), prerequisites: prerequisites ? [ODH_OPERATOR] : [] });
      DistributedWorkloads.addTo(p, { codeFlare: { ingressDomain: 'apps.example.com' } });
      return p;
    };
    expect(problemsOf(() => build(make(true)))).toEqual([]);
    expect(problemsOf(() => build(make(false))).join('\n')).toContain('requires dscinitialization.opendatahub.io/DSCInitialization');
  });

  test('fails when CodeFlare would run a second AppWrapper controller', () => {
    const p = new Platform(new App(), 'p', { name: 'dw' });
    expect(() => DistributedWorkloads.addTo(p, { codeFlare: { appWrapper: true, ingressDomain: 'apps.example.com' } })).toThrow(
      'p: distributed workloads: codeFlare.appWrapper runs a second AppWrapper controller next to the standalone one; leave codeFlare.appWrapper off or set appWrapper: false',
    );
  });
});
