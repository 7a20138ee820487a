import * as fs from 'fs';
import * as path from 'path';
import { PodDefaultsWebhook } from '../../../constructs/admission-webhook';
import { CentralDashboard } from '../../../constructs/central-dashboard';
import { JupyterWebApp, JupyterWebAppProps, TensorboardsWebApp, VolumesWebApp, VolumesWebAppProps } from '../../../constructs/crud-web-apps';
import { DEFAULT_WORKBENCH_IMAGES, NotebookController } from '../../../constructs/notebook-controller';
import { ProfileController } from '../../../constructs/profile-controller';
import { PvcViewerController } from '../../../constructs/pvcviewer-controller';
import { TensorboardController } from '../../../constructs/tensorboard-controller';
import { CERT_MANAGER } from '../../../lib/component';
import { factValue, FactKind, ParityFactsFile } from '../../../lib/parity';
import { Platform, PlatformProps } from '../../../lib/platform';
import { build, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

interface Options {
  readonly jupyter?: JupyterWebAppProps | false;
  readonly volumes?: VolumesWebAppProps | false;
  readonly tensorboards?: false;
  readonly platform?: Partial<PlatformProps>;
  readonly notebooks?: ConstructorParameters<typeof NotebookController>[2];
}

/** The notebooks' apps with what they need, and the dashboard whose links they fill. */
function platform(o: Options = {}) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'notebooks', prerequisites: [ISTIO, CERT_MANAGER], ...o.platform });
    new NotebookController(p, 'notebook-controller', o.notebooks);
    new PodDefaultsWebhook(p, 'admission-webhook');
    new ProfileController(p, 'profile-controller');
    if (o.jupyter !== false) new JupyterWebApp(p, 'jupyter-web-app', o.jupyter);
    if (o.tensorboards !== false) {
      new TensorboardController(p, 'tensorboard-controller');
      new TensorboardsWebApp(p, 'tensorboards-web-app');
    }
    if (o.volumes !== false) {
      new PvcViewerController(p, 'pvcviewer-controller');
      new VolumesWebApp(p, 'volumes-web-app', o.volumes);
    }
    new CentralDashboard(p, 'central-dashboard');
    return p;
  });
}

const all = platform();
const objects = all.model.objects.map((o) => o.json);
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};
const linksOf = (b: ReturnType<typeof platform>) => JSON.parse(b.model.objects.find((o) => o.json.kind === 'ConfigMap' && o.json.metadata.name === 'dashboard-config')!.json.data.links);
const upstreamFact = (install: string, object: string, item: string): string => {
  const f: ParityFactsFile = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'parity', 'facts', `${install}.json`), 'utf8'));
  return f.facts.find((x) => x.kind === FactKind.CONFIGMAP_KEY && x.object === object && x.item === item)!.value!;
};
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);

const APPS = [
  { app: 'jupyter-web-app', prefix: '/jupyter' },
  { app: 'volumes-web-app', prefix: '/volumes' },
  { app: 'tensorboards-web-app', prefix: '/tensorboards' },
];

describe('Kubeflow CRUD web apps', () => {
  test('synthesize with the controllers they drive and the dashboard (every check passes), each app applied after the controller of its kind', () => {
    expect(all.model.components.map((c) => c.componentName)).toEqual([
      'notebook-controller', 'admission-webhook', 'profile-controller', 'tensorboard-controller', 'pvcviewer-controller',
      'jupyter-web-app', 'tensorboards-web-app', 'volumes-web-app', 'central-dashboard',
    ]);
  });

  test.each(APPS)('$app: upstream\'s Deployment, Service and istio overlay objects, the user header and the prefix in its environment', ({ app, prefix }) => {
    const d = find('Deployment', `${app}-deployment`);
    const c = d.spec.template.spec.containers[0];
    expect(d.spec.template.spec.serviceAccountName).toBe(`${app}-service-account`);
    expect(Object.fromEntries(c.env.filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value]))).toMatchObject({
      APP_PREFIX: prefix, USERID_HEADER: 'kubeflow-userid', USERID_PREFIX: '', APP_SECURE_COOKIES: 'true', METRICS: '1',
    });
    expect(c.ports).toEqual([{ name: 'http', containerPort: 5000, protocol: 'TCP' }]);
    const svc = find('Service', `${app}-service`);
    expect(svc.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    expect(svc.spec.selector).toEqual({ 'app': app, 'kustomize.component': app });
    const vs = find('VirtualService', `${app}-${app}`);
    expect(vs.spec.gateways).toEqual(['kubeflow/kubeflow-gateway']);
    expect(vs.spec.http[0]).toMatchObject({
      match: [{ uri: { prefix: `${prefix}/` } }],
      rewrite: { uri: '/' },
      headers: { request: { add: { 'x-forwarded-prefix': prefix } } },
      route: [{ destination: { host: `${app}-service.kubeflow.svc.cluster.local`, port: { number: 80 } } }],
    });
    expect(find('AuthorizationPolicy', app).spec).toEqual({
      action: 'ALLOW',
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
      selector: { matchLabels: { app } },
    });
    expect(find('DestinationRule', app).spec).toEqual({ host: `${app}-service.kubeflow.svc.cluster.local`, trafficPolicy: { tls: { mode: 'ISTIO_MUTUAL' } } });
    // The policy is enforced: the pods ask for a sidecar.
    expect(d.spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('true');
  });

  test('every dashboard menu link leads to a VirtualService on that prefix whose Service exists and selects a workload of the platform', () => {
    const menu: Array<{ link: string }> = linksOf(all).menuLinks;
    expect(menu.map((l) => l.link)).toEqual(['/jupyter/', '/tensorboards/', '/volumes/']);
    for (const { link } of menu) {
      const vs = objects.find((o) => o.kind === 'VirtualService' && o.spec.http.some((h: any) => h.match.some((m: any) => m.uri.prefix === link)));
      expect({ link, virtualService: vs?.metadata.name }).toEqual({ link, virtualService: expect.any(String) });
      const host: string = vs.spec.http[0].route[0].destination.host;
      const [name, ns] = host.split('.');
      const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === name && o.metadata.namespace === ns);
      expect({ link, service: svc?.metadata.name }).toEqual({ link, service: name });
      expect(svc.spec.ports.map((p: any) => p.port)).toContain(vs.spec.http[0].route[0].destination.port.number);
      const backends = objects.filter((o) => o.kind === 'Deployment' && o.metadata.namespace === ns && matches(svc.spec.selector, o.spec.template.metadata.labels));
      expect({ link, backends: backends.length }).toEqual({ link, backends: 1 });
    }
    expect(linksOf(all).quickLinks).toContainEqual({ desc: 'Kubeflow Notebooks', link: '/jupyter/new', text: 'Create a new Notebook' });
  });

  test('an app left out contributes no link, and its route is absent', () => {
    const without = platform({ volumes: false, tensorboards: false });
    expect(linksOf(without).menuLinks.map((l: any) => l.link)).toEqual(['/jupyter/']);
    expect(without.model.objects.filter((o) => o.json.kind === 'VirtualService').map((o) => o.json.metadata.name)).not.toContain('volumes-web-app-volumes-web-app');
  });

  test('istio: false emits no Istio object and needs no Istio on the cluster', () => {
    const plain = build((app) => {
      const p = new Platform(app, 'p', { name: 'plain', prerequisites: [CERT_MANAGER] });
      new NotebookController(p, 'notebook-controller', { istio: false });
      new PodDefaultsWebhook(p, 'admission-webhook');
      new JupyterWebApp(p, 'jupyter-web-app', { istio: false });
      return p;
    });
    const kinds = plain.model.objects.filter((o) => o.component.componentName === 'jupyter-web-app').map((o) => o.json.kind);
    expect(kinds).toContain('Deployment');
    expect(kinds.filter((k) => ['VirtualService', 'AuthorizationPolicy', 'DestinationRule'].includes(k))).toEqual([]);
    // With Istio, the same platform fails: the route needs Istio's kinds.
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'plain', prerequisites: [CERT_MANAGER] });
      new NotebookController(p, 'notebook-controller', { istio: false });
      new PodDefaultsWebhook(p, 'admission-webhook');
      new JupyterWebApp(p, 'jupyter-web-app');
      return p;
    }));
    expect(problems.join('\n')).toMatch(/jupyter-web-app.*VirtualService/);
  });

  test('the Jupyter spawner offers the notebook controller\'s workbench images; with upstream\'s images it is upstream\'s document', () => {
    const spawner = (b: ReturnType<typeof platform>) => b.model.objects.find((o) => o.json.kind === 'ConfigMap' && o.json.metadata.name === 'jupyter-web-app-config')!.json.data['spawner_ui_config.yaml'];
    // By default, upstream's v1.11.0 document (jupyter-pytorch-gaudi-full, which that tag no longer builds, is not offered).
    expect(spawner(all)).not.toContain('jupyter-pytorch-gaudi-full');
    expect(factValue(spawner(all))).toBe(upstreamFact('jupyter-web-app', 'jupyter-web-app-config', 'spawner_ui_config.yaml'));
    // A platform's own list replaces it.
    const two = platform({ notebooks: { workbenchImages: DEFAULT_WORKBENCH_IMAGES.slice(0, 2) } });
    expect(spawner(two)).toContain('jupyter-pytorch-full');
    expect(spawner(two)).not.toContain('jupyter-pytorch-cuda-full');
    // The images follow the platform's registry mirror, as the containers' own do.
    const mirrored = platform({ platform: { images: { registryMirror: 'mirror.example.com/kf' } } });
    expect(spawner(mirrored)).toContain('mirror.example.com/kf/kubeflow/kubeflow/notebook-servers/jupyter-scipy:v1.11.0');
  });

  test('the volume viewer spec is upstream\'s, its image the web app\'s VOLUME_VIEWER_IMAGE', () => {
    expect(factValue(find('ConfigMap', 'volumes-web-app-viewer-spec').data['viewer-spec.yaml'])).toBe(upstreamFact('volumes-web-app', 'volumes-web-app-viewer-spec', 'viewer-spec.yaml'));
    const env = find('Deployment', 'volumes-web-app-deployment').spec.template.spec.containers[0].env;
    expect(env).toContainEqual({ name: 'VOLUME_VIEWER_IMAGE', value: 'filebrowser/filebrowser:v2.32.0' });
  });

  test('the Jupyter web app\'s ServiceAccount holds only what its backend calls: no PodDefault writes, no finalizers, no claim deletion', () => {
    const role = find('ClusterRole', 'jupyter-web-app-deployment-role');
    const grants = role.rules.flatMap((r: any) => r.resources.flatMap((res: string) => r.verbs.map((v: string) => `${r.apiGroups[0]}|${res}|${v}`))).sort();
    expect(grants).toEqual([
      '|events|list', '|nodes|list', '|persistentvolumeclaims|create', '|persistentvolumeclaims|list', '|pods/log|get', '|pods|list',
      'authorization.k8s.io|subjectaccessreviews|create',
      'kubeflow.org|notebooks|create', 'kubeflow.org|notebooks|delete', 'kubeflow.org|notebooks|get', 'kubeflow.org|notebooks|list', 'kubeflow.org|notebooks|patch',
      'kubeflow.org|poddefaults|list', 'storage.k8s.io|storageclasses|list',
    ].sort());
  });

  test('the user roles aggregate into Kubeflow\'s edit and view roles', () => {
    expect(find('ClusterRole', 'volumes-web-app-kubeflow-volume-ui-edit').metadata.labels).toMatchObject({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-edit': 'true' });
    expect(find('ClusterRole', 'jupyter-web-app-kubeflow-notebook-ui-view').metadata.labels).toMatchObject({ 'rbac.authorization.kubeflow.org/aggregate-to-kubeflow-view': 'true' });
  });

  describe('bad input names the construct, the prop, the value and the fix', () => {
    test.each([
      [{ jupyter: { istio: { gateway: 'kubeflow-gateway' } } }, "p/jupyter-web-app: istio.gateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)"],
      [{ jupyter: { spawner: { cpu: 'lots' } } }, "p/jupyter-web-app: spawner.cpu 'lots' is not a quantity; give e.g. 0.5"],
      [{ jupyter: { replicas: 0 } }, 'p/jupyter-web-app: replicas 0 must be a whole number >= 1'],
      [{ jupyter: { userIdHeader: 'kubeflow userid' } }, "p/jupyter-web-app: userIdHeader 'kubeflow userid' is not an HTTP header name; give e.g. kubeflow-userid"],
      [{ volumes: { viewerServiceAccount: 'Default_Editor' } }, "p/volumes-web-app: viewerServiceAccount 'Default_Editor' is not a ServiceAccount name; give a DNS label, e.g. default-editor"],
      [{ volumes: { clusterDomain: 'Cluster Local' } }, "p/volumes-web-app: clusterDomain 'Cluster Local' is not a DNS domain; give the cluster's domain, e.g. cluster.local"],
    ] as Array<[Options, string]>)('%j', (o, message) => {
      expect(problemsOf(() => platform(o))).toEqual([message]);
    });

    test('a web app without the controller of its kind names the component that provides it', () => {
      const problems = problemsOf(() => build((app) => {
        const p = new Platform(app, 'p', { name: 'lonely', prerequisites: [ISTIO, CERT_MANAGER] });
        new TensorboardsWebApp(p, 'tensorboards-web-app');
        new PodDefaultsWebhook(p, 'admission-webhook');
        return p;
      }));
      expect(problems.join('\n')).toMatch(/tensorboards-web-app.*Tensorboard.*TensorboardController/);
    });
  });
});

describe('the web apps trust the user header only behind Istio (MLP062)', () => {
  test('without a sidecar on the app\'s pods, the platform refuses: anyone in the cluster could name any user', () => {
    const problems = problemsOf(() => platform({
      platform: { patches: [{ target: { kind: 'Deployment', name: 'volumes-web-app-deployment' }, ops: [{ op: 'replace', path: '/spec/template/metadata/labels/sidecar.istio.io~1inject', value: 'false' }] }] },
    }));
    expect(problems.join('\n')).toMatch(/MLP062.*volumes-web-app-deployment.*kubeflow-userid/s);
  });
});
