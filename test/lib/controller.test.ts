import { ApiObject } from 'cdk8s';
import { findObject, newPlatform, objectsOf, problemsOf, TestComponent, widgetDef } from './support';
import { CERT_MANAGER, PROMETHEUS_OPERATOR } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerProps, MetricsProtection } from '../../lib/controller';
import { Rbac } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';

const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };

function controller(props: Partial<ControllerProps> = {}): { c: TestComponent; ctl: Controller } {
  const platform = newPlatform();
  let ctl!: Controller;
  const c = new TestComponent(platform, 'test', 'test-system', (self) => {
    self.namespaceObject();
    ctl = new Controller(self, 'Manager', {
      name: 'widget-controller',
      image: self.image('manager'),
      selectorLabels: SELECTOR,
      ...props,
    });
  });
  return { c, ctl };
}

const deployment = (c: TestComponent) => findObject(c, 'Deployment', 'widget-controller');
const container = (c: TestComponent) => deployment(c).spec.template.spec.containers[0];

describe('Controller', () => {
  test('ServiceAccount and Deployment in the component namespace, with the resolved image', () => {
    const { c, ctl } = controller({ labels: { 'app.kubernetes.io/version': 'v1.0.0' } });
    const sa = findObject(c, 'ServiceAccount', 'widget-controller');
    expect(sa.metadata.namespace).toBe('test-system');
    const d = deployment(c);
    expect(d.metadata.namespace).toBe('test-system');
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.selector).toEqual({ matchLabels: SELECTOR });
    expect(d.spec.template.metadata.labels).toEqual({ ...SELECTOR, 'app.kubernetes.io/version': 'v1.0.0' });
    expect(d.spec.template.spec.serviceAccountName).toBe('widget-controller');
    expect(container(c).image).toBe('example/manager:v1.0.0');
    expect(container(c).env[0]).toEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    expect(ctl.namespace).toBe('test-system');
  });

  test('the Deployment passes the Pod Security restricted basics', () => {
    const { c } = controller({ rootFilesystem: RootFilesystem.readOnly() });
    const pod = deployment(c).spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    for (const ct of pod.containers) {
      expect(ct.securityContext.allowPrivilegeEscalation).toBe(false);
      expect(ct.securityContext.capabilities).toEqual({ drop: ['ALL'] });
      expect(ct.securityContext.privileged).toBe(false);
      expect(ct.securityContext.runAsNonRoot).toBe(true);
      expect(ct.securityContext.readOnlyRootFilesystem).toBe(true);
    }
    expect(pod.hostNetwork).toBeUndefined();
    expect(pod.hostPID).toBeUndefined();
  });

  describe('writable paths', () => {
    test('by default the root filesystem is left as upstream leaves it: no readOnlyRootFilesystem, no emptyDir', () => {
      const { c } = controller();
      expect(container(c).securityContext.readOnlyRootFilesystem).toBeUndefined();
      expect(container(c).volumeMounts).toBeUndefined();
      expect(deployment(c).spec.template.spec.volumes).toBeUndefined();
      expect(problemsOf(c.platform)).toEqual([]);
    });

    test('readOnly: every declared writable path is a writable emptyDir mount, next to the other volumes', () => {
      const { c } = controller({
        rootFilesystem: RootFilesystem.readOnly([{ name: 'visibility', mountPath: '/visibility' }, { name: 'tmp', mountPath: '/tmp', sizeLimit: '1Gi' }, { name: 'shm', mountPath: '/dev/shm', medium: 'Memory' }]),
        volumes: [{ name: 'config', configMap: { name: 'widget-config' } }],
        volumeMounts: [{ name: 'config', mountPath: '/config', readOnly: true }],
      });
      expect(container(c).securityContext.readOnlyRootFilesystem).toBe(true);
      expect(container(c).volumeMounts).toEqual([
        { name: 'visibility', mountPath: '/visibility' },
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'shm', mountPath: '/dev/shm' },
        { name: 'config', mountPath: '/config', readOnly: true },
      ]);
      expect(deployment(c).spec.template.spec.volumes).toEqual([
        { name: 'visibility', emptyDir: {} },
        { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
        { name: 'shm', emptyDir: { medium: 'Memory' } },
        { name: 'config', configMap: { name: 'widget-config' } },
      ]);
      expect(problemsOf(c.platform)).toEqual([]);
    });

    test('asUpstream: upstream\'s emptyDirs are mounted, the root stays writable', () => {
      const { c } = controller({ rootFilesystem: RootFilesystem.asUpstream([{ name: 'cache', mountPath: '/cache' }]) });
      expect(container(c).securityContext.readOnlyRootFilesystem).toBeUndefined();
      expect(container(c).volumeMounts).toEqual([{ name: 'cache', mountPath: '/cache' }]);
      expect(deployment(c).spec.template.spec.volumes).toEqual([{ name: 'cache', emptyDir: {} }]);
    });

    test('fails when a writable path is relative', () => {
      expect(() => controller({ rootFilesystem: RootFilesystem.readOnly([{ name: 'tmp', mountPath: 'tmp' }]) }))
        .toThrow("test/Manager: rootFilesystem: writable path 'tmp' (volume tmp) is not absolute; give the absolute path the program writes");
    });

    test('fails when two writable paths share a volume name, or a path is declared twice', () => {
      expect(() => controller({ rootFilesystem: RootFilesystem.readOnly([{ name: 'tmp', mountPath: '/tmp' }, { name: 'tmp', mountPath: '/var/tmp' }]) }))
        .toThrow("test/Manager: rootFilesystem: volume name 'tmp' is used by two writable paths; give each path its own volume name");
      expect(() => controller({ rootFilesystem: RootFilesystem.readOnly([{ name: 'a', mountPath: '/tmp' }, { name: 'b', mountPath: '/tmp' }]) }))
        .toThrow("test/Manager: rootFilesystem: writable path '/tmp' is declared twice; declare it once");
    });
  });

  test('liveness and readiness probes use the health port', () => {
    const { c } = controller({ ports: { health: 8082 } });
    const ct = container(c);
    expect(ct.ports).toContainEqual({ name: 'health', containerPort: 8082, protocol: 'TCP' });
    expect(ct.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(ct.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
  });

  test('the health port defaults to 8081', () => {
    const { c } = controller();
    expect(container(c).ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]);
  });

  test('every container port is named; secure metrics get a Service targeting the port by name', () => {
    const { c, ctl } = controller({ ports: { webhook: 9443 }, metrics: ControllerMetrics.secure(8443) });
    const ports = container(c).ports;
    expect(ports).toEqual([
      { name: 'health', containerPort: 8081, protocol: 'TCP' },
      { name: 'https', containerPort: 8443, protocol: 'TCP' },
      { name: 'webhook-server', containerPort: 9443, protocol: 'TCP' },
    ]);
    for (const p of ports) expect(p.name).toMatch(/^[a-z0-9-]{1,15}$/);
    const svc = findObject(c, 'Service', 'widget-controller-metrics-service');
    expect(svc.spec.selector).toEqual(SELECTOR);
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(ctl.webhookPort).toBe(9443);
    expect(ctl.metricsService).toBeDefined();
  });

  test('no metrics Service without a metrics port', () => {
    const { c, ctl } = controller();
    expect(objectsOf(c).filter((o) => o.kind === 'Service')).toEqual([]);
    expect(ctl.metricsService).toBeUndefined();
  });

  test('owns -> a ClusterRole with the kind, its status and its finalizers, bound to the ServiceAccount', () => {
    const def = widgetDef();
    const { c } = controller({ owns: [def], rules: [Rbac.read('', 'pods')] });
    const role = findObject(c, 'ClusterRole', 'widget-controller-role');
    expect(role.rules).toEqual(
      expect.arrayContaining([
        { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
        { apiGroups: ['example.com'], resources: ['widgets/status'], verbs: ['get', 'patch', 'update'] },
        { apiGroups: ['example.com'], resources: ['widgets/finalizers'], verbs: ['update'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
      ]),
    );
    const binding = findObject(c, 'ClusterRoleBinding', 'widget-controller-rolebinding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'widget-controller-role' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'widget-controller', namespace: 'test-system' }]);
  });

  test('no ClusterRole and no Role when the controller needs no permissions', () => {
    const { c } = controller();
    const kinds = objectsOf(c).map((o) => o.kind);
    for (const k of ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']) expect(kinds).not.toContain(k);
  });

  test('leader election -> a Role with leases and events in the controller namespace', () => {
    const { c, ctl } = controller({ leaderElectionId: 'widget-leader', replicas: 2 });
    expect(deployment(c).spec.replicas).toBe(2);
    const role = findObject(c, 'Role', 'widget-controller-role');
    expect(role.metadata.namespace).toBe('test-system');
    expect(role.rules).toEqual(
      expect.arrayContaining([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
        { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      ]),
    );
    const binding = findObject(c, 'RoleBinding', 'widget-controller-rolebinding');
    expect(binding.metadata.namespace).toBe('test-system');
    expect(binding.roleRef.kind).toBe('Role');
    expect(ctl.namespacedRules).toEqual(role.rules);
  });

  test('default resources, overridable', () => {
    expect(container(controller().c).resources).toEqual({ requests: { cpu: '100m', memory: '200Mi' }, limits: { cpu: '500m', memory: '512Mi' } });
    expect(container(controller({ resources: { requests: { cpu: '1' } } }).c).resources).toEqual({ requests: { cpu: '1' } });
  });

  test('mountSecret adds a volume and a read-only mount', () => {
    const { c, ctl } = controller();
    ctl.mountSecret('certs', 'widget-certs', '/certs');
    const pod = deployment(c).spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'certs', secret: { secretName: 'widget-certs', defaultMode: 420 } }]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'certs', mountPath: '/certs', readOnly: true }]);
  });

  test('no volumes and no mounts by default', () => {
    const pod = deployment(controller().c).spec.template.spec;
    expect(pod.volumes).toBeUndefined();
    expect(pod.containers[0].volumeMounts).toBeUndefined();
  });

  test('a platform with a namespace and a controller passes every check', () => {
    const { c } = controller({ owns: [widgetDef()], leaderElectionId: 'leader', replicas: 2, ports: { webhook: 9443 }, metrics: ControllerMetrics.secure(8443) });
    expect(problemsOf(c.platform)).toEqual([]);
  });

  test('fails when selectorLabels is empty', () => {
    expect(() => controller({ selectorLabels: {} })).toThrow(
      'p/test/Manager: selectorLabels must not be empty (a Service and the Deployment select pods by them)',
    );
  });

  test('fails when labels conflict with selectorLabels', () => {
    expect(() => controller({ labels: { 'app.kubernetes.io/name': 'other' } })).toThrow(
      'p/test/Manager: label app.kubernetes.io/name=other conflicts with selector label app.kubernetes.io/name=widget-controller; the pod labels must match the selector (drop it from labels)',
    );
  });

  test('labels repeating a selector label with the same value are accepted', () => {
    const { c } = controller({ labels: { ...SELECTOR, team: 'ml' } });
    expect(deployment(c).spec.template.metadata.labels).toEqual({ ...SELECTOR, team: 'ml' });
  });

  test('fails when replicas > 1 without leaderElectionId', () => {
    expect(() => controller({ replicas: 2 })).toThrow(
      'p/test/Manager: replicas 2 without leaderElectionId: several managers would reconcile at once; set leaderElectionId or replicas: 1',
    );
  });

  test('fails when replicas is not a whole number >= 0', () => {
    expect(() => controller({ replicas: -1 })).toThrow('p/test/Manager: replicas -1 must be a whole number >= 0');
    expect(() => controller({ replicas: 1.5 })).toThrow('p/test/Manager: replicas 1.5 must be a whole number >= 0');
  });

  test("fails when rules use '*'", () => {
    expect(() => controller({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }] })).toThrow(
      'p/test/Manager: RBAC rule {"apiGroups":[""],"resources":["pods"],"verbs":["*"]} uses \'*\' in verbs; list the verbs the controller needs',
    );
    expect(() => controller({ rules: [{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }] })).toThrow(
      'p/test/Manager: RBAC rule {"apiGroups":["*"],"resources":["pods"],"verbs":["get"]} uses \'*\' in apiGroups; list the apiGroups the controller needs',
    );
  });

  test("fails when namespaced rules use '*'", () => {
    expect(() => controller({ namespacedRules: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }] })).toThrow(
      'p/test/Manager: RBAC rule {"apiGroups":[""],"resources":["*"],"verbs":["get"]} uses \'*\' in resources; list the resources the controller needs',
    );
  });

  test('fails when the image key is not in the versions table', () => {
    const platform = newPlatform();
    expect(() => new TestComponent(platform, 'test', 'test-system', (self) => self.image('agent'))).toThrow(
      "p/test: no image 'agent' in the versions table (has manager)",
    );
  });

  test('fails when a platform image override sets latest (the platform path prefixes the error)', () => {
    const platform = newPlatform({ images: { overrides: { 'test/manager': { tag: 'latest' } } } });
    expect(() => new TestComponent(platform, 'test', 'test-system', (self) => self.image('manager'))).toThrow(
      "p: image 'test/manager': tag 'latest' is not allowed",
    );
  });

  describe('metrics', () => {
    const clusterRole = (c: TestComponent, name = 'widget-controller-role') => findObject(c, 'ClusterRole', name);

    test('secure metrics: manager flags appended, HTTPS port, authn/authz RBAC and a metrics-reader role', () => {
      const { c, ctl } = controller({ args: ['--leader-elect'], metrics: ControllerMetrics.secure(8443, { args: ['--metrics-bind-address=:8443'] }) });
      expect(container(c).args).toEqual(['--leader-elect', '--metrics-bind-address=:8443']);
      expect(container(c).ports).toContainEqual({ name: 'https', containerPort: 8443, protocol: 'TCP' });
      expect(clusterRole(c).rules).toEqual(expect.arrayContaining([
        { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
        { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
      ]));
      expect(clusterRole(c, 'widget-controller-metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
      expect(ctl.metrics?.protection).toBe(MetricsProtection.SECURE);
      expect(ctl.metrics?.authenticated).toBe(true);
    });

    test('kube-rbac-proxy: a sidecar serves HTTPS, the manager keeps no metrics port, the Service targets the sidecar', () => {
      const { c } = controller({
        metrics: ControllerMetrics.rbacProxy({ image: 'quay.io/brancz/kube-rbac-proxy:v0.18.0', args: ['--metrics-addr=127.0.0.1:8080'], serviceName: 'widget-metrics' }),
      });
      const pod = deployment(c).spec.template.spec;
      expect(pod.containers.map((x: any) => x.name)).toEqual(['manager', 'kube-rbac-proxy']);
      expect(pod.containers[0].ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]);
      expect(pod.containers[0].args).toEqual(['--metrics-addr=127.0.0.1:8080']);
      expect(pod.containers[1].args).toEqual(['--secure-listen-address=0.0.0.0:8443', '--upstream=http://127.0.0.1:8080/', '--logtostderr=true', '--v=0']);
      expect(pod.containers[1].securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, readOnlyRootFilesystem: true, runAsNonRoot: true });
      expect(findObject(c, 'Service', 'widget-metrics').spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
      expect(problemsOf(c.platform)).toEqual([]);
    });

    test('localhost metrics: no port, no Service, no extra RBAC', () => {
      const { c } = controller({ metrics: ControllerMetrics.localhost(8080, { args: ['--metrics-bind-address=127.0.0.1:8080'] }) });
      expect(container(c).ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]);
      expect(objectsOf(c).filter((o) => o.kind === 'Service')).toEqual([]);
      expect(objectsOf(c).filter((o) => o.kind === 'ClusterRole')).toEqual([]);
    });

    test('insecure metrics are an explicit opt-out with a reason: plain port named metrics, no authn RBAC', () => {
      const { c, ctl } = controller({ metrics: ControllerMetrics.insecure(8080, 'scraped by a sidecar-less legacy Prometheus') });
      expect(findObject(c, 'Service', 'widget-controller-metrics-service').spec.ports).toEqual([{ name: 'metrics', port: 8080, targetPort: 'metrics', protocol: 'TCP' }]);
      expect(objectsOf(c).filter((o) => o.kind === 'ClusterRole')).toEqual([]);
      expect(ctl.metrics?.reason).toBe('scraped by a sidecar-less legacy Prometheus');
    });

    test('fails when insecure metrics give no reason', () => {
      expect(() => ControllerMetrics.insecure(8080, ' ')).toThrow('ControllerMetrics.insecure: give the reason metrics are served without authentication');
    });

    test('fails when the metrics port is out of range', () => {
      expect(() => ControllerMetrics.secure(70000)).toThrow('ControllerMetrics: port 70000 must be a whole number from 1 to 65535');
    });

    test('fails when two endpoints share a container port', () => {
      expect(() => controller({ ports: { webhook: 8443 }, metrics: ControllerMetrics.secure(8443) })).toThrow(
        'p/test/Manager: container ports health=8081, https=8443, webhook-server=8443 reuse a port number; give each endpoint its own port',
      );
    });

    test('fails when a port name is not an IANA service name', () => {
      expect(() => controller({ metrics: ControllerMetrics.secure(8443, { portName: 'metrics-https-port' }) })).toThrow(
        "p/test/Manager: port name 'metrics-https-port' must be a lower-case IANA service name of at most 15 characters",
      );
    });
  });

  test('extra ports are named container ports after the health and webhook ports', () => {
    const { c } = controller({ ports: { webhook: 9443, extra: [{ name: 'visibility', containerPort: 8082 }] } });
    expect(container(c).ports).toEqual([
      { name: 'health', containerPort: 8081, protocol: 'TCP' },
      { name: 'webhook-server', containerPort: 9443, protocol: 'TCP' },
      { name: 'visibility', containerPort: 8082, protocol: 'TCP' },
    ]);
  });

  test('fails when an extra port reuses a port number or has a bad name', () => {
    expect(() => controller({ ports: { extra: [{ name: 'grpc', containerPort: 8081 }] } })).toThrow(
      'p/test/Manager: container ports health=8081, grpc=8081 reuse a port number; give each endpoint its own port',
    );
    expect(() => controller({ ports: { extra: [{ name: 'Visibility', containerPort: 8082 }] } })).toThrow(
      "p/test/Manager: port name 'Visibility' must be a lower-case IANA service name of at most 15 characters",
    );
  });

  test('non-resource URL rules reach the ClusterRole under their API name', () => {
    const { c } = controller({ rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
    expect(findObject(c, 'ClusterRole', 'widget-controller-role').rules).toEqual([
      { nonResourceURLs: ['/metrics'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
    ]);
    expect(problemsOf(c.platform)).toEqual([]);
  });
});

describe('DSPO-SVCMON: Controller.addServiceMonitor', () => {
  function monitored(metrics: ControllerMetrics, prerequisites = [CERT_MANAGER, PROMETHEUS_OPERATOR], add = true) {
    let ctl!: Controller;
    let monitor: ApiObject | undefined;
    const c = new TestComponent(newPlatform({ prerequisites }), 'test', 'test-system', (self) => {
      ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, metrics });
      if (add) monitor = ctl.addServiceMonitor({ name: 'widget-monitor', selector: SELECTOR });
    });
    return { c, ctl, monitor };
  }

  test('plain HTTP metrics: the named port over http; authenticated metrics: https with the scraper\'s token', () => {
    const plain = monitored(ControllerMetrics.insecure(8080, 'upstream serves plain HTTP', { portName: 'metrics' }));
    expect(findObject(plain.c, 'ServiceMonitor', 'widget-monitor').spec).toEqual({
      endpoints: [{ path: '/metrics', port: 'metrics' }], selector: { matchLabels: SELECTOR },
    });
    const secure = monitored(ControllerMetrics.secure(8443));
    expect(findObject(secure.c, 'ServiceMonitor', 'widget-monitor').spec.endpoints).toEqual([{
      path: '/metrics', port: 'https', scheme: 'https', bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', tlsConfig: { insecureSkipVerify: true },
    }]);
  });

  test('left out where the platform does not serve the ServiceMonitor kind', () => {
    const without = monitored(ControllerMetrics.secure(8443), [CERT_MANAGER]);
    expect(without.c.emits(without.monitor!)).toBe(false);
    const withIt = monitored(ControllerMetrics.secure(8443));
    expect(withIt.c.emits(withIt.monitor!)).toBe(true);
  });

  test('fails when the controller has no metrics Service', () => {
    const { ctl } = monitored(ControllerMetrics.localhost(8080), [CERT_MANAGER], false);
    expect(() => ctl.addServiceMonitor({ name: 'm', selector: SELECTOR })).toThrow(
      "p/test/Manager: addServiceMonitor: controller 'widget-controller' has no metrics Service to scrape; give it metrics (ControllerMetrics.secure, rbacProxy or insecure)",
    );
  });
});
