import { findObject, newPlatform, problemsOf, TestComponent } from './support';
import { Controller, ControllerProps } from '../../lib/controller';
import { WebhookServer } from '../../lib/webhook-server';

const SELECTOR = { 'app.kubernetes.io/name': 'widget-server' };

function controller(props: Partial<ControllerProps> = {}, webhook = false): TestComponent {
  return new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
    self.namespaceObject();
    const ctl = new Controller(self, 'Server', { name: 'widget-server', image: self.image('manager'), selectorLabels: SELECTOR, ...props });
    if (webhook) new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-cert' });
  });
}

const pod = (c: TestComponent) => findObject(c, 'Deployment').spec.template.spec;

describe('Controller options', () => {
  test('containerName, serviceAccountName and runAsUser', () => {
    const c = controller({ containerName: 'server', serviceAccountName: 'widget-sa', runAsUser: 65532 });
    expect(pod(c).containers[0].name).toBe('server');
    expect(pod(c).containers[0].securityContext.runAsUser).toBe(65532);
    expect(pod(c).serviceAccountName).toBe('widget-sa');
    expect(findObject(c, 'ServiceAccount').metadata.name).toBe('widget-sa');
    expect(findObject(c, 'Deployment').metadata.name).toBe('widget-server');
  });

  test('the RoleBindings bind the named ServiceAccount, and the RBAC check follows it', () => {
    const c = controller({ serviceAccountName: 'widget-sa', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }], watches: [{ group: '', resource: 'pods' }] });
    expect(findObject(c, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'widget-sa', namespace: 'test-system' }]);
    expect(problemsOf(c.platform)).toEqual([]);
  });

  test('custom probe paths', () => {
    const c = controller({ probes: { livenessPath: '/live', readinessPath: '/ready' } });
    expect(pod(c).containers[0].livenessProbe.httpGet).toEqual({ path: '/live', port: 'health' });
    expect(pod(c).containers[0].readinessProbe.httpGet).toEqual({ path: '/ready', port: 'health' });
  });

  test('probes: false -> no probes and no health port', () => {
    const c = controller({ probes: false, ports: { webhook: 4443 } });
    const ct = pod(c).containers[0];
    expect(ct.livenessProbe).toBeUndefined();
    expect(ct.readinessProbe).toBeUndefined();
    expect(ct.ports).toEqual([{ name: 'webhook-server', containerPort: 4443, protocol: 'TCP' }]);
  });

  test('webhookPortName names the container port and the webhook Service targets it', () => {
    const c = controller({ ports: { webhook: 4443 }, webhookPortName: 'https-webhook' }, true);
    expect(pod(c).containers[0].ports).toContainEqual({ name: 'https-webhook', containerPort: 4443, protocol: 'TCP' });
    expect(findObject(c, 'Service', 'widget-webhook').spec.ports[0].targetPort).toBe('https-webhook');
  });

  test('sidecars join the pod after the manager', () => {
    const sidecar = { name: 'api', image: 'example/api:v1.0.0', ports: [{ name: 'http-api', containerPort: 8081 }] };
    const c = controller({ ports: { health: 9876 }, sidecars: [sidecar] });
    expect(pod(c).containers.map((x: any) => x.name)).toEqual(['manager', 'api']);
    expect(pod(c).containers[1]).toEqual(sidecar);
  });

  test('mountConfigMap adds a configMap volume and a read-only mount', () => {
    const c = new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
      const ctl = new Controller(self, 'Server', { name: 'widget-server', image: self.image('manager'), selectorLabels: SELECTOR });
      ctl.mountConfigMap('config', 'widget-config', '/etc/widget');
    });
    expect(pod(c).volumes).toEqual([{ name: 'config', configMap: { name: 'widget-config' } }]);
    expect(pod(c).containers[0].volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/widget', readOnly: true }]);
  });

  test('a stateless server may run several replicas without leader election', () => {
    expect(pod(controller({ stateless: true, replicas: 3 }))).toBeDefined();
    expect(findObject(controller({ stateless: true, replicas: 3 }), 'Deployment').spec.replicas).toBe(3);
  });

  test('fails when a controller that is not stateless runs several replicas without leader election', () => {
    expect(() => controller({ replicas: 2 })).toThrow('p/test/Server: replicas 2 without leaderElectionId: several managers would reconcile at once; set leaderElectionId or replicas: 1');
  });
});
