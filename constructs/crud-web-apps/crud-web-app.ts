import { CRUD_WEB_APPS_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { addGatewayRoute, GATEWAY_ROUTE_KINDS, gatewayRouteProblems } from '../../lib/gateway-route';
import { declareMeshAuthentication } from '../../lib/istio';
import { INGRESS_GATEWAY_NAMESPACE, NetworkPeer, NetworkPolicy, selectorOn } from '../../lib/network-policy';
import { isolationPolicyDeviations } from '../../lib/parity-items';
import type { Platform } from '../../lib/platform';
import { PolicyRule } from '../../lib/rbac';
import { Workload } from '../../lib/workload';

/** How a web app is reached through Istio. */
export interface CrudWebAppIstioProps {
  /** The Istio Gateway users reach the app through, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly gateway?: string;
  /** Principal of the ingress gateway, the only caller the app admits. @default cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account */
  readonly ingressGatewayPrincipal?: string;
}

/** Settings every Kubeflow CRUD web app (Jupyter, Volumes, TensorBoards) shares. */
export interface CrudWebAppProps extends ComponentProps {
  /**
   * Expose the app through Istio, as upstream's istio overlay: a VirtualService on the
   * gateway at the app's prefix, an AuthorizationPolicy admitting only the ingress gateway
   * (the app trusts the user header the gateway sets), a DestinationRule with mutual TLS.
   * `false` for none of them: the app is then reachable only inside the cluster, and it takes
   * the user header from whoever reaches it (put an authenticating proxy in front of it).
   * @default {} (Istio with the defaults)
   */
  readonly istio?: CrudWebAppIstioProps | false;
  /** Header carrying the authenticated user id. @default kubeflow-userid */
  readonly userIdHeader?: string;
  /** Prefix the gateway puts before the user id in that header. @default '' */
  readonly userIdPrefix?: string;
  /** Send the app's cookies with the Secure flag (off only for plain-HTTP test setups). @default true */
  readonly secureCookies?: boolean;
  /** The cluster's DNS domain, in the Istio route's destination host. @default cluster.local */
  readonly clusterDomain?: string;
  /** @default 1 */
  readonly replicas?: number;
  /** @default requests 10m CPU, 64Mi memory (upstream sets none) */
  readonly resources?: { readonly requests?: Record<string, string>; readonly limits?: Record<string, string> };
}

/** What each app brings to the shared shape. */
export interface CrudWebAppSpec {
  /** The app's name (upstream's `app` label and name prefix), e.g. jupyter-web-app. */
  readonly app: string;
  /** The path it is served under on the gateway, without trailing slash, e.g. /jupyter. */
  readonly prefix: string;
  /** The web app's image (resolved). */
  readonly image: string;
  /** Cluster-wide permissions of its ServiceAccount (it acts for users after a SubjectAccessReview). */
  readonly rules: PolicyRule[];
  /** Environment beyond the shared variables. */
  readonly env?: Array<Record<string, unknown>>;
  readonly volumes?: Array<Record<string, unknown>>;
  readonly volumeMounts?: Array<Record<string, unknown>>;
  /**
   * Who reaches the app where the platform isolates its namespace (upstream's policy for the
   * app in kubeflow/manifests' common/networkpolicies): the gateway's namespace, and the
   * namespace's own pods too (`GATEWAY_AND_NAMESPACE`, Jupyter and Volumes), or the gateway's
   * namespace alone on the app's port (`GATEWAY_ON_APP_PORT`, TensorBoards).
   */
  readonly isolation: CrudWebAppIsolation;
}

/** Who reaches a web app in an isolated namespace (CrudWebAppSpec.isolation). */
export enum CrudWebAppIsolation {
  GATEWAY_AND_NAMESPACE = 'gateway-and-namespace',
  GATEWAY_ON_APP_PORT = 'gateway-on-app-port',
}

const PORT = 5000;
const HEADER = /^[A-Za-z0-9-]+$/;

/**
 * The shape the Kubeflow CRUD web apps share (kubeflow/notebooks components/crud-web-apps):
 * one Flask backend serving an Angular frontend on port 5000, which takes the user from the
 * gateway's header, checks the user's permission with a SubjectAccessReview and then acts
 * with its own ServiceAccount; a Service on port 80; Istio exposure at its prefix.
 */
export abstract class CrudWebApp extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return CRUD_WEB_APPS_VERSION;
  }

  public workload!: Workload;
  /** The app's Service name. */
  public serviceName!: string;
  /** The path the app is served under (with trailing slash), e.g. /jupyter/. */
  public linkPath!: string;
  protected readonly webAppProps: CrudWebAppProps;

  constructor(scope: Platform, id: string, props: CrudWebAppProps) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    this.webAppProps = props;
    const problems: string[] = [];
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) problems.push(`replicas ${props.replicas} must be a whole number >= 1`);
    if (props.userIdHeader !== undefined && !HEADER.test(props.userIdHeader)) problems.push(`userIdHeader '${props.userIdHeader}' is not an HTTP header name; give e.g. kubeflow-userid`);
    if (props.istio !== false) problems.push(...gatewayRouteProblems('istio.gateway', props.istio?.gateway ?? 'kubeflow/kubeflow-gateway', props.clusterDomain));
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);
  }

  /** Builds the app: call once from the subclass's constructor, after its images are set. */
  protected buildWebApp(spec: CrudWebAppSpec): Workload {
    const props = this.webAppProps;
    this.addNamespace();
    const selector = { 'app': spec.app, 'kustomize.component': spec.app };
    this.serviceName = `${spec.app}-service`;
    this.linkPath = `${spec.prefix}/`;
    const istio = props.istio === false ? undefined : props.istio ?? {};
    this.workload = new Workload(this, 'WebApp', {
      name: `${spec.app}-deployment`,
      serviceAccountName: `${spec.app}-service-account`,
      containerName: spec.app,
      image: spec.image,
      selectorLabels: selector,
      replicas: props.replicas,
      env: [
        { name: 'APP_PREFIX', value: spec.prefix },
        ...(spec.env ?? []),
        { name: 'USERID_HEADER', value: props.userIdHeader ?? 'kubeflow-userid' },
        { name: 'USERID_PREFIX', value: props.userIdPrefix ?? '' },
        { name: 'APP_SECURE_COOKIES', value: String(props.secureCookies ?? true) },
        { name: 'METRICS', value: '1' },
      ],
      ports: [{ name: 'http', containerPort: PORT }],
      service: { name: this.serviceName, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      runAsUser: 1000,
      resources: props.resources,
      rules: spec.rules,
      volumes: spec.volumes,
      volumeMounts: spec.volumeMounts,
      // The sidecar enforces the app's AuthorizationPolicy, whatever the namespace injects.
      istioSidecar: istio ? true : undefined,
    });
    if (istio) {
      // The app acts for the user its header names: MLP062 holds it to a policy Istio enforces.
      declareMeshAuthentication(this, { target: this.workload, trusts: `the user named in the ${props.userIdHeader ?? 'kubeflow-userid'} header` });
      for (const k of GATEWAY_ROUTE_KINDS) {
        this.require({ ...k, reason: `${spec.app} is reached through the Istio gateway at ${this.linkPath}, which alone may call it (istio: false turns this off)` });
      }
      addGatewayRoute(this, 'Istio', {
        name: `${spec.app}-${spec.app}`,
        policyName: spec.app,
        labels: selector,
        selector: { app: spec.app },
        gateway: istio.gateway ?? 'kubeflow/kubeflow-gateway',
        ingressGatewayPrincipal: istio.ingressGatewayPrincipal,
        prefix: this.linkPath,
        serviceName: this.serviceName,
        servicePort: 80,
        clusterDomain: props.clusterDomain,
      });
    }
    const gateway = NetworkPeer.namespace(INGRESS_GATEWAY_NAMESPACE);
    new NetworkPolicy(this, 'IsolationPolicy', {
      name: spec.app,
      targets: [this.workload],
      // Upstream's selector: the app label alone (MLP060 holds it to this workload's pods).
      podSelector: selectorOn(this.workload, ['app']),
      namespaceIsolation: true,
      ingress: spec.isolation === CrudWebAppIsolation.GATEWAY_ON_APP_PORT
        ? [{ from: [gateway], ports: ['http'] }]
        : [{ from: [gateway, NetworkPeer.podsInOwnNamespace()] }],
    });
    this.declareParityDeviations(isolationPolicyDeviations([spec.app]));
    return this.workload;
  }
}
