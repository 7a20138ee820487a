import { parse } from 'yaml';
import { build } from './helpers';
import { CentralDashboard } from '../../constructs/central-dashboard';
import { interceptingWebhooks, selectorMatches } from '../../lib/checks';
import { internalLinks } from '../../lib/dashboard';
import { sidecarDecision } from '../../lib/istio';
import { applyOrder, objectCounts, wiringTable } from '../../lib/report';
import { KubeflowPlatform } from '../../platforms/kubeflow';

const b = build((app) => new KubeflowPlatform(app, 'kubeflow', { exampleTenant: true }));
const objects = b.model.objects.map((o) => o.json);
const order = b.model.components.map((c) => c.componentName);

describe('kubeflow platform', () => {
  test('carries pipelines, notebooks, tuning, training, serving, multi-user isolation and the dashboard, with cert-manager included', () => {
    expect([...order].sort()).toEqual([
      'admission-webhook', 'argo-workflows', 'central-dashboard', 'cert-manager', 'dex', 'gateway-api-inference-extension', 'jobset', 'jupyter-web-app',
      'katib', 'kserve', 'kubeflow-istio-resources', 'kubeflow-pipelines', 'model-registry', 'models-web-app', 'namespace-isolation', 'notebook-controller', 'oauth2-proxy',
      'profile-controller', 'pvcviewer-controller', 'spark-operator', 'tensorboard-controller', 'tensorboards-web-app', 'trainer', 'volumes-web-app',
    ]);
  });

  test('applies in one pass: cert-manager and its webhook come before every Certificate and Issuer of the other components', () => {
    const certManagerWebhook = b.model.objects.find((o) => o.component.componentName === 'cert-manager' && o.json.kind === 'ValidatingWebhookConfiguration')!;
    const certs = b.model.objects.filter((o) => o.json.apiVersion === 'cert-manager.io/v1' && o.component.componentName !== 'cert-manager');
    expect(certs.length).toBeGreaterThan(3);
    for (const c of certs) expect(c.order).toBeGreaterThan(certManagerWebhook.order);
    expect(order[0]).toBe('cert-manager');
    expect(b.model.platform.prerequisites.map((p) => p.name)).not.toContain('cert-manager');
  });

  describe('KF-NETPOL: the kubeflow namespace isolated as kubeflow/manifests v1.11.0\'s common/networkpolicies isolates it', () => {
    const netpols = (os: readonly any[]) => os.filter((o) => o.kind === 'NetworkPolicy' && o.metadata.namespace === 'kubeflow');
    const isolation = ['cache-server', 'default-allow-same-namespace', 'jupyter-web-app', 'katib-controller', 'katib-db-manager', 'katib-ui', 'kserve-models-web-app', 'metadata-grpc-server', 'metatada-envoy',
      'ml-pipeline', 'ml-pipeline-ui', 'model-registry', 'model-registry-ui', 'pvcviewer-webhook', 'spark-operator-webhook', 'tensorboards-web-app', 'volumes-web-app'];
    // Policies the components' own installs ship, emitted with or without isolation.
    const always = ['dashboard', 'katib-controller-metrics-fence', 'poddefaults', 'profiles-kfam', 'seaweedfs', 'spark-operator-controller-metrics-fence', 'spark-operator-webhook-metrics-fence'];

    test('each component in it adds its own policy, beside default-allow-same-namespace', () => {
      expect(netpols(objects).map((o) => o.metadata.name).sort()).toEqual([...isolation, ...always].sort());
      expect(netpols(objects).find((o) => o.metadata.name === 'default-allow-same-namespace').spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }] }] });
      expect(netpols(objects).find((o) => o.metadata.name === 'ml-pipeline').spec).toEqual({
        podSelector: { matchLabels: { app: 'ml-pipeline' } },
        policyTypes: ['Ingress'],
        ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'kubeflow-profile' } } }, { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system'] }] } }] }],
      });
    });

    test('every webhook served from the namespace is open to the API server on its port (MLP064)', () => {
      const webhookPorts = netpols(objects).filter((o) => !o.metadata.name.endsWith('-metrics-fence') && (o.spec.ingress ?? []).some((r: any) => !r.from && r.ports)).map((o) => o.metadata.name).sort();
      expect(webhookPorts).toEqual(['cache-server', 'katib-controller', 'poddefaults', 'pvcviewer-webhook', 'spark-operator-webhook']);
    });

    test('networkPolicies: false leaves the isolation out (the components\' own policies stay)', () => {
      const off = build((app) => new KubeflowPlatform(app, 'kubeflow', { exampleTenant: true, networkPolicies: false }));
      expect(netpols(off.model.objects.map((o) => o.json)).map((o) => o.metadata.name).sort()).toEqual([...always].sort());
      expect(off.model.components.map((c) => c.componentName)).not.toContain('namespace-isolation');
    });
  });

  test('Argo Workflows before Pipelines; JobSet before Trainer; the inference extension before KServe', () => {
    const before = (a: string, z: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(z));
    before('argo-workflows', 'kubeflow-pipelines');
    before('jobset', 'trainer');
    before('gateway-api-inference-extension', 'kserve');
  });

  test('a tenant namespace gets its Profile, and PodDefaults apply to its pods but not to kube-system\'s', () => {
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'kubeflow-user-example-com')!;
    expect(objects.some((o) => o.kind === 'Profile' && o.metadata.name === 'kubeflow-user-example-com')).toBe(true);
    const pod = (namespace: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace } });
    const names = (json: any) => interceptingWebhooks(b.model, json).map((w) => w.name);
    expect(names(pod(ns.metadata.name))).toContain('poddefaults-webhook-deployment.kubeflow.org');
    expect(names(pod('kube-system'))).not.toContain('poddefaults-webhook-deployment.kubeflow.org');
  });

  test("a tenant's pods get Katib's metrics collector and its namespace the Pipelines profile hook's objects", () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'trial', namespace: 'kubeflow-user-example-com' } };
    expect(interceptingWebhooks(b.model, pod).map((w) => w.name)).toContain('mutator.pod.katib.kubeflow.org');
    expect(interceptingWebhooks(b.model, { ...pod, metadata: { ...pod.metadata, namespace: 'kube-system' } }).map((w) => w.name)).not.toContain('mutator.pod.katib.kubeflow.org');
    const ns = objects.find((o) => o.kind === 'Namespace' && o.metadata.name === 'kubeflow-user-example-com')!;
    const decorator = objects.find((o) => o.kind === 'DecoratorController' && o.metadata.name === 'kubeflow-pipelines-profile-controller')!;
    expect(selectorMatches(decorator.spec.resources[0].labelSelector, ns.metadata.labels)).toBe(true);
    expect(objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'metacontroller')).toBeDefined();
  });

  test('Argo archives workflow logs and outputs in the pipelines\' SeaweedFS (a Service on port 9000 in the same namespace), keyed by the object store Secret', () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'workflow-controller-configmap')!;
    const repo = parse(cm.data.artifactRepository);
    expect(repo.archiveLogs).toBe(true);
    expect(repo.s3).toMatchObject({ endpoint: 'seaweedfs.kubeflow.svc:9000', bucket: 'mlpipeline', insecure: true, accessKeySecret: { name: 'mlpipeline-minio-artifact', key: 'accesskey' } });
    expect(repo.s3.keyFormat).toMatch(/^private-artifacts\/\{\{workflow\.namespace\}\}\//);
    const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'seaweedfs')!;
    expect(svc.metadata.namespace).toBe('kubeflow');
    expect(svc.spec.ports.map((p: any) => p.port)).toContain(9000);
  });

  test('workflow pods run their executor restricted, and finished runs expire and failed steps retry, as Pipelines 2.17.0\'s install sets Argo', () => {
    const data = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'workflow-controller-configmap').data;
    expect(parse(data.executor).securityContext).toEqual({ runAsNonRoot: true, runAsUser: 65532, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } });
    expect(parse(data.workflowDefaults).spec.ttlStrategy.secondsAfterCompletion).toBe(3600);
    expect(parse(data.workflowDefaults).spec.templateDefaults.retryStrategy).toEqual({ limit: '2', retryPolicy: 'OnError' });
  });

  test('ARGO-TRANSIENT: the workflow controller retries the transient errors Pipelines 2.17.0\'s install names (node shutdown, preemption, eviction)', () => {
    const c = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'workflow-controller').spec.template.spec.containers[0];
    expect(c.env).toContainEqual({ name: 'TRANSIENT_ERROR_PATTERN', value: '(?i)(imminent node shutdown|node is shutting down|preempt|evict|spot|pod deleted)' });
  });

  test('the Pipelines UI is routed at /pipeline, where the dashboard links (KFP-VS)', () => {
    const vs = objects.find((o) => o.kind === 'VirtualService' && o.metadata.name === 'ml-pipeline-ui')!;
    expect(vs.spec.http[0].match).toEqual([{ uri: { prefix: '/pipeline' } }]);
    expect(vs.spec.gateways).toEqual(['kubeflow/kubeflow-gateway']);
  });

  test('the dashboard links the components present', () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'dashboard-config')!;
    const links = JSON.parse(cm.data.links);
    const menu = links.menuLinks.map((l: any) => l.text);
    expect(menu).toEqual(expect.arrayContaining(['Pipelines', 'Experiments (AutoML)', 'Models']));
    expect(JSON.stringify(links.menuLinks)).toContain('/pipeline/#/runs');
    expect(links.menuLinks.find((l: any) => l.text === 'Models').items).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Model Registry', link: '/model-registry/' })]));
  });

  test('KF-LINKS: every dashboard link leads to its app: a VirtualService on the Kubeflow gateway serving its path and the Service behind it, both in the output', () => {
    const dashboard = b.model.components.find((c): c is CentralDashboard => c instanceof CentralDashboard)!;
    const routes = dashboard.linkRoutes();
    expect(routes.filter((r) => r.problem)).toEqual([]);
    const has = (kind: string, id: string) => objects.some((o) => o.kind === kind && `${o.metadata.namespace}/${o.metadata.name}` === id);
    for (const r of routes) expect([r.link, has('VirtualService', r.virtualService!), has('Service', r.service!)]).toEqual([r.link, true, true]);
    expect(Object.fromEntries(routes.map((r) => [r.link, r.service]))).toMatchObject({
      '/pipeline/#/runs': 'kubeflow/ml-pipeline-ui',
      '/katib/': 'kubeflow/katib-ui',
      '/model-registry/': 'kubeflow/model-registry-ui-service',
      '/kserve-endpoints/': 'kubeflow/kserve-models-web-app',
    });
  });

  test('KF-LINKS: the menu lists exactly the apps of the components present (each link is declared by the component that serves it)', () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'dashboard-config')!;
    const rendered = JSON.parse(cm.data.links);
    const declared = b.model.components.flatMap((c) => c.dashboardLinks.flatMap((l) => internalLinks(l)));
    const paths = (rendered.menuLinks as any[]).flatMap((e) => (e.items ?? [e]).map((i: any) => i.link));
    expect(paths.filter((p: string) => !declared.includes(p))).toEqual([]);
    // The Endpoints page is KServe's models web app's, present here.
    expect(paths).toContain('/kserve-endpoints/');
  });

  test('KF-AUTH: users sign in through Dex by default; with an external OIDC provider Dex is left out and the gateway trusts that issuer', () => {
    expect(objects.find((o) => o.kind === 'RequestAuthentication')!.spec.jwtRules[0].issuer).toBe('http://dex.auth.svc.cluster.local:5556/dex');
    const ext = build((app) => new KubeflowPlatform(app, 'kubeflow', {
      oidcProvider: { issuer: 'https://login.example.com/realms/kubeflow', clientId: 'kubeflow', clientSecret: { name: 'oidc-client', key: 'client-secret' } },
    }));
    expect(ext.model.components.map((c) => c.componentName)).not.toContain('dex');
    const extObjects = ext.model.objects.map((o) => o.json);
    expect(extObjects.find((o) => o.kind === 'RequestAuthentication')!.spec.jwtRules[0].issuer).toBe('https://login.example.com/realms/kubeflow');
    expect(extObjects.some((o) => o.kind === 'VirtualService' && o.metadata.name === 'dex')).toBe(false);
    expect(b.model.platform.prerequisites.map((p) => p.name)).toEqual(['istio', 'knative-serving']);
  });

  describe('KF-SIDECAR: Istio enforces the platform\'s policies (it enforces them only on pods with a sidecar)', () => {
    const namespaceLabels = (name: string) => objects.find((o) => o.kind === 'Namespace' && o.metadata.name === name)!.metadata.labels ?? {};
    const workloads = objects.filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind));
    const sidecar = (w: any) => {
      const pod = w.spec.template.metadata;
      return sidecarDecision(w.metadata.namespace, namespaceLabels(w.metadata.namespace), pod.labels ?? {}, pod.annotations ?? {}).injected;
    };
    const policies = objects.filter((o) => o.apiVersion.startsWith('security.istio.io/'));

    test('KF-SIDECAR: the kubeflow namespace is labelled as kubeflow/manifests v1.11.0 labels it (sidecar injection on)', () => {
      expect(namespaceLabels('kubeflow')).toEqual({ 'control-plane': 'kubeflow', 'istio-injection': 'enabled', 'pod-security.kubernetes.io/enforce': 'restricted' });
      // Every Namespace object of it carries them, whichever component emitted it.
      for (const ns of objects.filter((o) => o.kind === 'Namespace' && o.metadata.name === 'kubeflow')) expect(ns.metadata.labels['istio-injection']).toBe('enabled');
    });

    test('KF-SIDECAR: every Istio policy of the kubeflow namespace selects only pods that get a sidecar', () => {
      expect(policies.filter((p) => p.metadata.namespace === 'kubeflow').map((p) => p.metadata.name).sort()).toEqual([
        'dashboard', 'jupyter-web-app', 'katib-ui', 'kserve-models-web-app', 'metadata-grpc-service', 'ml-pipeline', 'ml-pipeline-ui', 'ml-pipeline-visualizationserver',
        'model-registry-service', 'model-registry-ui', 'mysql', 'profiles-kfam', 'seaweedfs-service', 'service-cache-server', 'tensorboards-web-app', 'volumes-web-app',
      ]);
      for (const p of policies) {
        const selected = workloads.filter((w) => w.metadata.namespace === p.metadata.namespace && selectorMatches(p.spec.selector ?? {}, w.spec.template.metadata.labels ?? {}));
        if (p.metadata.namespace === 'kubeflow') expect(selected.length).toBeGreaterThan(0);
        for (const w of selected) expect(`${p.metadata.name} -> ${w.metadata.name}: ${sidecar(w)}`).toBe(`${p.metadata.name} -> ${w.metadata.name}: true`);
      }
    });

    test('KF-SIDECAR: pods ask for or refuse a sidecar as upstream\'s pod templates do', () => {
      const label = (name: string) => workloads.find((w) => w.metadata.name === name)!.spec.template.metadata.labels['sidecar.istio.io/inject'];
      expect(Object.fromEntries(['dashboard', 'profiles-deployment', 'model-registry-deployment', 'poddefaults-webhook-deployment', 'model-registry-db',
        'metacontroller', 'kubeflow-pipelines-profile-controller', 'metadata-envoy-deployment', 'ml-pipeline', 'model-registry-ui'].map((n) => [n, label(n)]))).toEqual({
        'dashboard': 'true',
        'profiles-deployment': 'true',
        'model-registry-deployment': 'true',
        'poddefaults-webhook-deployment': 'false',
        'model-registry-db': 'false',
        'metacontroller': 'false',
        'kubeflow-pipelines-profile-controller': 'false',
        'metadata-envoy-deployment': 'false',
        'ml-pipeline': undefined,
        'model-registry-ui': undefined,
      });
      // The pipelines' API server and UI, which trust the kubeflow-userid header, run with a sidecar.
      for (const n of ['ml-pipeline', 'ml-pipeline-ui']) expect(sidecar(workloads.find((w) => w.metadata.name === n))).toBe(true);
      // Opted out, as upstream: the PodDefaults webhook, the databases of Katib and the model registry.
      for (const n of ['poddefaults-webhook-deployment', 'katib-mysql', 'model-registry-db']) expect(sidecar(workloads.find((w) => w.metadata.name === n))).toBe(false);
    });
  });

  test('every webhook resolves to a backend with a CA source', () => {
    for (const l of wiringTable(b.model)) expect(l).not.toMatch(/UNRESOLVED|NO CA SOURCE/);
  });

  test('webhook wiring', () => {
    expect(wiringTable(b.model).join('\n')).toMatchSnapshot();
  });

  test('apply order', () => {
    expect(applyOrder(b.model).join('\n')).toMatchSnapshot();
  });

  test('object counts by kind', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });
});
