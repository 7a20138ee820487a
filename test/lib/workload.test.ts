import { findObject, newPlatform, problemsOf, TestComponent } from './support';
import { CertificateProvider } from '../../lib/certificates';
import { Rbac } from '../../lib/rbac';
import { RootFilesystem } from '../../lib/security';
import { WebhookServer } from '../../lib/webhook-server';
import { Workload, WorkloadProps } from '../../lib/workload';

const base: WorkloadProps = {
  name: 'ui',
  image: 'example/ui:v1',
  selectorLabels: { app: 'ui' },
  ports: [{ name: 'http', containerPort: 3000 }],
  readinessProbe: { httpGet: { path: '/healthz', port: 'http' } },
};

function withWorkload(props: Partial<WorkloadProps> = {}) {
  const p = newPlatform();
  const c = new TestComponent(p, 'test', 'test-system', (t) => {
    t.namespaceObject();
    new Workload(t, 'Ui', { ...base, ...props });
  });
  return { p, c };
}

describe('Workload', () => {
  test('a restricted Deployment, its ServiceAccount and a Service on every container port; passes every check', () => {
    const { p, c } = withWorkload();
    expect(problemsOf(p)).toEqual([]);
    const d = findObject(c, 'Deployment', 'ui');
    const pod = d.spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    // The root filesystem is left as upstream leaves it unless the workload declares where it writes.
    expect(pod.containers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, privileged: false, runAsNonRoot: true });
    expect(pod.volumes).toBeUndefined();
    expect(pod.containers[0].readinessProbe).toEqual({ httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 });
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(findObject(c, 'Service', 'ui').spec.ports).toEqual([{ name: 'http', port: 3000, targetPort: 'http', protocol: 'TCP' }]);
    expect(findObject(c, 'ServiceAccount', 'ui').automountServiceAccountToken).toBe(false);
  });

  test('writable paths: readOnly mounts each declared path as an emptyDir and makes the root read-only', () => {
    const { p, c } = withWorkload({ rootFilesystem: RootFilesystem.readOnly([{ name: 'tmp', mountPath: '/tmp' }]), volumeClaims: [{ name: 'data', size: '1Gi', mountPath: '/data' }] });
    expect(problemsOf(p)).toEqual([]);
    const pod = findObject(c, 'Deployment', 'ui').spec.template.spec;
    expect(pod.containers[0].securityContext.readOnlyRootFilesystem).toBe(true);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }, { name: 'data', mountPath: '/data' }]);
    expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: {} }, { name: 'data', persistentVolumeClaim: { claimName: 'data' } }]);
  });

  test('fails when a writable path is declared twice', () => {
    expect(() => withWorkload({ rootFilesystem: RootFilesystem.readOnly([{ name: 'a', mountPath: '/tmp' }, { name: 'b', mountPath: '/tmp' }]) }))
      .toThrow("test/Ui: rootFilesystem: writable path '/tmp' is declared twice; declare it once");
  });

  test('RBAC as intent: a ClusterRole and Role bound to its ServiceAccount, which then mounts a token', () => {
    const { c } = withWorkload({ rules: [Rbac.read('', 'pods')], namespacedRules: [Rbac.read('', 'configmaps')] });
    expect(findObject(c, 'ClusterRole', 'ui-role').rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]);
    expect(findObject(c, 'Role', 'ui-role').metadata.namespace).toBe('test-system');
    expect(findObject(c, 'ClusterRoleBinding', 'ui-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'ui', namespace: 'test-system' }]);
    expect(findObject(c, 'Deployment', 'ui').spec.template.spec.automountServiceAccountToken).toBe(true);
  });

  test('volume claims become PVCs mounted in the pod, with the Recreate strategy', () => {
    const { p, c } = withWorkload({ volumeClaims: [{ name: 'data', size: '20Gi', mountPath: '/data' }], runAsUser: 999, fsGroup: 999 });
    expect(problemsOf(p)).toEqual([]);
    expect(findObject(c, 'PersistentVolumeClaim', 'data').spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } });
    const d = findObject(c, 'Deployment', 'ui');
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec.template.spec.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }]);
    expect(d.spec.template.spec.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
    expect(d.spec.template.spec.securityContext.fsGroup).toBe(999);
  });

  test('serves webhooks through a WebhookServer: certificate mounted, Service to its webhook-server port; passes every check', () => {
    const p = newPlatform({ certificates: CertificateProvider.certManager() });
    const c = new TestComponent(p, 'test', 'test-system', (t) => {
      t.namespaceObject();
      const w = new Workload(t, 'Cache', { ...base, name: 'cache', webhookPort: 8443, service: false });
      const srv = new WebhookServer(t, 'Webhooks', { controller: w, serviceName: 'cache', secretName: 'cache-tls', certDir: '/etc/webhook/certs' });
      srv.addMutatingWebhook('cache-webhook', { name: 'cache.example.com', path: '/mutate', failurePolicy: 'Ignore', rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'] }] });
    });
    expect(problemsOf(p)).toEqual([]);
    const pod = findObject(c, 'Deployment', 'cache').spec.template.spec;
    expect(pod.containers[0].ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }, { name: 'webhook-server', containerPort: 8443, protocol: 'TCP' }]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/etc/webhook/certs', readOnly: true }]);
    expect(pod.volumes).toEqual([{ name: 'webhook-cert', secret: { secretName: 'cache-tls', defaultMode: 420 } }]);
    expect(findObject(c, 'Service', 'cache').spec.ports[0].targetPort).toBe('webhook-server');
  });

  test('service: false emits no Service', () => {
    const { c } = withWorkload({ service: false });
    expect(c.toJson().filter((o: any) => o.kind === 'Service')).toEqual([]);
  });

  test('a startup probe, a postStart command and a PriorityClass reach the pod (KFP-SEAWEED-AUTH, KFP-API-DB, ARGO-PRIO); passes every check', () => {
    const { p, c } = withWorkload({ startupProbe: { exec: { command: ['test', '-f', '/tmp/ready'] }, failureThreshold: 24 }, postStart: ['/bin/sh', '-c', 'touch /tmp/ready'], priorityClassName: 'critical' });
    expect(problemsOf(p)).toEqual([]);
    const pod = findObject(c, 'Deployment', 'ui').spec.template.spec;
    expect(pod.priorityClassName).toBe('critical');
    expect(pod.containers[0].startupProbe).toEqual({ exec: { command: ['test', '-f', '/tmp/ready'] }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 24 });
    expect(pod.containers[0].lifecycle).toEqual({ postStart: { exec: { command: ['/bin/sh', '-c', 'touch /tmp/ready'] } } });
    const plain = findObject(withWorkload().c, 'Deployment', 'ui').spec.template.spec;
    expect([plain.priorityClassName, plain.containers[0].startupProbe, plain.containers[0].lifecycle]).toEqual([undefined, undefined, undefined]);
  });

  test.each<[string, Partial<WorkloadProps>, string]>([
    ['runs as root', { runAsUser: 0 }, 'p/test/Ui: runAsUser 0 is root, which Pod Security "restricted" forbids; give a non-zero user id'],
    ['has an empty selector', { selectorLabels: {} }, 'p/test/Ui: selectorLabels must not be empty (the Service and the Deployment select pods by them)'],
    ['reuses a port number', { ports: [{ name: 'http', containerPort: 80 }, { name: 'grpc', containerPort: 80 }] }, 'p/test/Ui: container ports http=80, grpc=80 reuse a port number'],
    ['has a Service port targeting no container port', { service: { ports: [{ name: 'web', port: 80, targetPort: 'web' }] } }, "p/test/Ui: Service port web targets 'web', which is not a container port (have http)"],
    ['has a startup probe with no handler', { startupProbe: {} }, 'p/test/Ui: a probe needs exactly one of httpGet, tcpSocket, grpc, exec (got 0)'],
    ['has a probe with two handlers', { livenessProbe: { httpGet: { path: '/', port: 'http' }, tcpSocket: { port: 'http' } } }, 'p/test/Ui: a probe needs exactly one of httpGet, tcpSocket, grpc, exec (got 2)'],
    ['scales a workload with volume claims', { replicas: 2, volumeClaims: [{ name: 'd', size: '1Gi', mountPath: '/d' }] }, 'p/test/Ui: replicas 2 with volume claims: ReadWriteOnce claims mount on one pod; use replicas: 1'],
    ['grants a wildcard', { rules: [{ apiGroups: [''], resources: ['*'], verbs: ['get'] }] }, 'p/test/Ui: RBAC rule {"apiGroups":[""],"resources":["*"],"verbs":["get"]} uses \'*\' in resources; list the resources the controller needs'],
  ])('fails when it %s', (_what, props, message) => {
    expect(() => withWorkload(props)).toThrow(message);
  });
});
