import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { stringify } from 'yaml';
import { CRDS } from './crds';
import { KubeflowRoles } from './kubeflow-roles';
import { DEFAULT_NAMESPACE_LABELS, ISTIO_INJECTION_LABEL } from './namespace-labels';
import { profileControllerParityDeviations } from './parity';
import { PROFILE_RUNTIME_BINDINGS } from './runtime-roles';
import { Tenant, TenantProps, TenantSettings } from './tenant';
import { PROFILE_CONTROLLER_IMAGES, PROFILE_CONTROLLER_VERSION } from './versions';
import { KubeflowRole } from '../../lib/aggregation';
import { Component, ComponentProps } from '../../lib/component';
import { Controller } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { restrictedContainerSecurityContext } from '../../lib/security';

export interface ProfileControllerProps extends ComponentProps {
  /** Header carrying the authenticated user id (set by the identity proxy). @default kubeflow-userid */
  readonly userIdHeader?: string;
  /** Prefix the identity proxy puts before the user id in that header. @default '' */
  readonly userIdPrefix?: string;
  /** The user the access management service treats as cluster administrator. @default - none */
  readonly clusterAdmin?: string;
  /** GCP service account for the WorkloadIdentity plugin of every profile. @default - none */
  readonly workloadIdentity?: string;
  /**
   * Labels for profile namespaces, merged over DEFAULT_NAMESPACE_LABELS (an empty value
   * removes a default).
   * @default DEFAULT_NAMESPACE_LABELS
   */
  readonly namespaceLabels?: Record<string, string>;
  /** Run the access management service (kfam) next to the controller: the dashboard's contributor management needs it. @default true */
  readonly accessManagement?: boolean;
  /** Principal of the Istio ingress gateway, allowed to forward users' requests into profile namespaces. @default cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account */
  readonly istioIngressGatewayPrincipal?: string;
  /** Principal of the notebook controller (it polls notebook kernels for culling). @default cluster.local/ns/kubeflow/sa/notebook-controller-service-account */
  readonly notebookControllerPrincipal?: string;
  /** Principal of the Pipelines UI. @default cluster.local/ns/kubeflow/sa/ml-pipeline-ui */
  readonly kfpUiPrincipal?: string;
  /** The Istio Gateway that routes /kfam/ to the access management service, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly istioGateway?: string;
  /** Principal of the central dashboard, the caller kfam admits. @default cluster.local/ns/kubeflow/sa/dashboard */
  readonly dashboardPrincipal?: string;
  /** Give every tenant namespace a NetworkPolicy that admits only its own pods and tenantIngressNamespaces. @default true */
  readonly tenantNetworkPolicy?: boolean;
  /** Namespaces whose pods may reach tenants' pods (gateway, platform services). @default ['istio-system', <this namespace>] */
  readonly tenantIngressNamespaces?: string[];
  /** @default 1 (leader election keeps one active) */
  readonly replicas?: number;
}

/** Upstream's full selector (kubeflow/dashboard v2.0.0 overlays), so a Deployment installed from them can be taken over (selectors are immutable). */
const SELECTOR = {
  'app': 'profile-controller',
  'app.kubernetes.io/component': 'controller-manager',
  'app.kubernetes.io/managed-by': 'kustomize',
  'app.kubernetes.io/name': 'profile-controller',
  'app.kubernetes.io/part-of': 'kubeflow-dashboard',
};
const LABELS_DIR = '/etc/profile-controller';
const KFAM_PORT = 8081;
const RESERVED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * The Kubeflow profile controller (multi-tenancy): the Profile CRD, the controller that
 * turns each Profile into a namespace with its owner's access, the access management
 * service (kfam) the dashboard uses to share namespaces, and the kubeflow-admin/edit/view
 * roles that every component aggregates its user permissions into.
 *
 * Tenants are declared with `addTenant`. RBAC is least privilege instead of upstream's
 * cluster-admin binding: it may bind only the three Kubeflow roles.
 */
export class ProfileController extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return PROFILE_CONTROLLER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = PROFILE_CONTROLLER_IMAGES;
  public readonly controller: Controller;
  public readonly roles: KubeflowRoles;
  /** Whether the access management service (kfam, Service profiles-kfam) runs. */
  public readonly accessManagement: boolean;
  /** Labels every profile namespace gets. */
  public readonly namespaceLabels: Readonly<Record<string, string>>;
  private readonly settings: TenantSettings;
  private readonly tenants = new Map<string, Tenant>();

  constructor(scope: Platform, id: string, props: ProfileControllerProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const ns = this.namespaceName;
    const header = props.userIdHeader ?? 'kubeflow-userid';
    if (!/^[A-Za-z0-9-]+$/.test(header)) {
      throw new Error(`${this.node.path}: userIdHeader '${header}' is not an HTTP header name (letters, digits and '-')`);
    }
    const prefix = props.userIdPrefix ?? '';
    const labels: Record<string, string> = { ...DEFAULT_NAMESPACE_LABELS };
    for (const [k, v] of Object.entries(props.namespaceLabels ?? {})) {
      if (!/^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(k)) {
        throw new Error(`${this.node.path}: namespaceLabels: '${k}' is not a label key`);
      }
      if (v === '') delete labels[k];
      else labels[k] = v;
    }
    const ingressNamespaces = props.tenantIngressNamespaces ?? ['istio-system', ns];
    if (!ingressNamespaces.length) {
      throw new Error(`${this.node.path}: tenantIngressNamespaces is empty: the ingress gateway could not reach any tenant; list at least its namespace, or set tenantNetworkPolicy: false`);
    }
    // The controller writes these labels at run time; declaring them here lets the checks
    // see which webhooks select tenant namespaces.
    this.namespaceLabels = Object.freeze({ ...labels, ...ISTIO_INJECTION_LABEL });
    const igw = props.istioIngressGatewayPrincipal ?? 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account';
    const kfpUi = props.kfpUiPrincipal ?? 'cluster.local/ns/kubeflow/sa/ml-pipeline-ui';
    this.settings = {
      namespaceLabels: this.namespaceLabels,
      userIdHeader: header,
      userIdPrefix: prefix,
      gatewayPrincipals: [igw, kfpUi],
      ingressNamespaces,
      networkPolicy: props.tenantNetworkPolicy ?? true,
    };

    this.addNamespace();
    const [profile] = CRDS.map((d) => this.addCrd(d));
    this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the profile controller and kfam give owners and contributors access through Istio AuthorizationPolicies' });

    new k8s.KubeConfigMap(this, 'NamespaceLabels', {
      metadata: { name: 'profiles-namespace-labels-data', namespace: ns, labels: SELECTOR },
      data: { 'namespace-labels.yaml': stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)))) },
    });

    const kfam = props.accessManagement ?? true;
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gateway)) {
      throw new Error(`${this.node.path}: istioGateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    }
    this.accessManagement = kfam;
    const managerFlags = [
      '-userid-header', header,
      '-userid-prefix', prefix,
      '-workload-identity', props.workloadIdentity ?? '',
      '-namespace-labels-path', `${LABELS_DIR}/namespace-labels.yaml`,
    ];
    this.declareParityDeviations(profileControllerParityDeviations({ managerFlags, accessManagement: kfam }));
    this.controller = new Controller(this, 'Controller', {
      name: 'profiles-deployment',
      serviceAccountName: 'profiles-controller-service-account',
      // As upstream: KFAM's AuthorizationPolicy needs the pod's sidecar, whatever the namespace injects.
      istioSidecar: true,
      image: this.image('controller'),
      command: ['/manager'],
      args: [
        ...managerFlags,
        '--leader-elect',
        // 8081 is kfam's port in the same pod.
        '--health-probe-bind-address=:9876',
        '--metrics-bind-address=0',
      ],
      env: [
        { name: 'ISTIO_INGRESS_GATEWAY_PRINCIPAL', value: igw },
        { name: 'NOTEBOOK_CONTROLLER_PRINCIPAL', value: props.notebookControllerPrincipal ?? 'cluster.local/ns/kubeflow/sa/notebook-controller-service-account' },
        { name: 'KFP_UI_PRINCIPAL', value: kfpUi },
      ],
      selectorLabels: SELECTOR,
      ports: { health: 9876 },
      replicas: props.replicas,
      leaderElectionId: 'kubeflow-profile-controller',
      owns: [profile.definition],
      rules: [
        Rbac.manage('', 'namespaces', 'serviceaccounts', 'resourcequotas'),
        Rbac.manage('rbac.authorization.k8s.io', 'rolebindings'),
        Rbac.manage('security.istio.io', 'authorizationpolicies'),
        // RoleBindings to the Kubeflow roles need `bind` on them (or every permission they hold).
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: [KubeflowRole.ADMIN, KubeflowRole.EDIT, KubeflowRole.VIEW], verbs: ['bind'] },
      ],
      // Its bindings to the Kubeflow roles (and kfam's): `bind` on the roles above lets it create them.
      grants: PROFILE_RUNTIME_BINDINGS,
      watches: [
        { group: '', resource: 'namespaces' },
        { group: '', resource: 'serviceaccounts' },
        { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
        { group: 'security.istio.io', resource: 'authorizationpolicies' },
      ],
      sidecars: kfam ? [{
        name: 'kfam',
        image: this.image('kfam'),
        imagePullPolicy: 'IfNotPresent',
        command: ['/access-management', '-cluster-admin', props.clusterAdmin ?? '', '-userid-header', header, '-userid-prefix', prefix],
        ports: [{ name: 'http-kfam', containerPort: KFAM_PORT, protocol: 'TCP' }],
        // Upstream's probes (v2.0.0): readiness too, so that the kfam Service waits for it.
        livenessProbe: { httpGet: { path: '/metrics', port: KFAM_PORT }, initialDelaySeconds: 15, periodSeconds: 30 },
        readinessProbe: { httpGet: { path: '/metrics', port: KFAM_PORT }, initialDelaySeconds: 15, periodSeconds: 30 },
        resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        securityContext: restrictedContainerSecurityContext(),
      }] : undefined,
    });
    this.controller.mountConfigMap('namespace-labels', 'profiles-namespace-labels-data', LABELS_DIR);
    if (kfam) {
      new k8s.KubeService(this, 'KfamService', {
        metadata: { name: 'profiles-kfam', namespace: ns, labels: SELECTOR },
        spec: { selector: SELECTOR, ports: [{ name: 'http-kfam', port: KFAM_PORT, targetPort: k8s.IntOrString.fromString('http-kfam'), protocol: 'TCP' }] },
      });
      // As upstream's Istio variant: /kfam/ routed on the gateway, the dashboard admitted by
      // the mesh, and only the gateway and the platform namespace reach kfam's port.
      this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the access management service is routed at /kfam/ through the Istio gateway' });
      new ApiObject(this, 'KfamVirtualService', {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'profiles-kfam', namespace: ns, labels: SELECTOR },
        spec: {
          gateways: [gateway],
          hosts: ['*'],
          http: [{ match: [{ uri: { prefix: '/kfam/' } }], rewrite: { uri: '/kfam/' }, route: [{ destination: { host: `profiles-kfam.${ns}.svc.cluster.local`, port: { number: KFAM_PORT } } }] }],
        },
      });
      new ApiObject(this, 'KfamAuthorizationPolicy', {
        apiVersion: 'security.istio.io/v1beta1',
        kind: 'AuthorizationPolicy',
        metadata: { name: 'profiles-kfam', namespace: ns, labels: SELECTOR },
        spec: {
          action: 'ALLOW',
          selector: { matchLabels: SELECTOR },
          rules: [{ from: [{ source: { principals: [props.dashboardPrincipal ?? 'cluster.local/ns/kubeflow/sa/dashboard'] } }] }],
        },
      });
      new k8s.KubeNetworkPolicy(this, 'KfamNetworkPolicy', {
        metadata: { name: 'profiles-kfam', namespace: ns, labels: SELECTOR },
        spec: {
          // All of the pods' selector labels, as upstream's render: component=controller-manager alone is on other operators' pods too.
          podSelector: { matchLabels: SELECTOR },
          policyTypes: ['Ingress'],
          ingress: [{
            ports: [{ protocol: 'TCP', port: k8s.IntOrString.fromString('http-kfam') }],
            from: ['istio-system', ns].map((n) => ({ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [n] }] } })),
          }],
        },
      });
    }
    this.roles = new KubeflowRoles(this, 'KubeflowRoles');

    this.node.addValidation({ validate: () => this.validateTenantNamespaces() });
  }

  /**
   * Declares a tenant: its Profile, namespace, contributors' access and network isolation
   * (see Tenant). Constant work per tenant: platforms with thousands of tenants are normal.
   */
  public addTenant(props: TenantProps): Tenant {
    const existing = this.tenants.get(props.name);
    if (existing) {
      throw new Error(`${this.node.path}: tenant '${props.name}' is declared twice (first at ${existing.node.path}); tenant names are namespace names and must be unique`);
    }
    if (RESERVED_NAMESPACES.has(props.name) || props.name.startsWith('kube-')) {
      throw new Error(`${this.node.path}: tenant '${props.name}' would take over a Kubernetes system namespace; choose another name`);
    }
    if (this.settings.ingressNamespaces.includes(props.name)) {
      throw new Error(`${this.node.path}: tenant '${props.name}' is named like a namespace every tenant admits traffic from (tenantIngressNamespaces); its pods could reach all tenants: choose another name`);
    }
    const tenant = new Tenant(this, `Tenant-${props.name}`, props, this.settings);
    this.tenants.set(props.name, tenant);
    return tenant;
  }

  /** The tenants declared so far. */
  public get tenantNames(): string[] {
    return [...this.tenants.keys()];
  }

  /**
   * Checked once, at synth: a tenant may not share its namespace with a component, and
   * every tenant namespace carries the labels the platform's components need in tenant
   * namespaces (e.g. Katib's metrics-collector injection label).
   */
  private validateTenantNamespaces(): string[] {
    const out: string[] = [];
    for (const c of this.platform.components) {
      const t = this.tenants.get(c.namespaceName);
      if (t) out.push(`${t.node.path}: tenant '${t.name}' uses namespace ${c.namespaceName} of component '${c.componentName}'; the profile controller would refuse it (its owner annotation differs); choose another name`);
      for (const l of c.tenantNamespaceLabels) {
        const label = `${l.key}=${l.value}`;
        if (this.namespaceLabels[l.key] !== l.value) {
          out.push(`${this.node.path}: namespaceLabels: profile namespaces would not carry ${label}, which component '${c.componentName}' needs (${l.reason}); remove the override of ${l.key}`);
          continue;
        }
        for (const tenant of this.tenants.values()) {
          // Most tenants share the controller's labels (checked above): only overrides need a look.
          if (tenant.labels !== this.namespaceLabels && tenant.labels[l.key] !== l.value) {
            out.push(`${tenant.node.path}: labels: ${l.key}=${tenant.labels[l.key]} replaces ${label}, which component '${c.componentName}' needs (${l.reason}); remove it from the tenant's labels`);
          }
        }
      }
    }
    return out;
  }
}
