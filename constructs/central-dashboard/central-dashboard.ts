import { ApiObject, Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { centralDashboardParityDeviations } from './parity';
import { CENTRAL_DASHBOARD_IMAGES, CENTRAL_DASHBOARD_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { DashboardLinks, dashboardLinkProblems, internalLinks, isMenuSection, renderDashboardLinks, resolveDashboardLinks, RoutableObject } from '../../lib/dashboard';
import { ImageSpec } from '../../lib/images';
import { istioSidecarLabel } from '../../lib/istio';
import type { Platform } from '../../lib/platform';
import { bindingObject, Rbac, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';
import { ProfileController } from '../profile-controller/profile-controller';

export interface CentralDashboardIstioProps {
  /** The Istio Gateway users reach the dashboard through, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly gateway?: string;
  /** Principal of the ingress gateway, the only caller the dashboard admits. @default cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account */
  readonly ingressGatewayPrincipal?: string;
  /** Namespace of the ingress gateway pods (admitted by the NetworkPolicy). @default istio-system */
  readonly ingressGatewayNamespace?: string;
}

export interface CentralDashboardProps extends ComponentProps {
  /**
   * Expose the dashboard through Istio, as upstream's Istio variant: a VirtualService on the
   * gateway, an AuthorizationPolicy admitting the ingress gateway, and a NetworkPolicy
   * admitting the gateway's namespace and the dashboard's own. `false` for none of them.
   * @default {} (Istio with the defaults)
   */
  readonly istio?: CentralDashboardIstioProps | false;
  /** Links of the platform's own (beyond those its components declare), listed after them. @default none */
  readonly extraLinks?: DashboardLinks;
  /** Header carrying the authenticated user id. @default kubeflow-userid */
  readonly userIdHeader?: string;
  /** @default '' */
  readonly userIdPrefix?: string;
  /** Where the sign-out button goes (the identity proxy's sign-out path). @default /oauth2/sign_out */
  readonly logoutUrl?: string;
  /** Let users create their own profile on first login. @default false */
  readonly registrationFlow?: boolean;
  /** The cluster's DNS domain, in the Istio route's destination host. @default cluster.local */
  readonly clusterDomain?: string;
  /** @default 1 */
  readonly replicas?: number;
}

/** Upstream's full selector (kubeflow/dashboard v2.0.0 overlays), so a Deployment installed from them can be taken over (selectors are immutable). */
const SELECTOR = {
  'app': 'kubeflow-dashboard',
  'app.kubernetes.io/component': 'dashboard',
  'app.kubernetes.io/managed-by': 'kustomize',
  'app.kubernetes.io/name': 'centraldashboard',
  'app.kubernetes.io/part-of': 'kubeflow-dashboard',
};
const PORT = 8082;

/**
 * The Kubeflow central dashboard: its web app and its links configuration, generated from
 * the components present in the platform. Each component declares its links as data
 * (`Component.dashboardLinks`); a component that is absent contributes none.
 */
export class CentralDashboard extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return CENTRAL_DASHBOARD_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = CENTRAL_DASHBOARD_IMAGES;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;
  public readonly linksConfig: ApiObject;
  private readonly extraLinks?: DashboardLinks;
  /** The gateway the dashboard is served on (undefined with istio: false). */
  private readonly gateway?: string;

  constructor(scope: Platform, id: string, props: CentralDashboardProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const ns = this.namespaceName;
    const replicas = props.replicas ?? 1;
    if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`${this.node.path}: replicas ${props.replicas} must be a whole number >= 1`);
    if (props.extraLinks) {
      const problems = dashboardLinkProblems(props.extraLinks);
      if (problems.length) throw new Error(`${this.node.path}: extraLinks: ${problems.join('; ')}`);
    }
    const logout = props.logoutUrl ?? '/oauth2/sign_out';
    if (!logout.startsWith('/') && !/^https?:\/\//.test(logout)) throw new Error(`${this.node.path}: logoutUrl '${logout}' must be a path starting with / or an http(s) URL`);
    if (props.clusterDomain !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(props.clusterDomain)) {
      throw new Error(`${this.node.path}: clusterDomain '${props.clusterDomain}' is not a DNS domain; give the cluster's domain, e.g. cluster.local`);
    }
    this.extraLinks = props.extraLinks;
    this.gateway = props.istio === false ? undefined : props.istio?.gateway ?? 'kubeflow/kubeflow-gateway';
    this.addNamespace();
    this.require({ group: 'kubeflow.org', kind: 'Profile', reason: 'the dashboard lists and shares namespaces through profiles and the access management service', providedBy: ProfileController });

    const meta = (name: string) => ({ name, namespace: ns, labels: SELECTOR });
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta('dashboard') });
    roleObject(this, 'Role', {
      name: 'dashboard',
      namespace: ns,
      labels: SELECTOR,
      // Upstream's Role (kubeflow/dashboard v2.0.0): no Secrets and no pods/exec.
      rules: [
        Rbac.read('', 'pods', 'pods/log'),
        Rbac.read('app.k8s.io', 'applications'),
        Rbac.verbs('', ['configmaps'], ['get']),
      ],
    });
    const sa = [{ name: 'dashboard', namespace: ns }];
    bindingObject(this, 'RoleBinding', { name: 'dashboard', namespace: ns, labels: SELECTOR, roleRef: { kind: 'Role', name: 'dashboard' }, serviceAccounts: sa });
    roleObject(this, 'ClusterRole', { name: 'dashboard', labels: SELECTOR, rules: [Rbac.read('', 'events', 'namespaces', 'nodes')] });
    bindingObject(this, 'ClusterRoleBinding', { name: 'dashboard', labels: SELECTOR, roleRef: { kind: 'ClusterRole', name: 'dashboard' }, serviceAccounts: sa });

    new k8s.KubeConfigMap(this, 'Parameters', {
      metadata: meta('dashboard-parameters'),
      data: {
        USERID_HEADER: props.userIdHeader ?? 'kubeflow-userid',
        USERID_PREFIX: props.userIdPrefix ?? '',
        REGISTRATION_FLOW: String(props.registrationFlow ?? false),
        COLLECT_METRICS: 'true',
      },
    });
    this.linksConfig = new k8s.KubeConfigMap(this, 'Config', {
      metadata: meta('dashboard-config'),
      data: {
        settings: JSON.stringify({ DASHBOARD_FORCE_IFRAME: true }, undefined, 2),
        links: Lazy.any({ produce: () => JSON.stringify(renderDashboardLinks(this.contributions()), undefined, 2) }) as unknown as string,
      },
    });

    this.deployment = workloadObject(this, 'Deployment', {
      metadata: meta('dashboard'),
      spec: {
        replicas,
        selector: { matchLabels: SELECTOR },
        template: {
          // As upstream: the sidecar enforces the dashboard's AuthorizationPolicy, whatever the namespace injects.
          metadata: { labels: { ...SELECTOR, ...istioSidecarLabel(true) }, annotations: { 'kubectl.kubernetes.io/default-container': 'dashboard' } },
          spec: {
            serviceAccountName: 'dashboard',
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: 'dashboard',
              image: this.image('dashboard'),
              imagePullPolicy: 'IfNotPresent',
              ports: [{ name: 'http', containerPort: PORT, protocol: 'TCP' }],
              envFrom: [{ configMapRef: { name: 'dashboard-parameters' } }],
              env: [
                { name: 'PROFILES_KFAM_SERVICE_HOST', value: Lazy.any({ produce: () => this.kfamHost() }) },
                { name: 'DASHBOARD_CONFIGMAP', value: 'dashboard-config' },
                { name: 'LOGOUT_URL', value: logout },
                { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              ],
              livenessProbe: { httpGet: { path: '/healthz', port: PORT }, initialDelaySeconds: 15, periodSeconds: 30 },
              readinessProbe: { httpGet: { path: '/healthz', port: PORT }, initialDelaySeconds: 15, periodSeconds: 30 },
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
              securityContext: restrictedContainerSecurityContext({ runAsUser: 1000 }),
            }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: meta('dashboard'),
      spec: { selector: SELECTOR, ports: [{ name: 'http', port: 80, targetPort: k8s.IntOrString.fromString('http'), protocol: 'TCP' }] },
    });

    if (props.istio !== false) this.addIstioExposure(props.istio ?? {}, props.clusterDomain ?? 'cluster.local');
    this.declareParityDeviations(centralDashboardParityDeviations());

    this.node.addValidation({ validate: () => [...this.duplicateLinks(), ...this.kfamPresent(), ...this.unroutedLinks()] });
  }

  /** The link contributions of the platform's components, in declaration order, then extraLinks. */
  public contributions(): DashboardLinks[] {
    const out = this.platform.components.flatMap((c) => c.dashboardLinks);
    return this.extraLinks ? [...out, this.extraLinks] : out;
  }

  private addIstioExposure(istio: CentralDashboardIstioProps, clusterDomain: string): void {
    const ns = this.namespaceName;
    const gateway = istio.gateway ?? 'kubeflow/kubeflow-gateway';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gateway)) {
      throw new Error(`${this.node.path}: istio.gateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    }
    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the dashboard is routed through the Istio gateway (istio: false turns this off)' });
    this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the dashboard admits only the Istio ingress gateway (istio: false turns this off)' });
    new ApiObject(this, 'VirtualService', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'dashboard', namespace: ns, labels: SELECTOR },
      spec: {
        gateways: [gateway],
        hosts: ['*'],
        http: [{ match: [{ uri: { prefix: '/' } }], rewrite: { uri: '/' }, route: [{ destination: { host: `dashboard.${ns}.svc.${clusterDomain}`, port: { number: 80 } } }] }],
      },
    });
    new ApiObject(this, 'AuthorizationPolicy', {
      apiVersion: 'security.istio.io/v1beta1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'dashboard', namespace: ns, labels: SELECTOR },
      spec: {
        action: 'ALLOW',
        rules: [{ from: [{ source: { principals: [istio.ingressGatewayPrincipal ?? 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
        selector: { matchLabels: SELECTOR },
      },
    });
    new k8s.KubeNetworkPolicy(this, 'NetworkPolicy', {
      metadata: { name: 'dashboard', namespace: ns, labels: SELECTOR },
      spec: {
        podSelector: { matchLabels: SELECTOR },
        policyTypes: ['Ingress'],
        ingress: [{
          from: [
            { namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [istio.ingressGatewayNamespace ?? 'istio-system'] }] } },
            { podSelector: {} },
          ],
        }],
      },
    });
  }

  /** kfam's address: the profile controller's Service in the platform. */
  private kfamHost(): string {
    const pc = this.platform.components.find((c): c is ProfileController => c instanceof ProfileController);
    return `profiles-kfam.${pc ? pc.namespaceName : 'kubeflow'}`;
  }

  private kfamPresent(): string[] {
    const pc = this.platform.components.find((c): c is ProfileController => c instanceof ProfileController);
    return pc && !pc.accessManagement
      ? [`the dashboard needs the access management service, but profile controller '${pc.componentName}' runs without it; set accessManagement: true on it`]
      : [];
  }

  /**
   * Each link a component declares must lead to its app: a VirtualService on the dashboard's
   * gateway serving the link's path, to a Service in the output (extraLinks are the platform
   * team's and may lead elsewhere).
   */
  public linkRoutes(): Array<ReturnType<typeof resolveDashboardLinks>[number] & { component: string }> {
    if (!this.gateway) return [];
    const objects: RoutableObject[] = this.platform.components
      .flatMap((c) => c.node.findAll())
      .filter((o): o is ApiObject => o instanceof ApiObject && (o.kind === 'Service' || o.kind === 'VirtualService'))
      .map((o) => o.toJson());
    return this.platform.components.flatMap((c) => resolveDashboardLinks(objects, c.dashboardLinks.flatMap(internalLinks), this.gateway!)
      .map((r) => ({ ...r, component: c.componentName })));
  }

  private unroutedLinks(): string[] {
    return this.linkRoutes().filter((r) => r.problem).map((r) =>
      `dashboard link ${r.link} of component '${r.component}' leads nowhere: ${r.problem}; give the app its route, or declare the link only when the app is served`);
  }

  /** Two menu entries to the same page would show one page twice. */
  private duplicateLinks(): string[] {
    const seen = new Map<string, string>();
    const out: string[] = [];
    for (const c of this.platform.components) {
      for (const l of c.dashboardLinks) {
        for (const e of l.menu ?? []) {
          for (const link of isMenuSection(e) ? e.items.map((i) => i.link) : [e.link]) {
            const prev = seen.get(link);
            if (prev && prev !== c.componentName) out.push(`dashboard menu link ${link} is declared by both '${prev}' and '${c.componentName}'; keep one`);
            else seen.set(link, c.componentName);
          }
        }
      }
    }
    return out;
  }
}
