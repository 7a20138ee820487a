import { TensorboardController, TensorboardControllerProps } from '../../../constructs/tensorboard-controller';
import { Platform, PlatformProps } from '../../../lib/platform';
import { build, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

function platform(props: TensorboardControllerProps = {}, more: Partial<PlatformProps> = {}) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'tensorboards', prerequisites: [ISTIO], ...more });
    new TensorboardController(p, 'tensorboard-controller', props);
    return p;
  });
}
const objectsOf = (b: ReturnType<typeof platform>) => b.model.objects.map((o) => o.json);
const find = (b: ReturnType<typeof platform>, kind: string, name: string) => {
  const o = objectsOf(b).find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const manager = (b: ReturnType<typeof platform>) => find(b, 'Deployment', 'tensorboard-controller-deployment').spec.template.spec.containers.find((c: any) => c.name === 'manager');

describe('TensorboardController', () => {
  const alone = platform();

  test('the Tensorboard CRD as the Go types at v1.11.0 define it: logspath required, status with conditions and ready replicas', () => {
    const crd = find(alone, 'CustomResourceDefinition', 'tensorboards.tensorboard.kubeflow.org');
    expect(crd.spec.versions.map((v: any) => [v.name, v.served, v.storage, v.subresources])).toEqual([['v1alpha1', true, true, { status: {} }]]);
    const schema = crd.spec.versions[0].schema.openAPIV3Schema;
    expect(schema.properties.spec.required).toEqual(['logspath']);
    expect(schema.properties.status.required).toEqual(['conditions', 'readyReplicas']);
    expect(schema.properties.status.properties.conditions.items.required).toEqual(['deploymentState']);
    expect(schema.properties.status.properties.readyReplicas).toMatchObject({ type: 'integer', format: 'int32' });
  });

  test('the controller reads its settings from upstream\'s ConfigMap by name; the TensorBoard image follows the registry mirror', () => {
    expect(manager(alone).envFrom).toEqual([{ configMapRef: { name: 'tensorboard-controller-config' } }]);
    expect(find(alone, 'ConfigMap', 'tensorboard-controller-config').data).toEqual({
      ISTIO_GATEWAY: 'kubeflow/kubeflow-gateway', ISTIO_HOST: '*', RWO_PVC_SCHEDULING: 'True', TENSORBOARD_IMAGE: 'tensorflow/tensorflow:2.5.1',
    });
    const mirrored = platform({ rwoPvcScheduling: false }, { images: { registryMirror: 'mirror.example.com' } });
    expect(find(mirrored, 'ConfigMap', 'tensorboard-controller-config').data).toMatchObject({ RWO_PVC_SCHEDULING: 'False', TENSORBOARD_IMAGE: 'mirror.example.com/tensorflow/tensorflow:2.5.1' });
  });

  test('one replica runs without leader election, as upstream; more turn it on with the ConfigMap lock controller-runtime v0.11 uses', () => {
    expect(manager(alone).args).not.toContain('--leader-elect');
    const two = platform({ replicas: 2 });
    expect(manager(two).args).toContain('--leader-elect');
    const role = objectsOf(two).find((o) => o.kind === 'Role' && o.metadata.namespace === 'kubeflow');
    expect(role.rules).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] });
  });

  test('metrics through kube-rbac-proxy on upstream\'s Service, which selects only this controller\'s pods', () => {
    const svc = find(alone, 'Service', 'tensorboard-controller-controller-manager-metrics-service');
    expect(svc.spec.selector).toEqual({ 'app': 'tensorboard-controller', 'kustomize.component': 'tensorboard-controller' });
    const containers = find(alone, 'Deployment', 'tensorboard-controller-deployment').spec.template.spec.containers;
    expect(containers.map((c: any) => c.image)).toEqual(['ghcr.io/kubeflow/notebooks/tensorboard-controller:v1.11.0', 'quay.io/brancz/kube-rbac-proxy:v0.8.0']);
  });

  test.each([
    [{ istioGateway: 'gateway' }, "p/tensorboard-controller: istioGateway 'gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)"],
    [{ replicas: 0 }, 'p/tensorboard-controller: replicas 0 must be a whole number >= 1'],
    [{ istioHost: ' ' }, 'p/tensorboard-controller: istioHost is empty; give a host, or * for any'],
  ] as Array<[TensorboardControllerProps, string]>)('bad input %j', (props, message) => {
    expect(problemsOf(() => platform(props))).toEqual([message]);
  });

  test('needs Istio\'s VirtualService: without Istio the platform says so', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'no-istio' });
      new TensorboardController(p, 'tensorboard-controller');
      return p;
    }));
    expect(problems.join('\n')).toMatch(/tensorboard-controller.*VirtualService/);
  });
});
