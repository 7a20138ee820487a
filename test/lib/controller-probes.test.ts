import { build, newPlatform, TestComponent } from './support';
import { Controller, ControllerProps } from '../../lib/controller';

function deployment(props: Partial<ControllerProps> = {}) {
  const p = newPlatform();
  new TestComponent(p, 'test', 'test-system', (self) => {
    self.namespaceObject();
    new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: { app: 'w' }, ...props });
  });
  return build(p).model.objects.find((o) => o.json.kind === 'Deployment')!.json.spec.template.spec.containers[0];
}

describe('Controller probes', () => {
  test('controller-runtime paths by default', () => {
    const c = deployment();
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
  });

  test('other paths, or none', () => {
    const c = deployment({ probes: { liveness: '/livez', readiness: false } });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/livez', port: 'health' });
    expect(c).not.toHaveProperty('readinessProbe');
    const none = deployment({ probes: { liveness: false, readiness: false } });
    expect(none).not.toHaveProperty('livenessProbe');
  });

  test('fails when a probe path is not a path', () => {
    expect(() => deployment({ probes: { readiness: 'healthz' } })).toThrow("p/test/Manager: probes.readiness 'healthz' must be an HTTP path starting with '/'");
  });
});
