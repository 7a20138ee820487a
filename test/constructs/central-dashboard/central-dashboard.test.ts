import { ApiObject, App } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { CentralDashboard, CentralDashboardProps } from '../../../constructs/central-dashboard';
import { NotebookController } from '../../../constructs/notebook-controller';
import { ProfileController } from '../../../constructs/profile-controller';
import { Component } from '../../../lib/component';
import { DashboardLinks, internalLinks } from '../../../lib/dashboard';
import { ImageSpec } from '../../../lib/images';
import { Platform } from '../../../lib/platform';
import { build, pinnable, problemsOf } from '../../platforms/helpers';
import { ISTIO } from '../kubeflow-prerequisites';

/**
 * A component with a UI, as pipelines or Katib declare theirs: a Service and, unless
 * `routed` is false, a VirtualService on the Kubeflow gateway for each path it links to.
 */
class WithUi extends Component {
  public readonly images: Readonly<Record<string, ImageSpec>> = {};
  constructor(scope: Platform, id: string, links: DashboardLinks, routed = true) {
    super(scope, id, 'kubeflow');
    this.addDashboardLinks(links);
    new k8s.KubeService(this, 'Service', { metadata: { name: id, namespace: 'kubeflow' }, spec: { selector: { app: id }, ports: [{ port: 80 }] } });
    if (!routed) return;
    const prefixes = [...new Set(internalLinks(links).map((l) => `/${l.split('/')[1]}/`))];
    new ApiObject(this, 'VirtualService', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: id, namespace: 'kubeflow' },
      spec: { gateways: ['kubeflow/kubeflow-gateway'], hosts: ['*'], http: prefixes.map((prefix) => ({ match: [{ uri: { prefix } }], route: [{ destination: { host: `${id}.kubeflow.svc.cluster.local`, port: { number: 80 } } }] })) },
    });
  }
}

const PIPELINES: DashboardLinks = {
  menu: [{ text: 'Pipelines', icon: 'kubeflow:pipeline-centered', items: [{ link: '/pipeline/#/pipelines', text: 'Pipelines' }, { link: '/pipeline/#/runs', text: 'Runs' }] }],
  quick: [{ desc: 'Kubeflow Pipelines', link: '/pipeline/#/pipelines', text: 'Upload a Pipeline' }],
};
const KATIB: DashboardLinks = { menu: [{ icon: 'kubeflow:katib', link: '/katib/', text: 'Katib Experiments' }] };

function platform(props: CentralDashboardProps = {}, more: (p: Platform) => void = () => undefined) {
  return build((app) => {
    const p = new Platform(app, 'p', { name: 'dashboard', prerequisites: [ISTIO] });
    new ProfileController(p, 'profile-controller');
    new CentralDashboard(p, 'central-dashboard', props);
    more(p);
    return p;
  });
}
const linksOf = (b: ReturnType<typeof platform>) => JSON.parse(b.model.objects.find((o) => o.json.kind === 'ConfigMap' && o.json.metadata.name === 'dashboard-config')!.json.data.links);

const alone = platform();
const objects = alone.model.objects.filter((o) => o.component.componentName === 'central-dashboard').map((o) => o.json);
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};

describe('CentralDashboard', () => {
  test('synthesizes with only its requirement, the profile controller (Istio present): every check passes', () => {
    expect(alone.model.components.map((c) => c.componentName)).toEqual(['profile-controller', 'central-dashboard']);
  });

  test('with no component declaring links, the links configuration is empty', () => {
    expect(linksOf(alone)).toEqual({ menuLinks: [], externalLinks: [], quickLinks: [], documentationItems: [] });
    expect(JSON.parse(find('ConfigMap', 'dashboard-config').data.settings)).toEqual({ DASHBOARD_FORCE_IFRAME: true });
  });

  test('links come from the components present, in their order; an absent component has no link', () => {
    const withAll = platform({}, (p) => {
      new WithUi(p, 'pipelines', PIPELINES);
      new NotebookController(p, 'notebook-controller');
      new WithUi(p, 'katib', KATIB);
    });
    expect(linksOf(withAll)).toEqual({
      menuLinks: [
        { type: 'section', text: 'Pipelines', icon: 'kubeflow:pipeline-centered', items: [{ type: 'item', link: '/pipeline/#/pipelines', text: 'Pipelines' }, { type: 'item', link: '/pipeline/#/runs', text: 'Runs' }] },
        { type: 'item', link: '/katib/', text: 'Katib Experiments', icon: 'kubeflow:katib' },
      ],
      externalLinks: [],
      quickLinks: [{ desc: 'Kubeflow Pipelines', link: '/pipeline/#/pipelines', text: 'Upload a Pipeline' }],
      documentationItems: [{ desc: 'Documentation for Kubeflow Notebooks', link: 'https://www.kubeflow.org/docs/components/notebooks/', text: 'Kubeflow Notebooks Documentation' }],
    });
    const withoutKatib = platform({}, (p) => new WithUi(p, 'pipelines', PIPELINES));
    expect(JSON.stringify(linksOf(withoutKatib))).not.toContain('/katib/');
    expect(linksOf(withoutKatib).menuLinks).toHaveLength(1);
  });

  test("the platform's own links come last", () => {
    const b = platform({ extraLinks: { external: [{ link: 'https://grafana.example.com', text: 'Grafana', icon: 'assessment' }] } }, (p) => new WithUi(p, 'katib', KATIB));
    expect(linksOf(b).externalLinks).toEqual([{ type: 'item', link: 'https://grafana.example.com', text: 'Grafana', icon: 'assessment' }]);
  });

  test('the web app: image, port 8082, /healthz probes, parameters, kfam address of the profile controller', () => {
    const d = find('Deployment', 'dashboard');
    const c = d.spec.template.spec.containers[0];
    expect(d.spec.template.spec.serviceAccountName).toBe('dashboard');
    expect(c.image).toBe('ghcr.io/kubeflow/dashboard/dashboard:v2.0.0');
    expect(c.ports).toEqual([{ name: 'http', containerPort: 8082, protocol: 'TCP' }]);
    expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 8082 });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/healthz', port: 8082 });
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'dashboard-parameters' } }]);
    expect(c.env.slice(0, 3)).toEqual([
      { name: 'PROFILES_KFAM_SERVICE_HOST', value: 'profiles-kfam.kubeflow' },
      { name: 'DASHBOARD_CONFIGMAP', value: 'dashboard-config' },
      { name: 'LOGOUT_URL', value: '/oauth2/sign_out' },
    ]);
    expect(c.securityContext).toMatchObject({ runAsUser: 1000, runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    expect(find('ConfigMap', 'dashboard-parameters').data).toEqual({ USERID_HEADER: 'kubeflow-userid', USERID_PREFIX: '', REGISTRATION_FLOW: 'false', COLLECT_METRICS: 'true' });
    expect(find('Service', 'dashboard').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  test('exposed through Istio as upstream: VirtualService on the gateway, AuthorizationPolicy for the ingress gateway, NetworkPolicy', () => {
    expect(find('VirtualService', 'dashboard').spec).toEqual({
      gateways: ['kubeflow/kubeflow-gateway'],
      hosts: ['*'],
      http: [{ match: [{ uri: { prefix: '/' } }], rewrite: { uri: '/' }, route: [{ destination: { host: 'dashboard.kubeflow.svc.cluster.local', port: { number: 80 } } }] }],
    });
    expect(find('AuthorizationPolicy', 'dashboard').spec).toEqual({
      action: 'ALLOW',
      rules: [{ from: [{ source: { principals: ['cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
      selector: { matchLabels: { 'app': 'kubeflow-dashboard', 'app.kubernetes.io/component': 'dashboard', 'app.kubernetes.io/managed-by': 'kustomize', 'app.kubernetes.io/name': 'centraldashboard', 'app.kubernetes.io/part-of': 'kubeflow-dashboard' } },
    });
    expect(find('NetworkPolicy', 'dashboard').spec.ingress).toEqual([{
      from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['istio-system'] }] } }, { podSelector: {} }],
    }]);
  });

  test('without Istio: no routing objects', () => {
    const b = platform({ istio: false });
    const kinds = b.model.objects.filter((o) => o.component.componentName === 'central-dashboard').map((o) => o.json.kind);
    expect(kinds).not.toContain('VirtualService');
    expect(kinds).not.toContain('AuthorizationPolicy');
    expect(kinds).not.toContain('NetworkPolicy');
  });

  test('fails when istio.gateway is not namespace/name', () => {
    expect(() => new CentralDashboard(new Platform(new App(), 'p', { name: 'x' }), 'central-dashboard', { istio: { gateway: 'kubeflow-gateway' } }))
      .toThrow("p/central-dashboard: istio.gateway 'kubeflow-gateway' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)");
  });

  test('kfam is found wherever the profile controller runs', () => {
    const b = build((app) => {
      const p = new Platform(app, 'p', { name: 'dashboard', prerequisites: [ISTIO] });
      new ProfileController(p, 'profile-controller', { namespace: 'profiles' });
      new CentralDashboard(p, 'central-dashboard');
      return p;
    });
    const d = b.model.objects.find((o) => o.json.kind === 'Deployment' && o.json.metadata.name === 'dashboard')!.json;
    expect(d.spec.template.spec.containers[0].env[0]).toEqual({ name: 'PROFILES_KFAM_SERVICE_HOST', value: 'profiles-kfam.profiles' });
  });

  test('CD-RBAC: reads pods, their logs, applications and ConfigMaps in its namespace, namespaces, events and nodes cluster-wide; no Secrets, no pods/exec (as upstream)', () => {
    const rules = find('Role', 'dashboard').rules;
    expect(rules).toHaveLength(3);
    expect(rules).toEqual(expect.arrayContaining([
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['app.k8s.io'], resources: ['applications'], verbs: ['get', 'list', 'watch'] },
    ]));
    const roles = objects.filter((o) => /Role$/.test(o.kind) && o.rules);
    const granted = roles.flatMap((r) => r.rules.flatMap((x: any) => x.resources));
    expect(granted).not.toContain('secrets');
    expect(granted).not.toContain('pods/exec');
    expect(find('ClusterRole', 'dashboard').rules).toEqual([{ apiGroups: [''], resources: ['events', 'namespaces', 'nodes'], verbs: ['get', 'list', 'watch'] }]);
  });

  test('fails when the profile controller is absent, naming it', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'dashboard' });
      new CentralDashboard(p, 'central-dashboard', { istio: false });
      return p;
    }));
    expect(problems).toEqual([
      "p/central-dashboard: component 'central-dashboard' (CentralDashboard) requires kubeflow.org/Profile (the dashboard lists and shares namespaces through profiles and the access management service), " +
        "but no component of platform 'dashboard' provides it and no prerequisite declares it; add the ProfileController component to the platform, " +
        "or declare it present with prerequisites: [{ name: '...', provides: [{ group: 'kubeflow.org', kind: 'Profile' }] }]",
    ]);
  });

  test('fails when the profile controller runs without access management', () => {
    const problems = problemsOf(() => build((app) => {
      const p = new Platform(app, 'p', { name: 'dashboard', prerequisites: [ISTIO] });
      new ProfileController(p, 'profile-controller', { accessManagement: false });
      new CentralDashboard(p, 'central-dashboard');
      return p;
    }));
    expect(problems).toEqual([
      "p/central-dashboard: the dashboard needs the access management service, but profile controller 'profile-controller' runs without it; set accessManagement: true on it",
    ]);
  });

  test('fails when two components declare the same menu link', () => {
    const problems = problemsOf(() => platform({}, (p) => {
      new WithUi(p, 'katib', KATIB);
      new WithUi(p, 'katib-copy', KATIB);
    }));
    expect(problems).toEqual(["p/central-dashboard: dashboard menu link /katib/ is declared by both 'katib' and 'katib-copy'; keep one"]);
  });

  test('DASH-ROUTE: each link leads to its app: the VirtualService on the gateway that serves its path and the Service behind it', () => {
    const b = platform({}, (p) => {
      new WithUi(p, 'pipelines', PIPELINES);
      new WithUi(p, 'katib', KATIB);
    });
    const dashboard = b.model.components.find((c): c is CentralDashboard => c instanceof CentralDashboard)!;
    expect(dashboard.linkRoutes().map((r) => `${r.component} ${r.link} -> ${r.virtualService} -> ${r.service}`)).toEqual([
      'pipelines /pipeline/#/pipelines -> kubeflow/pipelines -> kubeflow/pipelines',
      'pipelines /pipeline/#/runs -> kubeflow/pipelines -> kubeflow/pipelines',
      'katib /katib/ -> kubeflow/katib -> kubeflow/katib',
    ]);
  });

  test('DASH-ROUTE: fails when a component links to a path nothing routes (the dashboard\'s catch-all does not count)', () => {
    const problems = problemsOf(() => platform({}, (p) => new WithUi(p, 'katib', KATIB, false)));
    expect(problems).toEqual([
      "p/central-dashboard: dashboard link /katib/ of component 'katib' leads nowhere: no VirtualService on gateway kubeflow/kubeflow-gateway routes /katib/ " +
        "(only the dashboard's catch-all would answer it); give the app its route, or declare the link only when the app is served",
    ]);
  });

  test('fails when an extra link is not a URL', () => {
    expect(() => new CentralDashboard(new Platform(new App(), 'p', { name: 'x' }), 'central-dashboard', { extraLinks: { external: [{ link: 'grafana', text: 'Grafana' }] } }))
      .toThrow("p/central-dashboard: extraLinks: external link 'Grafana' link 'grafana' must be an http(s) URL");
  });

  test('fails when replicas is 0', () => {
    expect(() => new CentralDashboard(new Platform(new App(), 'p', { name: 'x' }), 'central-dashboard', { replicas: 0 }))
      .toThrow('p/central-dashboard: replicas 0 must be a whole number >= 1');
  });

  test('the parameters hold only what the web app reads (no CD_CLUSTER_DOMAIN, which v2.0.0 never reads); clusterDomain names the route\'s destination host', () => {
    expect(Object.keys(find('ConfigMap', 'dashboard-parameters').data)).not.toContain('CD_CLUSTER_DOMAIN');
    const b = platform({ clusterDomain: 'corp.example' });
    const vs = b.model.objects.find((o) => o.json.kind === 'VirtualService' && o.json.metadata.name === 'dashboard')!.json;
    expect(vs.spec.http[0].route[0].destination.host).toBe('dashboard.kubeflow.svc.corp.example');
  });

  test('fails when clusterDomain is not a DNS domain', () => {
    expect(() => new CentralDashboard(new Platform(new App(), 'p', { name: 'x' }), 'central-dashboard', { clusterDomain: 'Cluster_Local' }))
      .toThrow("p/central-dashboard: clusterDomain 'Cluster_Local' is not a DNS domain; give the cluster's domain, e.g. cluster.local");
  });

  test('fails when logoutUrl is neither a path nor a URL', () => {
    expect(() => new CentralDashboard(new Platform(new App(), 'p', { name: 'x' }), 'central-dashboard', { logoutUrl: 'logout' }))
      .toThrow("p/central-dashboard: logoutUrl 'logout' must be a path starting with / or an http(s) URL");
  });

  test('full output', () => {
    expect(objects.map(pinnable)).toMatchSnapshot();
  });
});
