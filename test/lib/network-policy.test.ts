import { ApiObject } from 'cdk8s';
import { build, newPlatform, problemsOf, TestComponent, widgetDef } from './support';
import { CERT_MANAGER } from '../../lib/component';
import { Controller, ControllerMetrics } from '../../lib/controller';
import { ISTIO_INJECTION_ENABLED } from '../../lib/istio';
import { AuthorizationPolicy, NetworkPeer, NetworkPolicy, selectorOn, serviceAccountPrincipal } from '../../lib/network-policy';
import { PlatformProps } from '../../lib/platform';
import { ISTIO } from '../../lib/prerequisites';
import { metricsTable } from '../../lib/report';
import { WebhookServer } from '../../lib/webhook-server';

const NS = 'test-system';

function platformWith(body: (c: TestComponent) => void, props: Partial<PlatformProps> = {}) {
  const platform = newPlatform(props);
  new TestComponent(platform, 'test', NS, (c) => {
    // Sidecars in every pod, so that Istio enforces the AuthorizationPolicies (MLP061).
    c.namespaceObject({ ...ISTIO_INJECTION_ENABLED });
    body(c);
  });
  return platform;
}

/** Two controllers that share kubebuilder's control-plane label, as operators in one namespace do. */
function twoControllers(c: TestComponent, metrics?: ControllerMetrics): [Controller, Controller] {
  const a = new Controller(c, 'A', { name: 'a-controller', image: c.image('manager'), selectorLabels: { 'control-plane': 'controller-manager', 'app': 'a' }, ports: { webhook: 9443 }, metrics });
  const b = new Controller(c, 'B', { name: 'b-controller', image: c.image('manager'), selectorLabels: { 'control-plane': 'controller-manager', 'app': 'b' } });
  return [a, b];
}

const objects = (body: (c: TestComponent) => void, props: Partial<PlatformProps> = {}) => build(platformWith(body, props)).model.objects.map((o) => o.json);

describe('NetworkPolicy', () => {
  test('selects exactly its target\'s pods and admits the peers and ports given', () => {
    const out = objects((c) => {
      const [a] = twoControllers(c);
      new NetworkPolicy(c, 'Np', { name: 'a-webhook', targets: [a], ingress: [{ ports: [9443] }, { from: [NetworkPeer.namespace('istio-system'), NetworkPeer.podsInOwnNamespace()], ports: ['health'] }] });
    });
    const np = out.find((o) => o.kind === 'NetworkPolicy');
    expect(np).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'a-webhook', namespace: NS },
      spec: {
        podSelector: { matchLabels: { 'control-plane': 'controller-manager', 'app': 'a' } },
        policyTypes: ['Ingress'],
        ingress: [
          { ports: [{ port: 9443, protocol: 'TCP' }] },
          { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system'] }] } }, { podSelector: {} }], ports: [{ port: 'health', protocol: 'TCP' }] },
        ],
      },
    });
  });

  test('fails (MLP060) when its selector also selects another workload\'s pods', () => {
    expect(problemsOf(platformWith((c) => {
      const [a] = twoControllers(c);
      new NetworkPolicy(c, 'Np', { name: 'a-webhook', targets: [a], podSelector: { matchLabels: { 'control-plane': 'controller-manager' } }, ingress: [{ ports: [9443] }] });
    }))).toEqual([
      '[MLP060] p/test/Np/Resource: NetworkPolicy test-system/a-webhook selects the pods of Deployment b-controller (p/test/B/Deployment), which it does not name as a target; narrow its selector with a label only its targets\' pods carry',
    ]);
  });

  test('fails (MLP060) when it selects no pod of a target', () => {
    expect(problemsOf(platformWith((c) => {
      const [a] = twoControllers(c);
      new NetworkPolicy(c, 'Np', { name: 'a-webhook', targets: [a], podSelector: { matchLabels: { app: 'c' } }, ingress: [{ ports: [9443] }] });
    }))).toEqual([
      '[MLP060] p/test/Np/Resource: NetworkPolicy test-system/a-webhook names a-controller as a target, but selects no pod of a workload a-controller in namespace test-system; use the workload\'s selector labels',
    ]);
  });

  test('pods made at run time: the policy must select no emitted workload', () => {
    const runtime = { name: 'runtime pods', selectorLabels: { 'control-plane': 'controller-manager' }, runtimePods: true };
    expect(problemsOf(platformWith((c) => {
      twoControllers(c);
      new NetworkPolicy(c, 'Np', { name: 'runtimes', targets: [runtime], podSelector: { matchLabels: runtime.selectorLabels }, ingress: [{ ports: [8033] }] });
    }))).toHaveLength(2);
    expect(problemsOf(platformWith((c) => {
      twoControllers(c);
      new NetworkPolicy(c, 'Np', { name: 'runtimes', targets: [runtime], podSelector: { matchLabels: runtime.selectorLabels, matchExpressions: [{ key: 'runtime', operator: 'Exists' }] }, ingress: [{ ports: [8033] }] });
    }))).toEqual([]);
  });

  test('fails when props alone are wrong: no targets, several targets without a selector, no ingress', () => {
    expect(() => platformWith((c) => new NetworkPolicy(c, 'Np', { name: 'x', targets: [], ingress: [{}] })))
      .toThrow('p/test/Np: targets is empty; name the workloads whose pods the policy selects');
    expect(() => platformWith((c) => new NetworkPolicy(c, 'Np', { name: 'x', targets: twoControllers(c), ingress: [{}] })))
      .toThrow('p/test/Np: 2 targets (a-controller, b-controller) but no podSelector; give the selector that matches exactly those workloads\' pods, or one policy per workload');
    expect(() => platformWith((c) => new NetworkPolicy(c, 'Np', { name: 'x', targets: [twoControllers(c)[0]], ingress: [] })))
      .toThrow('p/test/Np: ingress is empty, which denies every connection to a-controller; list what may connect');
  });
});

describe('AuthorizationPolicy', () => {
  const body = (required?: boolean) => (c: TestComponent) => {
    const [a] = twoControllers(c);
    new AuthorizationPolicy(c, 'Ap', {
      name: 'a',
      targets: [a],
      required,
      rules: [{ from: [{ principals: [serviceAccountPrincipal(NS, 'b-controller')] }] }, { when: [{ key: 'request.headers[x-user]', notValues: ['*'] }] }],
    });
  };

  test('emitted on a platform with Istio, selecting its target\'s pods', () => {
    const ap = objects(body(), { prerequisites: [CERT_MANAGER, ISTIO] }).find((o) => o.kind === 'AuthorizationPolicy');
    expect(ap).toEqual({
      apiVersion: 'security.istio.io/v1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'a', namespace: NS },
      spec: {
        selector: { matchLabels: { 'control-plane': 'controller-manager', 'app': 'a' } },
        rules: [
          { from: [{ source: { principals: ['cluster.local/ns/test-system/sa/b-controller'] } }] },
          { when: [{ key: 'request.headers[x-user]', notValues: ['*'] }] },
        ],
      },
    });
  });

  test('left out on a platform without Istio (Istio would enforce it; the kind is not served)', () => {
    expect(objects(body()).filter((o) => o.kind === 'AuthorizationPolicy')).toEqual([]);
  });

  test('required: fails on a platform without Istio, naming the kind', () => {
    const problems = problemsOf(platformWith(body(true)));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^p\/test: component 'test' \(TestComponent\) requires security\.istio\.io\/AuthorizationPolicy \(AuthorizationPolicy a protects a-controller; declare Istio \(prerequisites: \[ISTIO\]\)\)/);
  });

  test('fails when it has no rules (an ALLOW policy without rules denies everything)', () => {
    expect(() => platformWith((c) => new AuthorizationPolicy(c, 'Ap', { name: 'a', targets: [twoControllers(c)[0]], rules: [] })))
      .toThrow('p/test/Ap: rules is empty; an ALLOW policy without rules denies every request to a-controller. List what may call it (a rule {} allows every request)');
  });
});

describe('metrics fence', () => {
  const insecure = ControllerMetrics.insecure(8080, 'plain HTTP only');
  const fences = (props: Partial<PlatformProps> = {}, extra?: (c: TestComponent, a: Controller) => void) =>
    objects((c) => {
      const [a] = twoControllers(c, insecure);
      extra?.(c, a);
    }, props).filter((o) => o.kind === 'NetworkPolicy');

  test('on by default: the metrics port only from the monitoring namespace, the other declared ports as before', () => {
    expect(fences()).toEqual([{
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'a-controller-metrics-fence', namespace: NS, labels: { 'control-plane': 'controller-manager', 'app': 'a' } },
      spec: {
        podSelector: { matchLabels: { 'control-plane': 'controller-manager', 'app': 'a' } },
        policyTypes: ['Ingress'],
        ingress: [
          { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['monitoring'] }] } }], ports: [{ port: 8080, protocol: 'TCP' }] },
          { ports: [{ port: 8081, protocol: 'TCP' }, { port: 9443, protocol: 'TCP' }] },
        ],
      },
    }]);
  });

  test('the monitoring namespace is a setting', () => {
    const [fence] = fences({ metricsFence: { monitoringNamespace: 'openshift-user-workload-monitoring' } });
    expect(fence.spec.ingress[0].from).toEqual([{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['openshift-user-workload-monitoring'] }] } }]);
  });

  test('off: no fence', () => {
    expect(fences({ metricsFence: { enabled: false } })).toEqual([]);
  });

  test('secure metrics need no fence', () => {
    expect(objects((c) => twoControllers(c, ControllerMetrics.secure(8443))).filter((o) => o.kind === 'NetworkPolicy')).toEqual([]);
  });

  test('when another policy of the component selects the controller, the fence opens no other port (it would widen that policy)', () => {
    const out = fences({}, (c, a) => new NetworkPolicy(c, 'Webhook', { name: 'a-webhook', targets: [a], ingress: [{ ports: [9443] }] }));
    expect(out.find((o) => o.metadata.name === 'a-controller-metrics-fence').spec.ingress).toEqual([
      { from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['monitoring'] }] } }], ports: [{ port: 8080, protocol: 'TCP' }] },
    ]);
  });

  test('a NetworkPolicy written as a plain object that selects the controller counts too', () => {
    const out = fences({}, (c) => new ApiObject(c, 'RawPolicy', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'raw', namespace: NS },
      spec: { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a'] }] }, policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 9443 }] }] },
    }));
    expect(out.find((o) => o.metadata.name === 'a-controller-metrics-fence').spec.ingress).toHaveLength(1);
    // One that selects other pods does not.
    const other = fences({}, (c) => new ApiObject(c, 'RawPolicy', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'raw', namespace: NS },
      spec: { podSelector: { matchLabels: { app: 'b' } }, policyTypes: ['Ingress'], ingress: [{}] },
    }));
    expect(other.find((o) => o.metadata.name === 'a-controller-metrics-fence').spec.ingress).toHaveLength(2);
  });

  test('fails on a monitoring namespace that is not a namespace name', () => {
    expect(() => newPlatform({ metricsFence: { monitoringNamespace: 'Monitoring' } }))
      .toThrow("p: metricsFence.monitoringNamespace 'Monitoring' is not a valid namespace name (lower-case DNS label, at most 63 characters); name the namespace your Prometheus runs in");
  });

  test('REPORT.md\'s metrics table has a fence column', () => {
    const on = build(platformWith((c) => twoControllers(c, insecure)));
    expect(metricsTable(on.model)).toEqual([
      '| controller | metrics | port | fence |',
      '| --- | --- | --- | --- |',
      '| test-system/a-controller | insecure (opt-out: plain HTTP only) | 8080 | NetworkPolicy a-controller-metrics-fence: only from namespace monitoring |',
      '| test-system/b-controller | no metrics endpoint | - | - |',
    ]);
    expect(on.files.get('REPORT.md')).toContain('## Controller metrics\n\n| controller | metrics | port | fence |\n');
    const off = build(platformWith((c) => twoControllers(c, insecure), { metricsFence: { enabled: false } }));
    expect(metricsTable(off.model)[2]).toBe('| test-system/a-controller | insecure (opt-out: plain HTTP only) | 8080 | OFF (metricsFence.enabled: false): open to every pod |');
    const secure = build(platformWith((c) => twoControllers(c, ControllerMetrics.secure(8443))));
    expect(metricsTable(secure.model)[2]).toBe('| test-system/a-controller | secure (authenticated and authorized) | 8443 | not needed |');
  });
});

describe('namespace isolation (Platform.isolateNamespace, NetworkPolicyProps.namespaceIsolation)', () => {
  const isolated = (isolate: boolean, body: (c: TestComponent, a: Controller) => void = () => undefined, props: Partial<PlatformProps> = {}) => {
    const platform = platformWith((c) => {
      const [a] = twoControllers(c);
      body(c, a);
    }, props);
    if (isolate) platform.isolateNamespace(NS);
    return platform;
  };
  const policies = (platform: ReturnType<typeof isolated>) => build(platform).model.objects.map((o) => o.json).filter((o) => o.kind === 'NetworkPolicy');
  const webhookPolicy = (c: TestComponent, a: Controller) => new NetworkPolicy(c, 'WebhookIngress', { name: 'a-webhook', targets: [a], namespaceIsolation: true, ingress: [{ ports: ['webhook-server'] }] });

  test('a component\'s isolation policy is emitted only where the platform isolates its namespace, with default-allow-same-namespace', () => {
    expect(policies(isolated(false, webhookPolicy))).toEqual([]);
    const out = policies(isolated(true, webhookPolicy));
    expect(out.map((o) => o.metadata.name).sort()).toEqual(['a-webhook', 'default-allow-same-namespace']);
    expect(out.find((o) => o.metadata.name === 'default-allow-same-namespace')).toEqual({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'default-allow-same-namespace', namespace: NS },
      spec: { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] },
    });
  });

  test('the metrics fence counts an isolation policy only where it is emitted', () => {
    const insecure = ControllerMetrics.insecure(8080, 'plain HTTP only');
    const fence = (isolate: boolean) => {
      const platform = platformWith((c) => {
        const a = new Controller(c, 'A', { name: 'a-controller', image: c.image('manager'), selectorLabels: { app: 'a' }, ports: { webhook: 9443 }, metrics: insecure });
        webhookPolicy(c, a);
      });
      if (isolate) platform.isolateNamespace(NS);
      return policies(platform).find((o) => o.metadata.name === 'a-controller-metrics-fence').spec.ingress;
    };
    // Not emitted: the fence keeps the other ports open, as without the policy.
    expect(fence(false)).toHaveLength(2);
    expect(fence(true)).toHaveLength(1);
  });

  test('a WebhookServer opens its port to the API server where the namespace is isolated (upstream\'s name and selector keys, when given)', () => {
    const withServer = (isolate: boolean, isolationPolicy?: { name: string; selectorKeys: string[] }) => policies(isolated(isolate, (c, a) => {
      c.crd(widgetDef());
      new WebhookServer(c, 'Webhooks', { controller: a, serviceName: 'a-webhook', secretName: 'a-webhook-tls', isolationPolicy })
        .addValidatingWebhook('a-validator', { name: 'va.example.com', path: '/validate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] });
    }));
    expect(withServer(false)).toEqual([]);
    expect(withServer(true).find((o) => o.metadata.name === 'a-controller-webhook').spec).toEqual({
      podSelector: { matchLabels: { 'control-plane': 'controller-manager', 'app': 'a' } },
      policyTypes: ['Ingress'],
      ingress: [{ ports: [{ port: 'webhook-server', protocol: 'TCP' }] }],
    });
    expect(withServer(true, { name: 'a', selectorKeys: ['app'] }).find((o) => o.metadata.name === 'a').spec.podSelector).toEqual({ matchLabels: { app: 'a' } });
  });

  test('fails (MLP064) when a webhook\'s backend is isolated and no policy admits its port from every source', () => {
    const withWebhook = (policy: boolean) => isolated(true, (c, a) => {
      c.crd(widgetDef());
      const server = new WebhookServer(c, 'Webhooks', { controller: a, serviceName: 'a-webhook', secretName: 'a-webhook-tls', isolationPolicy: false });
      server.addValidatingWebhook('a-validator', { name: 'va.example.com', path: '/validate', rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE'] }] });
      if (policy) webhookPolicy(c, a);
    });
    expect(problemsOf(withWebhook(true))).toEqual([]);
    expect(problemsOf(withWebhook(false))).toEqual([
      '[MLP064] p/test/Webhooks/Validating-a-validator: webhook va.example.com of ValidatingWebhookConfiguration a-validator: its backend Deployment test-system/a-controller is isolated by NetworkPolicy default-allow-same-namespace, none of which admits port 9443 (webhook-server) from every source; '
        + 'the API server calls webhooks from outside the pod network, so every call would fail (failurePolicy Fail). Add a policy over its pods admitting that port with no \'from\' (NetworkPolicyProps.namespaceIsolation, as kubeflow/manifests\' webhook policies)',
    ]);
  });

  test('fails (MLP063) when a NetworkPolicy selects no pod, or admits a port its pods do not declare', () => {
    const raw = (spec: Record<string, unknown>) => platformWith((c) => {
      twoControllers(c);
      new ApiObject(c, 'Raw', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'raw', namespace: NS }, spec: { policyTypes: ['Ingress'], ...spec } });
    });
    expect(problemsOf(raw({ podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['minio'] }] }, ingress: [{}] }))).toEqual([
      '[MLP063] p/test/Raw: NetworkPolicy test-system/raw selects {"matchExpressions":[{"key":"app","operator":"In","values":["minio"]}]}, which matches the pods of no workload in namespace test-system: it isolates nothing it is meant for. Select by the pod labels of the workload it protects (its selector labels), or leave the policy out',
    ]);
    expect(problemsOf(raw({ podSelector: { matchLabels: { app: 'a' } }, ingress: [{ ports: [{ port: 4443 }, { port: 'webhook-server' }, { port: 'https-webhook' }] }] }))).toEqual([
      '[MLP063] p/test/Raw: NetworkPolicy test-system/raw ingress[0] admits port 4443/TCP, which no container of the pods it selects (Deployment a-controller) declares (their ports: health=8081/TCP, webhook-server=9443/TCP); name a port they serve',
      '[MLP063] p/test/Raw: NetworkPolicy test-system/raw ingress[0] admits port https-webhook/TCP, which no container of the pods it selects (Deployment a-controller) declares (their ports: health=8081/TCP, webhook-server=9443/TCP); name a port they serve',
    ]);
    // A namespace-wide policy also covers pods made at run time (a tenant's notebooks): no workload needed.
    expect(problemsOf(platformWith((c) => new ApiObject(c, 'Raw', { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'raw', namespace: NS }, spec: { podSelector: {}, ingress: [{}] } })))).toEqual([]);
  });

  test('selectorOn: some of a target\'s selector labels; fails on a label its pods lack', () => {
    const target = { name: 'w', selectorLabels: { 'app': 'w', 'app.kubernetes.io/name': 'x' } };
    expect(selectorOn(target, ['app'])).toEqual({ matchLabels: { app: 'w' } });
    expect(() => selectorOn(target, ['component'])).toThrow('selectorOn: target w has no selector label component (its selector labels: app, app.kubernetes.io/name); select by labels its pods carry');
  });

  test('fails when the namespace is not a namespace name', () => {
    expect(() => newPlatform().isolateNamespace('Kubeflow')).toThrow("p: isolateNamespace: namespace 'Kubeflow' is not a valid namespace name");
  });
});
