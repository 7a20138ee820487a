import { build, problemsOf } from './helpers';
import { applyOrder, objectCounts, wiringTable } from '../../lib/report';
import { DEFAULT_PLATFORMS } from '../../platforms';
import { OpenDataHubPlatform } from '../../platforms/opendatahub';

const b = build((app) => new OpenDataHubPlatform(app, 'opendatahub'));
const objects = b.model.objects.map((o) => o.json);
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const names = (kind: string) => ofKind(kind).map((o) => o.metadata.name);

describe('Open Data Hub platform', () => {
  test('is a default platform', () => {
    expect(DEFAULT_PLATFORMS.map((p) => p.name)).toContain('opendatahub');
  });

  test('carries every component of the ODH architecture that the project has', () => {
    expect(b.model.components.map((c) => c.componentName).sort()).toEqual([
      'ai-gateway-payload-processing', 'appwrapper', 'codeflare', 'data-science-pipelines-operator', 'gateway-api-inference-extension', 'jobset', 'kserve',
      'kuberay', 'kueue', 'llama-stack-k8s-operator', 'llm-d-router', 'mlflow-operator', 'model-registry-operator', 'modelmesh-serving',
      'models-as-a-service', 'notebook-controller', 'odh-model-controller', 'spark-operator', 'trainer', 'training-operator', 'workload-variant-autoscaler',
    ]);
  });

  test('runs every controller in the one applications namespace, opendatahub', () => {
    expect([...new Set(names('Namespace'))]).toEqual(['opendatahub']);
    const namespaced = objects.filter((o) => ['Deployment', 'Service', 'ServiceAccount', 'Role', 'RoleBinding', 'ConfigMap'].includes(o.kind));
    expect(namespaced.length).toBeGreaterThan(50);
    // Only the visibility API server's binding to the authentication reader lives where Kubernetes keeps that Role.
    expect(namespaced.filter((o) => o.metadata.namespace !== 'opendatahub').map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      expect.stringMatching(/^RoleBinding kube-system\//),
    ]);
    // One object per component that declares the namespace, all identical: the platform's labels where components disagree, plus the rest.
    expect(new Set(ofKind('Namespace').map((n) => JSON.stringify(n))).size).toBe(1);
    expect(ofKind('Namespace')[0].metadata.labels).toEqual({ 'app.kubernetes.io/name': 'opendatahub', 'app.kubernetes.io/part-of': 'kubeflow', 'control-plane': 'controller-manager' });
  });

  test('takes webhook certificates from OpenShift\'s service CA: no cert-manager objects, every webhook wired with a CA source', () => {
    expect(objects.some((o) => String(o.apiVersion).startsWith('cert-manager.io/'))).toBe(false);
    const kserveWebhook = ofKind('Service').find((s) => s.metadata.name === 'kserve-webhook-server-service')!;
    expect(kserveWebhook.metadata.annotations).toEqual({ 'service.beta.openshift.io/serving-cert-secret-name': 'kserve-webhook-server-cert' });
    const kserveConfig = ofKind('ValidatingWebhookConfiguration').find((c) => c.metadata.name === 'inferenceservice.serving.kserve.io')!;
    expect(kserveConfig.metadata.annotations).toEqual({ 'service.beta.openshift.io/inject-cabundle': 'true' });
    for (const l of wiringTable(b.model)) expect(l).not.toMatch(/UNRESOLVED|NO CA SOURCE/);
  });

  test('uses the ODH variants: ODH\'s notebook controller without Istio, OpenShift integrations, no LocalModel', () => {
    expect(names('Deployment')).toContain('odh-notebook-controller-manager');
    const notebook = ofKind('ConfigMap').find((c) => c.data?.USE_ISTIO !== undefined);
    expect(notebook?.data.USE_ISTIO).toBe('false');
    const kinds = (id: string) => b.model.components.find((c) => c.componentName === id)!.requires.map((r) => `${r.group}/${r.kind}`);
    expect(kinds('mlflow-operator')).toEqual(expect.arrayContaining(['console.openshift.io/ConsoleLink', 'services.platform.opendatahub.io/Auth']));
    expect(kinds('codeflare')).toEqual(expect.arrayContaining(['route.openshift.io/Route', 'config.openshift.io/Ingress']));
    expect(names('Deployment')).not.toContain('kserve-localmodel-controller-manager');
  });

  test('DSPO leaves the Kubeflow Pipelines and Argo CRDs it uses to no one else: it emits them, once', () => {
    const crds = names('CustomResourceDefinition');
    expect(new Set(crds).size).toBe(crds.length);
    for (const n of ['workflows.argoproj.io', 'scheduledworkflows.kubeflow.org', 'datasciencepipelinesapplications.datasciencepipelinesapplications.opendatahub.io']) {
      expect(b.model.crdOwners.get(n)?.componentName).toBe('data-science-pipelines-operator');
    }
    expect(b.model.crdOwners.get('inferenceservices.serving.kserve.io')?.componentName).toBe('kserve');
  });

  test('object count', () => {
    // 395 since DSPO-SVCMON: DSPO's ServiceMonitor (the platform has the Prometheus Operator).
    // 483 since ODH-ARCH: the Workload Variant Autoscaler, AI gateway payload processing,
    // Models-as-a-Service, the Spark Operator and Kueue's integrations as the architecture shows them.
    // 482: ModelMesh's modelmesh-controller NetworkPolicy left out (it admitted 8443, which its pods do not serve: MLP063).
    expect(objects.length).toBe(482);
  });

  test('object counts by kind', () => {
    expect(objectCounts(b.model)).toMatchSnapshot();
  });

  test('apply order', () => {
    expect(applyOrder(b.model).join('\n')).toMatchSnapshot();
  });

  test('webhook wiring', () => {
    expect(wiringTable(b.model).join('\n')).toMatchSnapshot();
  });
});

describe('Open Data Hub platform, customized', () => {
  const custom = build((app) => new OpenDataHubPlatform(app, 'odh', {
    applicationsNamespace: 'odh-apps',
    components: { 'modelmesh-serving': false, 'llama-stack-k8s-operator': false, 'kuberay': false, 'codeflare': false },
    controllers: { 'kserve/kserve-controller-manager': { replicas: 2 } },
  }));
  const objs = custom.model.objects.map((o) => o.json);

  test('moves every controller to the applications namespace it is given', () => {
    expect([...new Set(objs.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name))]).toEqual(['odh-apps']);
    expect([...new Set(objs.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.namespace))]).toEqual(['odh-apps']);
  });

  test('leaves out the components turned off, and Kueue\'s integrations for their kinds', () => {
    const ids = custom.model.components.map((c) => c.componentName);
    for (const off of ['modelmesh-serving', 'llama-stack-k8s-operator', 'kuberay', 'codeflare']) expect(ids).not.toContain(off);
    const kueue = objs.find((o) => o.kind === 'MutatingWebhookConfiguration' && o.metadata.name === 'kueue-mutating-webhook-configuration');
    expect(kueue.webhooks.map((w: any) => w.name).filter((n: string) => n.includes('ray'))).toEqual([]);
    expect(objs.find((o) => o.kind === 'Deployment' && o.metadata.name === 'kserve-controller-manager').spec.replicas).toBe(2);
  });

  test('fails when a component is unknown, naming the ODH components', () => {
    expect(problemsOf(() => build((app) => new OpenDataHubPlatform(app, 'odh', { components: { dashboard: false } })))).toEqual([
      "odh: components['dashboard']: the platform has no component 'dashboard'; valid components: 'ai-gateway-payload-processing', 'appwrapper', 'codeflare', " +
        "'data-science-pipelines-operator', 'gateway-api-inference-extension', 'jobset', 'kserve', 'kuberay', 'kueue', 'llama-stack-k8s-operator', 'llm-d-router', " +
        "'mlflow-operator', 'model-registry-operator', 'modelmesh-serving', 'models-as-a-service', 'notebook-controller', 'odh-model-controller', " +
        "'spark-operator', 'trainer', 'training-operator', 'workload-variant-autoscaler'",
    ]);
  });
});
