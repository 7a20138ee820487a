import { App } from 'cdk8s';
import {
  DEFAULT_WORKBENCH_IMAGES, NotebookController, NotebookControllerProps, notebookCrds, WorkbenchImage, WorkbenchKind,
} from '../../../constructs/notebook-controller';
import { CertificateProvider } from '../../../lib/certificates';
import { CERT_MANAGER, Prerequisite } from '../../../lib/component';
import { rootSchema } from '../../../lib/crd';
import { Platform } from '../../../lib/platform';
import { wiringTable } from '../../../lib/report';
import { build, pinnable, problemsOf } from '../../platforms/helpers';
import { GATEWAY_API, ISTIO, OPENSHIFT } from '../kubeflow-prerequisites';

function platform(props: NotebookControllerProps = {}, prerequisites: Prerequisite[] = [ISTIO], more: (nb: NotebookController) => void = () => undefined) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'notebooks', prerequisites, existingNamespaces: ['default', 'kube-system', 'team-a'] });
    more(new NotebookController(p, 'notebook-controller', props));
    return p;
  });
}
const alone = platform();
const objects = alone.model.objects.map((o) => o.json);
const find = (json: any[], kind: string, name: string) => {
  const o = json.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const newController = (props: NotebookControllerProps = {}) => new NotebookController(new Platform(new App(), 'p', { name: 'x' }), 'notebook-controller', props);

describe('Notebook CRD', () => {
  const def = notebookCrds.notebookCrd;
  test('notebooks.kubeflow.org: namespaced; v1 storage, v1alpha1 and v1beta1 served with one schema; status subresource', () => {
    expect(def.scope).toBe('Namespaced');
    expect(def.versions.map((v) => [v.name, v.served, v.storage, v.subresources?.status])).toEqual([
      ['v1', true, true, true], ['v1alpha1', true, false, true], ['v1beta1', true, false, true],
    ]);
    expect(def.conversion).toEqual({ strategy: 'None' });
    const schemas = def.versions.map((v) => JSON.stringify(v.schema.toJson()));
    expect(new Set(schemas).size).toBe(1);
  });

  test('the pod template is a core PodSpec needing one container with a name and an image (upstream install patch)', () => {
    const pod = rootSchema(def.versions[0].schema).toJson().properties!.spec.properties!.template.properties!.spec;
    expect(pod.required).toEqual(['containers']);
    expect(pod.properties!.containers.minItems).toBe(1);
    expect(pod.properties!.containers.items!.required).toEqual(['image', 'name']);
    expect(Object.keys(pod.properties!)).toEqual(expect.arrayContaining(['volumes', 'initContainers', 'tolerations', 'affinity', 'securityContext']));
  });

  test('status requires conditions, containerState and readyReplicas', () => {
    const status = rootSchema(def.versions[0].schema).toJson().properties!.status;
    expect(status.required).toEqual(['conditions', 'containerState', 'readyReplicas']);
    expect(status.properties!.conditions.items!.required).toEqual(['status', 'type']);
    expect(status.properties!.readyReplicas).toEqual({ type: 'integer', format: 'int32', description: expect.any(String) });
  });
});

describe('NotebookController', () => {
  test('synthesizes alone with Istio present: every check passes; no webhooks upstream', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['notebook-controller']);
    expect(wiringTable(alone.model)).toEqual([]);
  });

  test('the controller: upstream names, image, flags, ports, probes, runs as 1000, configuration from its ConfigMap', () => {
    const d = find(objects, 'Deployment', 'notebook-controller-deployment');
    const pod = d.spec.template.spec;
    expect(pod.serviceAccountName).toBe('notebook-controller-service-account');
    const c = pod.containers[0];
    expect(c.image).toBe('ghcr.io/kubeflow/notebooks/notebook-controller:v1.11.0');
    expect(c.command).toEqual(['/manager']);
    expect(c.args).toEqual(['--probe-addr=:8081', '--metrics-addr=127.0.0.1:8080']);
    expect(c.ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    expect(c.securityContext.runAsUser).toBe(1000);
    expect(c.env).toContainEqual({ name: 'USE_ISTIO', valueFrom: { configMapKeyRef: { name: 'notebook-controller-config', key: 'USE_ISTIO' } } });
    expect(find(objects, 'ConfigMap', 'notebook-controller-config').data).toEqual({
      USE_ISTIO: 'true',
      ISTIO_GATEWAY: 'kubeflow/kubeflow-gateway',
      ISTIO_HOST: '*',
      CLUSTER_DOMAIN: 'cluster.local',
      ENABLE_CULLING: 'false',
      CULL_IDLE_TIME: '1440',
      IDLENESS_CHECK_PERIOD: '1',
    });
    expect(objects.filter((o) => o.kind === 'Role')).toEqual([]);
  });

  test('metrics: plain HTTP on localhost behind kube-rbac-proxy (upstream auth-proxy variant)', () => {
    const pod = find(objects, 'Deployment', 'notebook-controller-deployment').spec.template.spec;
    expect(pod.containers.map((x: any) => x.name)).toEqual(['manager', 'kube-rbac-proxy']);
    expect(pod.containers[1].image).toBe('quay.io/brancz/kube-rbac-proxy:v0.18.0');
    expect(pod.containers[1].args).toContain('--upstream=http://127.0.0.1:8080/');
    expect(find(objects, 'Service', 'notebook-controller-deployment-metrics-service').spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 'https', protocol: 'TCP' }]);
    expect(find(objects, 'ClusterRole', 'notebook-controller-deployment-role').rules).toContainEqual({ apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] });
  });

  test('RBAC: Notebooks, their StatefulSets, Services and VirtualServices; pods and events read', () => {
    const rules = find(objects, 'ClusterRole', 'notebook-controller-deployment-role').rules;
    expect(rules).toContainEqual({ apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['networking.istio.io'], resources: ['virtualservices'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: ['kubeflow.org'], resources: ['notebooks'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(rules).toContainEqual({ apiGroups: [''], resources: ['events'], verbs: ['create', 'get', 'list', 'patch', 'watch'] });
    for (const r of objects.filter((o) => o.kind === 'ClusterRole').flatMap((o) => o.rules ?? [])) expect(r.verbs).not.toContain('*');
  });

  test('user roles aggregate into the Kubeflow roles', () => {
    expect(find(objects, 'ClusterRole', 'kubeflow-notebooks-admin').aggregationRule.clusterRoleSelectors).toEqual([{ matchLabels: { 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-notebooks-admin': 'true' } }]);
    expect(find(objects, 'ClusterRole', 'kubeflow-notebooks-edit').metadata.labels).toEqual({
      'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true', 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-notebooks-admin': 'true',
    });
    expect(find(objects, 'ClusterRole', 'kubeflow-notebooks-view').rules).toEqual([{ apiGroups: ['kubeflow.org'], resources: ['notebooks', 'notebooks/status'], verbs: ['get', 'list', 'watch'] }]);
  });

  test('declares its documentation link for the dashboard', () => {
    const nb = alone.model.components[0];
    expect(nb.dashboardLinks).toEqual([{ documentation: [{ desc: 'Documentation for Kubeflow Notebooks', link: 'https://www.kubeflow.org/docs/components/notebooks/', text: 'Kubeflow Notebooks Documentation' }] }]);
  });

  test('without Istio: USE_ISTIO=false, no VirtualService permission, no Istio needed', () => {
    const b = platform({ istio: false }, []);
    const json = b.model.objects.map((o) => o.json);
    expect(find(json, 'ConfigMap', 'notebook-controller-config').data.USE_ISTIO).toBe('false');
    expect(JSON.stringify(find(json, 'ClusterRole', 'notebook-controller-deployment-role').rules)).not.toContain('virtualservices');
  });

  test('culling and several replicas (leader election)', () => {
    const b = platform({ culling: { enabled: true, idleTimeMinutes: 60, checkPeriodMinutes: 5 }, replicas: 2 });
    const json = b.model.objects.map((o) => o.json);
    expect(find(json, 'ConfigMap', 'notebook-controller-config').data).toMatchObject({ ENABLE_CULLING: 'true', CULL_IDLE_TIME: '60', IDLENESS_CHECK_PERIOD: '5' });
    expect(find(json, 'Deployment', 'notebook-controller-deployment').spec.template.spec.containers[0].args).toContain('--enable-leader-election');
    expect(json.filter((o) => o.kind === 'Role')).toHaveLength(1);
  });

  test('leader election may use its ConfigMap: the manager (controller-runtime v0.11.0) locks with configmapsleases, a ConfigMap next to the Lease', () => {
    const rulesOf = (replicas: number) => platform({ replicas }).model.objects.map((o) => o.json).filter((o) => o.kind === 'Role').flatMap((o) => o.rules);
    expect(rulesOf(2)).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get', 'update'] });
    // One replica: no leader election, no ConfigMap access.
    expect(JSON.stringify(rulesOf(1))).not.toContain('configmaps');
  });

  test('fails when Istio is neither present nor provided', () => {
    const problems = problemsOf(() => platform({}, []));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/requires networking.istio.io\/VirtualService \(the notebook controller routes each notebook through an Istio VirtualService \(istio: false turns this off\)\)/);
  });

  test('fails when culling times are not whole minutes', () => {
    expect(() => newController({ culling: { enabled: true, idleTimeMinutes: 0.5 } })).toThrow('p/notebook-controller: culling.idleTimeMinutes 0.5 must be a whole number of minutes >= 1');
  });

  test('fails when istioGateway is not namespace/name', () => {
    expect(() => newController({ istioGateway: 'kubeflow-gateway' }))
      .toThrow("p/notebook-controller: istioGateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
  });

  test('full output', () => {
    expect(alone.model.objects.map((o) => pinnable(o.json))).toMatchSnapshot();
  });
});

describe('workbench images', () => {
  test('the defaults offer Jupyter, VS Code and RStudio images; the spawner lists them by kind, resolved through the platform', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'notebooks', prerequisites: [ISTIO], images: { registryMirror: 'mirror.example.com' } });
      const nb = new NotebookController(p, 'notebook-controller');
      expect(nb.imagesOfKind(WorkbenchKind.JUPYTER)).toHaveLength(5);
      expect(nb.spawnerImages()).toEqual({
        image: {
          value: 'mirror.example.com/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.11.0',
          options: [
            'jupyter-scipy', 'jupyter-pytorch-full', 'jupyter-pytorch-cuda-full', 'jupyter-tensorflow-full', 'jupyter-tensorflow-cuda-full',
          ].map((n) => `mirror.example.com/kubeflow/kubeflow/notebook-servers/${n}:v1.11.0`),
        },
        imageGroupOne: { value: 'mirror.example.com/kubeflow/kubeflow/notebook-servers/codeserver-python:v1.11.0', options: ['mirror.example.com/kubeflow/kubeflow/notebook-servers/codeserver-python:v1.11.0'] },
        imageGroupTwo: { value: 'mirror.example.com/kubeflow/kubeflow/notebook-servers/rstudio-tidyverse:v1.11.0', options: ['mirror.example.com/kubeflow/kubeflow/notebook-servers/rstudio-tidyverse:v1.11.0'] },
      });
      return p;
    });
    expect(b.model.components).toHaveLength(1);
  });

  test('addNotebook: each kind gets the annotations the Jupyter web app sets', () => {
    const rstudio = DEFAULT_WORKBENCH_IMAGES.find((w) => w.kind === WorkbenchKind.RSTUDIO)!;
    const vscode = DEFAULT_WORKBENCH_IMAGES.find((w) => w.kind === WorkbenchKind.VSCODE)!;
    const b = platform({}, [ISTIO], (nb) => {
      nb.addNotebook('Jupyter', { namespace: 'team-a', name: 'lab', image: DEFAULT_WORKBENCH_IMAGES[0], workspaceClaim: 'lab-workspace' });
      nb.addNotebook('Code', { namespace: 'team-a', name: 'code', image: vscode });
      nb.addNotebook('R', { namespace: 'team-a', name: 'rs', image: rstudio });
    });
    const json = b.model.objects.map((o) => o.json);
    const lab = find(json, 'Notebook', 'lab');
    expect(lab.apiVersion).toBe('kubeflow.org/v1');
    expect(lab.metadata.annotations).toEqual({ 'notebooks.kubeflow.org/server-type': 'jupyter' });
    expect(lab.spec.template.spec).toEqual({
      serviceAccountName: 'default-editor',
      containers: [{
        name: 'lab',
        image: 'ghcr.io/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.11.0',
        imagePullPolicy: 'IfNotPresent',
        resources: { requests: { cpu: '500m', memory: '1Gi' } },
        volumeMounts: [{ name: 'workspace', mountPath: '/home/jovyan' }],
      }],
      volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: 'lab-workspace' } }],
    });
    expect(find(json, 'Notebook', 'code').metadata.annotations).toEqual({ 'notebooks.kubeflow.org/server-type': 'group-one', 'notebooks.kubeflow.org/http-rewrite-uri': '/' });
    expect(find(json, 'Notebook', 'rs').metadata.annotations).toEqual({
      'notebooks.kubeflow.org/server-type': 'group-two',
      'notebooks.kubeflow.org/http-rewrite-uri': '/',
      'notebooks.kubeflow.org/http-headers-request-set': '{"X-RStudio-Root-Path":"/notebook/team-a/rs/"}',
    });
    expect(b.model.objects.filter((o) => o.json.kind === 'Notebook').map((o) => o.phase)).toEqual(['30-resources', '30-resources', '30-resources']);
  });

  test("a platform's own images join the versions table", () => {
    const own = WorkbenchImage.jupyter('jupyterCustom', 'Our JupyterLab');
    const b = platform({ extraWorkbenchImages: { jupyterCustom: { repository: 'registry.example.com/ml/jupyter', tag: '2026.11' } }, workbenchImages: [own] }, [ISTIO], (nb) => {
      nb.addNotebook('Lab', { namespace: 'team-a', name: 'lab', image: own });
    });
    expect(find(b.model.objects.map((o) => o.json), 'Notebook', 'lab').spec.template.spec.containers[0].image).toBe('registry.example.com/ml/jupyter:2026.11');
  });

  test('fails when a notebook uses an image the platform does not offer', () => {
    const nb = newController({ workbenchImages: [DEFAULT_WORKBENCH_IMAGES[0]] });
    expect(() => nb.addNotebook('Lab', { namespace: 'team-a', name: 'lab', image: DEFAULT_WORKBENCH_IMAGES[6] }))
      .toThrow("p/notebook-controller: addNotebook('Lab'): image 'rstudioTidyverse' (RStudio + Tidyverse) is not one of the platform's workbench images; offer it in workbenchImages");
  });

  test('fails when a notebook name is not a DNS label', () => {
    expect(() => newController().addNotebook('Lab', { namespace: 'team-a', name: 'My Lab', image: DEFAULT_WORKBENCH_IMAGES[0] }))
      .toThrow("p/notebook-controller: addNotebook('Lab'): name 'My Lab' must be a DNS label of at most 52 characters (the StatefulSet's pods append a suffix)");
  });

  test('fails when an offered image is not in the versions table', () => {
    expect(() => newController({ workbenchImages: [WorkbenchImage.vscode('vscodeNightly', 'VS Code nightly')] }))
      .toThrow(/^p\/notebook-controller: workbenchImages: 'vscodeNightly' \(VS Code nightly\) is not an image of the component; add it to extraWorkbenchImages or choose one of codeserverPython, /);
  });

  test('fails when no image is offered', () => {
    expect(() => newController({ workbenchImages: [] })).toThrow('p/notebook-controller: workbenchImages is empty: offer at least one image, or leave it unset for the defaults');
  });

  test('fails when an extra image reuses a key of the component', () => {
    expect(() => newController({ extraWorkbenchImages: { jupyterScipy: { repository: 'x/y', tag: '1' } } }))
      .toThrow("p/notebook-controller: extraWorkbenchImages: 'jupyterScipy' is already an image of the component; override it through the platform's images.overrides['notebook-controller/jupyterScipy'] instead");
  });
});

describe('Open Data Hub webhooks', () => {
  const odh = platform({ odhWebhooks: true }, [ISTIO, OPENSHIFT, GATEWAY_API, CERT_MANAGER]);
  const json = odh.model.objects.map((o) => o.json);

  test('the ODH controller serves the two upstream webhooks on Notebooks v1', () => {
    expect(wiringTable(odh.model)).toEqual([
      'mutating odh-notebook-controller-mutating-webhook-configuration/notebooks.opendatahub.io -> kubeflow/odh-notebook-controller-webhook-service:443/mutate-notebook-v1 -> Deployment/odh-notebook-controller-manager:8443 -> cert-manager kubeflow/odh-notebook-controller-webhook-service-cert -> Fail',
      'validating odh-notebook-controller-validating-webhook-configuration/notebooks-validation.opendatahub.io -> kubeflow/odh-notebook-controller-webhook-service:443/validate-notebook-v1 -> Deployment/odh-notebook-controller-manager:8443 -> cert-manager kubeflow/odh-notebook-controller-webhook-service-cert -> Fail',
    ]);
    const m = find(json, 'MutatingWebhookConfiguration', 'odh-notebook-controller-mutating-webhook-configuration').webhooks[0];
    expect(m).toMatchObject({
      admissionReviewVersions: ['v1'],
      sideEffects: 'None',
      failurePolicy: 'Fail',
      rules: [{ apiGroups: ['kubeflow.org'], apiVersions: ['v1'], resources: ['notebooks'], operations: ['CREATE', 'UPDATE'] }],
    });
    expect(find(json, 'ValidatingWebhookConfiguration', 'odh-notebook-controller-validating-webhook-configuration').webhooks[0].name).toBe('notebooks-validation.opendatahub.io');
  });

  test('its manager: image, kube-rbac-proxy flag, webhook port 8443 named webhook, resources', () => {
    const c = find(json, 'Deployment', 'odh-notebook-controller-manager').spec.template.spec.containers[0];
    expect(c.image).toBe('quay.io/opendatahub/odh-notebook-controller:v1.10.0-15');
    expect(c.args).toEqual(['--kube-rbac-proxy-image', 'quay.io/brancz/kube-rbac-proxy:v0.18.0']);
    expect(c.ports).toContainEqual({ name: 'webhook', containerPort: 8443, protocol: 'TCP' });
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '500m', memory: '4Gi' } });
    expect(find(json, 'ClusterRole', 'notebooks-edit').metadata.labels).toEqual({ 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-notebooks-admin': 'true' });
  });

  test('with the OpenShift service CA, as ODH ships it', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'odh', certificates: CertificateProvider.openShiftServiceCa(), prerequisites: [ISTIO, OPENSHIFT, GATEWAY_API] });
      new NotebookController(p, 'notebook-controller', { odhWebhooks: true, namespace: 'opendatahub' });
      return p;
    });
    expect(wiringTable(b.model).map((l) => l.split(' -> ')[3])).toEqual(['openshift service-ca', 'openshift service-ca']);
  });

  test('fails when the OpenShift kinds are absent', () => {
    const problems = problemsOf(() => platform({ odhWebhooks: true }, [ISTIO, CERT_MANAGER]));
    expect(problems.map((p) => /requires (\S+)/.exec(p)![1])).toEqual(['route.openshift.io/Route', 'image.openshift.io/ImageStream', 'gateway.networking.k8s.io/HTTPRoute']);
  });
});
