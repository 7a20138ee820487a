import { ApiObject, App } from 'cdk8s';
import { build, findObject, newPlatform, objectsOf, problemsOf, TestComponent, widgetDef } from './support';
import { CertificateProvider } from '../../lib/certificates';
import { Controller } from '../../lib/controller';
import { Platform } from '../../lib/platform';
import { serviceServingCertificate, WebhookProps, WebhookServer } from '../../lib/webhook-server';
import { Workload } from '../../lib/workload';

const SELECTOR = { 'app.kubernetes.io/name': 'widget-controller' };

const validating = (name = 'vwidget.example.com', extra: Partial<WebhookProps> = {}): WebhookProps => ({
  name,
  path: '/validate-widget',
  rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }],
  ...extra,
});

interface Setup {
  c: TestComponent;
  ctl: Controller;
  server: WebhookServer;
}

/** `webhookPort: null` builds a controller without a webhook port. */
function setup(platform: Platform = newPlatform(), webhookPort: number | null = 9443, configure?: (s: Setup) => void, id = 'test'): Setup {
  let out!: Setup;
  new TestComponent(platform, id, `${id}-system`, (self) => {
    self.namespaceObject();
    self.crd(widgetDef());
    const ctl = new Controller(self, 'Manager', {
      name: 'widget-controller',
      image: self.image('manager'),
      selectorLabels: SELECTOR,
      ports: { webhook: webhookPort ?? undefined },
      owns: [widgetDef()],
    });
    const server = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls' });
    out = { c: self, ctl, server };
    configure?.(out);
  });
  return out;
}

const byKind = (c: TestComponent, kind: string) => objectsOf(c).filter((o) => o.kind === kind);

describe('WebhookServer', () => {
  test('the Service selects the controller pods and targets the webhook-server port', () => {
    const { c, server } = setup();
    const svc = findObject(c, 'Service', 'widget-webhook');
    expect(svc.metadata.namespace).toBe('test-system');
    expect(svc.metadata.annotations).toBeUndefined();
    expect(svc.spec.selector).toEqual(SELECTOR);
    expect(svc.spec.ports).toEqual([{ name: 'https', port: 443, targetPort: 'webhook-server', protocol: 'TCP' }]);
    const ports = findObject(c, 'Deployment', 'widget-controller').spec.template.spec.containers[0].ports;
    expect(ports).toContainEqual({ name: 'webhook-server', containerPort: 9443, protocol: 'TCP' });
    expect(server.port).toBe(443);
    expect(server.namespace).toBe('test-system');
  });

  test('the serving certificate Secret is mounted where controller-runtime reads it', () => {
    const { c } = setup();
    const pod = findObject(c, 'Deployment', 'widget-controller').spec.template.spec;
    expect(pod.volumes).toEqual([{ name: 'webhook-cert', secret: { secretName: 'widget-webhook-tls', defaultMode: 420 } }]);
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true }]);
  });

  test('cert-manager (default): a Certificate from a self-signed Issuer and the inject-ca-from annotation', () => {
    const { c, server } = setup(newPlatform(), 9443, ({ server: srv }) => srv.addValidatingWebhook('widget-validator', validating()));
    expect(findObject(c, 'Certificate', 'widget-webhook-cert')).toEqual({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'widget-webhook-cert', namespace: 'test-system' },
      spec: {
        commonName: 'widget-webhook.test-system.svc',
        dnsNames: ['widget-webhook.test-system.svc', 'widget-webhook.test-system.svc.cluster.local'],
        issuerRef: { kind: 'Issuer', name: 'selfsigned-issuer' },
        secretName: 'widget-webhook-tls',
      },
    });
    expect(findObject(c, 'Issuer', 'selfsigned-issuer')).toEqual({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Issuer',
      metadata: { name: 'selfsigned-issuer', namespace: 'test-system' },
      spec: { selfSigned: {} },
    });
    const cfg = findObject(c, 'ValidatingWebhookConfiguration', 'widget-validator');
    expect(cfg.metadata.annotations).toEqual({ 'cert-manager.io/inject-ca-from': 'test-system/widget-webhook-cert' });
    expect(server.conversionTarget()).toEqual({
      serviceName: 'widget-webhook',
      serviceNamespace: 'test-system',
      port: 443,
      annotations: { 'cert-manager.io/inject-ca-from': 'test-system/widget-webhook-cert' },
    });
    expect(c.infrastructure).toEqual(['cert-manager']);
    expect(problemsOf(c.platform)).toEqual([]);
  });

  test('two servers in one component share one self-signed Issuer', () => {
    const { c } = setup(newPlatform(), 9443, ({ c: self }) => {
      const other = new Controller(self, 'Other', { name: 'other-controller', image: self.image('manager'), selectorLabels: { app: 'other' }, ports: { webhook: 9443 } });
      new WebhookServer(self, 'OtherWebhooks', { controller: other, serviceName: 'other-webhook', secretName: 'other-tls', certificateName: 'other-serving-cert' });
    });
    expect(byKind(c, 'Issuer')).toHaveLength(1);
    expect(byKind(c, 'Certificate').map((o) => [o.metadata.name, o.spec.issuerRef.name])).toEqual([
      ['widget-webhook-cert', 'selfsigned-issuer'],
      ['other-serving-cert', 'selfsigned-issuer'],
    ]);
    expect(c.infrastructure).toEqual(['cert-manager']);
  });

  test('two components in one namespace with webhook servers share one self-signed Issuer', () => {
    const platform = newPlatform();
    for (const id of ['a', 'b']) {
      new TestComponent(platform, id, 'shared-system', (self) => {
        self.namespaceObject();
        const ctl = new Controller(self, 'Manager', { name: `${id}-controller`, image: self.image('manager'), selectorLabels: { app: id }, ports: { webhook: 9443 } });
        new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: `${id}-webhook`, secretName: `${id}-tls` });
      });
    }
    expect(problemsOf(platform)).toEqual([]);
  });

  test('cert-manager with a ClusterIssuer: no Issuer, the Certificate refers to the ClusterIssuer', () => {
    const { c } = setup(newPlatform({ certificates: CertificateProvider.certManager({ clusterIssuer: 'corp-ca' }) }));
    expect(byKind(c, 'Issuer')).toEqual([]);
    expect(findObject(c, 'Certificate', 'widget-webhook-cert').spec.issuerRef).toEqual({ kind: 'ClusterIssuer', name: 'corp-ca' });
  });

  test('OpenShift service-ca: serving-cert annotation on the Service, inject-cabundle on configurations, no Certificate', () => {
    const platform = newPlatform({ certificates: CertificateProvider.openShiftServiceCa(), prerequisites: [] });
    const { c, server } = setup(platform, 9443, ({ server: srv }) => {
      srv.addValidatingWebhook('widget-validator', validating());
      srv.addMutatingWebhook('widget-defaulter', { ...validating('mwidget.example.com'), path: '/mutate-widget' });
    });
    expect(findObject(c, 'Service', 'widget-webhook').metadata.annotations).toEqual({
      'service.beta.openshift.io/serving-cert-secret-name': 'widget-webhook-tls',
    });
    for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
      expect(byKind(c, kind)[0].metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    }
    expect(byKind(c, 'Certificate')).toEqual([]);
    expect(byKind(c, 'Issuer')).toEqual([]);
    expect(c.infrastructure).toEqual([]);
    expect(server.conversionTarget().annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    // No cert-manager needed: the platform builds without prerequisites.
    expect(problemsOf(platform)).toEqual([]);
  });

  test('several webhooks in one configuration, rendered with defaults', () => {
    const { c } = setup(newPlatform(), 9443, ({ server }) => {
      server.addValidatingWebhook('widget-validator', validating('vwidget.example.com'));
      server.addValidatingWebhook('widget-validator', {
        ...validating('vwidget-strict.example.com'),
        path: '/validate-widget-strict',
        failurePolicy: 'Ignore',
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
        matchPolicy: 'Equivalent',
        namespaceSelector: { matchLabels: { team: 'ml' } },
      });
    });
    const configs = byKind(c, 'ValidatingWebhookConfiguration');
    expect(configs).toHaveLength(1);
    expect(configs[0].webhooks).toEqual([
      {
        name: 'vwidget.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: { service: { name: 'widget-webhook', namespace: 'test-system', path: '/validate-widget', port: 443 } },
        failurePolicy: 'Fail',
        rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }],
        sideEffects: 'None',
      },
      {
        name: 'vwidget-strict.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: { service: { name: 'widget-webhook', namespace: 'test-system', path: '/validate-widget-strict', port: 443 } },
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        namespaceSelector: { matchLabels: { team: 'ml' } },
        rules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'], operations: ['CREATE', 'UPDATE'] }],
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
      },
    ]);
    expect(problemsOf(c.platform)).toEqual([]);
  });

  test('validating and mutating configurations of the same name are separate objects; reinvocationPolicy on mutating', () => {
    const { c } = setup(newPlatform(), 9443, ({ server }) => {
      server.addValidatingWebhook('widget', validating());
      server.addMutatingWebhook('widget', { ...validating('mwidget.example.com'), path: '/mutate-widget', reinvocationPolicy: 'IfNeeded' });
    });
    expect(byKind(c, 'ValidatingWebhookConfiguration').map((o) => o.metadata.name)).toEqual(['widget']);
    const m = findObject(c, 'MutatingWebhookConfiguration', 'widget');
    expect(m.webhooks).toHaveLength(1);
    expect(m.webhooks[0].reinvocationPolicy).toBe('IfNeeded');
    expect(m.webhooks[0].clientConfig.service.path).toBe('/mutate-widget');
  });

  test('a custom Service port is used by the Service and by every clientConfig', () => {
    const platform = newPlatform();
    let server!: WebhookServer;
    const c = new TestComponent(platform, 'test', 'test-system', (self) => {
      self.namespaceObject();
      const ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 } });
      server = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'tls', port: 8443, certDir: '/certs' });
      server.addValidatingWebhook('widget-validator', validating());
    });
    expect(findObject(c, 'Service', 'widget-webhook').spec.ports[0].port).toBe(8443);
    expect(findObject(c, 'ValidatingWebhookConfiguration').webhooks[0].clientConfig.service.port).toBe(8443);
    expect(findObject(c, 'Deployment').spec.template.spec.containers[0].volumeMounts[0].mountPath).toBe('/certs');
    expect(server.conversionTarget().port).toBe(8443);
  });

  test('a conversion webhook wired from conversionTarget() builds and passes every check', () => {
    const platform = newPlatform();
    new TestComponent(platform, 'test', 'test-system', (self) => {
      self.namespaceObject();
      const ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 } });
      const server = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'tls' });
      const v1 = widgetDef().versions[0];
      self.crd(
        widgetDef({ versions: [{ ...v1, name: 'v1beta1', storage: false, schema: v1.schema.omit('status') }, v1], conversion: { strategy: 'Webhook' } }),
        { conversionWebhook: server.conversionTarget() },
      );
    });
    expect(problemsOf(platform)).toEqual([]);
  });

  describe('sharedService: webhooks on the backend\'s own Service', () => {
    const shared = (opts: { certificates?: CertificateProvider; servicePort?: number; targetPort?: string; serviceName?: string } = {}) => {
      const platform = newPlatform(opts.certificates ? { certificates: opts.certificates, prerequisites: [] } : {});
      const c = new TestComponent(platform, 'test', 'test-system', (self) => {
        self.namespaceObject();
        const api = new Workload(self, 'Api', {
          name: 'api',
          image: self.image('manager'),
          selectorLabels: { app: 'api' },
          ports: [{ name: 'http', containerPort: 8888 }],
          webhookPort: 8443,
          webhookPortName: 'webhook',
          service: { ports: [{ name: 'http', port: 8888, targetPort: 'http' }, { name: 'webhook', port: opts.servicePort ?? 8443, targetPort: opts.targetPort ?? 'webhook' }] },
        });
        const server = new WebhookServer(self, 'Webhooks', { controller: api, serviceName: opts.serviceName ?? 'api', sharedService: api.service, port: 8443, secretName: 'api-tls' });
        server.addValidatingWebhook('widget-validator', validating());
      });
      return { platform, c };
    };

    test('no Service of its own: the webhooks point at the shared one, and every check resolves it', () => {
      const { platform, c } = shared();
      expect(byKind(c, 'Service').map((x) => x.metadata.name)).toEqual(['api']);
      expect(findObject(c, 'ValidatingWebhookConfiguration').webhooks[0].clientConfig.service).toEqual({ name: 'api', namespace: 'test-system', path: '/validate-widget', port: 8443 });
      expect(findObject(c, 'Service', 'api').metadata.annotations).toBeUndefined();
      expect(problemsOf(platform)).toEqual([]);
    });

    test('OpenShift service-ca annotates the shared Service', () => {
      const { platform, c } = shared({ certificates: CertificateProvider.openShiftServiceCa() });
      expect(findObject(c, 'Service', 'api').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'api-tls' });
      expect(problemsOf(platform)).toEqual([]);
    });

    test('fails when the shared Service is not the one serviceName names', () => {
      expect(() => shared({ serviceName: 'other' })).toThrow('p/test/Webhooks: sharedService is Service test-system/api, not Service test-system/other; pass the Service named by serviceName');
    });

    test('fails when the shared Service has no port routing to the webhook port', () => {
      expect(() => shared({ servicePort: 9443 })).toThrow('p/test/Webhooks: sharedService: Service api has no port 8443 targeting the webhook port webhook (8443) of api; add it to the Service');
      expect(() => shared({ targetPort: 'http' })).toThrow('has no port 8443 targeting the webhook port webhook (8443) of api');
    });
  });

  test('fails when the controller has no webhook port', () => {
    expect(() => setup(newPlatform(), null)).toThrow(
      "p/test/Webhooks: controller 'widget-controller' has no webhook port; set ports.webhook on the Controller (e.g. 9443)",
    );
  });

  test('fails when a webhook name is used twice in a configuration', () => {
    expect(() =>
      setup(newPlatform(), 9443, ({ server }) => {
        server.addValidatingWebhook('widget-validator', validating());
        server.addValidatingWebhook('widget-validator', validating());
      }),
    ).toThrow("p/test/Webhooks: webhook 'vwidget.example.com' is already in widget-validator; webhook names must be unique in a configuration");
  });

  test('the same webhook name may be used in two configurations', () => {
    expect(() =>
      setup(newPlatform(), 9443, ({ server }) => {
        server.addValidatingWebhook('a', validating());
        server.addValidatingWebhook('b', validating());
      }),
    ).not.toThrow();
  });

  test("fails when a path does not start with '/'", () => {
    expect(() => setup(newPlatform(), 9443, ({ server }) => server.addMutatingWebhook('m', { ...validating(), path: 'mutate' }))).toThrow(
      "p/test/Webhooks: webhook 'vwidget.example.com': path 'mutate' must start with '/'",
    );
  });

  test('fails when a validating webhook sets reinvocationPolicy', () => {
    expect(() => setup(newPlatform(), 9443, ({ server }) => server.addValidatingWebhook('v', validating('v.example.com', { reinvocationPolicy: 'IfNeeded' })))).toThrow(
      "p/test/Webhooks: webhook 'v.example.com': reinvocationPolicy applies to mutating webhooks only; remove it",
    );
  });

  test('fails (at resolve) when the platform uses cert-manager but lacks it', () => {
    const platform = newPlatform({ prerequisites: [] });
    setup(platform);
    expect(() => platform.resolve()).toThrow(
      "p/test: component 'test' needs cert-manager, which the platform neither provides nor declares present; add it to the platform's prerequisites (e.g. prerequisites: [CERT_MANAGER]) or add a component that installs it",
    );
  });

  test('webhook configuration objects are ApiObjects of the server', () => {
    const { server } = setup(newPlatform(), 9443, ({ server: srv }) => srv.addValidatingWebhook('widget-validator', validating()));
    const kinds = server.node.findAll().filter((x): x is ApiObject => x instanceof ApiObject).map((o) => o.kind);
    // (The NetworkPolicy is emitted only where the platform isolates the namespace.)
    expect(kinds).toEqual(['NetworkPolicy', 'Certificate', 'Service', 'ValidatingWebhookConfiguration']);
  });

  describe('self-managed certificates', () => {
    function selfManaged(platform: Platform, required: boolean) {
      let out!: { c: TestComponent; server: WebhookServer };
      new TestComponent(platform, 'test', 'test-system', (self) => {
        self.namespaceObject();
        const def = widgetDef({ versions: [...widgetDef().versions, { ...widgetDef().versions[0], name: 'v2', storage: false }], conversion: { strategy: 'Webhook' } });
        const crd = self.crd(def);
        const ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 }, owns: [def] });
        const server = new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls', selfManaged: { required } });
        server.addValidatingWebhook('widget-validator', validating());
        server.addMutatingWebhook('widget-defaulter', validating('mwidget.example.com'));
        server.serveConversion(crd);
        out = { c: self, server };
      });
      return out;
    }

    test('required: an empty Secret, no CA annotations, the rotator RBAC scoped by resourceNames, and every check passes', () => {
      const { c, server } = selfManaged(newPlatform(), true);
      expect(server.selfManaged).toBe(true);
      expect(findObject(c, 'Secret', 'widget-webhook-tls')).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'widget-webhook-tls', namespace: 'test-system' } });
      expect(byKind(c, 'Certificate')).toEqual([]);
      expect(findObject(c, 'ValidatingWebhookConfiguration', 'widget-validator').metadata.annotations).toBeUndefined();
      expect(findObject(c, 'Role', 'widget-controller-cert-rotator').rules).toEqual([
        { apiGroups: [''], resources: ['secrets'], resourceNames: ['widget-webhook-tls'], verbs: ['get', 'patch', 'update'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
      ]);
      expect(findObject(c, 'ClusterRole', 'widget-controller-cert-rotator').rules).toEqual([
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations'], resourceNames: ['widget-defaulter'], verbs: ['get', 'patch', 'update'] },
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], resourceNames: ['widget-validator'], verbs: ['get', 'patch', 'update'] },
        { apiGroups: ['admissionregistration.k8s.io'], resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'], verbs: ['list', 'watch'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], resourceNames: ['widgets.example.com'], verbs: ['get', 'patch', 'update'] },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['list', 'watch'] },
      ]);
      expect(findObject(c, 'ClusterRoleBinding', 'widget-controller-cert-rotator').subjects).toEqual([{ kind: 'ServiceAccount', name: 'widget-controller', namespace: 'test-system' }]);
      expect(problemsOf(c.platform)).toEqual([]);
    });

    test('writesCertDir: the process writes its key pair into a writable emptyDir at certDir', () => {
      let out!: { c: TestComponent; ctl: Controller };
      new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
        self.namespaceObject();
        const ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 } });
        const server = new WebhookServer(self, 'Webhooks', {
          controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls', certDir: '/etc/certs', selfManaged: { required: true, writesCertDir: true },
        });
        server.addValidatingWebhook('widget-validator', validating());
        out = { c: self, ctl };
      });
      const pod = out.ctl.deployment.toJson().spec.template.spec;
      expect(pod.volumes).toEqual([{ name: 'webhook-cert', emptyDir: {} }]);
      expect(pod.containers[0].volumeMounts).toEqual([{ name: 'webhook-cert', mountPath: '/etc/certs' }]);
      expect(findObject(out.c, 'Secret', 'widget-webhook-tls')).toBeDefined();
      expect(problemsOf(out.c.platform)).toEqual([]);
    });

    test('writesCertDir is ignored when another provider issues the certificate', () => {
      let ctl!: Controller;
      new TestComponent(newPlatform(), 'test', 'test-system', (self) => {
        self.namespaceObject();
        ctl = new Controller(self, 'Manager', { name: 'widget-controller', image: self.image('manager'), selectorLabels: SELECTOR, ports: { webhook: 9443 } });
        new WebhookServer(self, 'Webhooks', { controller: ctl, serviceName: 'widget-webhook', secretName: 'widget-webhook-tls', selfManaged: { writesCertDir: true } });
      });
      expect(ctl.deployment.toJson().spec.template.spec.volumes).toEqual([{ name: 'webhook-cert', secret: { secretName: 'widget-webhook-tls', defaultMode: 420 } }]);
    });

    test('records what the rotator changes at run time, for checks and GitOps ignore rules', () => {
      const { server } = selfManaged(newPlatform(), true);
      expect(server.runtimeChanges().map((r) => `${r.kind} ${r.name} ${r.jsonPointers.join(',')}`)).toEqual([
        'Secret widget-webhook-tls /data',
        'ValidatingWebhookConfiguration widget-validator /webhooks/*/clientConfig/caBundle',
        'MutatingWebhookConfiguration widget-defaulter /webhooks/*/clientConfig/caBundle',
        'CustomResourceDefinition widgets.example.com /spec/conversion/webhook/clientConfig/caBundle',
      ]);
      const report = build(server.node.scope!.node.scope as Platform).files.get('REPORT.md')!;
      expect(report).toContain('self-managed by widget-controller (caBundle patched at run time)');
    });

    test('not required: the platform provider decides (cert-manager by default)', () => {
      const { c, server } = selfManaged(newPlatform(), false);
      expect(server.selfManaged).toBe(false);
      expect(byKind(c, 'Certificate')).toHaveLength(1);
      expect(server.runtimeChanges()).toEqual([]);
    });

    test('CertificateProvider.selfManaged(): servers that can rotate do; others use the fallback', () => {
      const platform = newPlatform({ certificates: CertificateProvider.selfManaged({ fallback: CertificateProvider.openShiftServiceCa() }), prerequisites: [] });
      const { server } = selfManaged(platform, false);
      expect(server.selfManaged).toBe(true);
      const other = setup(platform, 9443, undefined, 'other');
      expect(other.server.selfManaged).toBe(false);
      expect(findObject(other.c, 'Service', 'widget-webhook').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'widget-webhook-tls' });
    });

    test('fails when the self-managed fallback is itself self-managed', () => {
      expect(() => CertificateProvider.selfManaged({ fallback: CertificateProvider.selfManaged() })).toThrow(
        'CertificateProvider.selfManaged: the fallback must be certManager() or openShiftServiceCa()',
      );
    });
  });
});

describe('serviceServingCertificate', () => {
  function withApi(platform: Platform): TestComponent {
    let comp!: TestComponent;
    new TestComponent(platform, 'api', 'api-system', (self) => {
      comp = self;
      const annotations = serviceServingCertificate(self, self, { serviceName: 'widget-api', secretName: 'widget-api-tls' });
      new ApiObject(self, 'Service', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'widget-api', namespace: 'api-system', annotations }, spec: { ports: [{ port: 443 }] } });
    });
    return comp;
  }

  test('cert-manager: a Certificate for the Service into the secret, the namespace Issuer, no Service annotation', () => {
    const c = withApi(newPlatform());
    const cert = findObject(c, 'Certificate', 'widget-api-cert');
    expect(cert.spec).toEqual({
      commonName: 'widget-api.api-system.svc',
      dnsNames: ['widget-api.api-system.svc', 'widget-api.api-system.svc.cluster.local'],
      issuerRef: { kind: 'Issuer', name: 'selfsigned-issuer' },
      secretName: 'widget-api-tls',
    });
    expect(findObject(c, 'Issuer', 'selfsigned-issuer').spec).toEqual({ selfSigned: {} });
    expect(findObject(c, 'Service').metadata.annotations).toBeUndefined();
    expect(c.infrastructure).toEqual(['cert-manager']);
  });

  test('OpenShift service-ca: only the serving-cert annotation on the Service', () => {
    const c = withApi(newPlatform({ certificates: CertificateProvider.openShiftServiceCa() }));
    expect(objectsOf(c).map((o) => o.kind)).toEqual(['Service']);
    expect(findObject(c, 'Service').metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'widget-api-tls' });
    expect(c.infrastructure).toEqual([]);
  });

  test('fails the platform when cert-manager is needed but absent', () => {
    const platform = new Platform(new App(), 'p', { name: 'p' });
    withApi(platform);
    expect(problemsOf(platform)).toEqual([expect.stringContaining("component 'api' needs cert-manager")]);
  });
});
