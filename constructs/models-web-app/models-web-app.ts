import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { modelsWebAppParityDeviations } from './parity';
import { MODELS_WEB_APP_IMAGES, MODELS_WEB_APP_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { ImageSpec } from '../../lib/images';
import { istioSidecarLabel } from '../../lib/istio';
import { INGRESS_GATEWAY_NAMESPACE, NetworkPeer, NetworkPolicy, selectorOn } from '../../lib/network-policy';
import { isolationPolicyDeviations } from '../../lib/parity-items';
import type { Platform } from '../../lib/platform';
import { bindingObject, Rbac, roleObject } from '../../lib/rbac';
import { restrictedContainerSecurityContext } from '../../lib/security';
import { workloadObject } from '../../lib/workload';
import { KServe } from '../kserve/kserve';

export interface ModelsWebAppIstioProps {
  /** The Istio Gateway users reach the app through, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly gateway?: string;
  /** Principal of the ingress gateway, the only caller the app admits. @default cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account */
  readonly ingressGatewayPrincipal?: string;
}

export interface ModelsWebAppProps extends ComponentProps {
  /**
   * Serve the app under /kserve-endpoints/ through Istio, as kubeflow/manifests: a
   * VirtualService on the gateway and an AuthorizationPolicy admitting only the ingress
   * gateway (the app trusts the user id header). Without it the app has no route and
   * contributes no dashboard link.
   * @default {} (Istio with the defaults)
   */
  readonly istio?: ModelsWebAppIstioProps | false;
  /** Header carrying the authenticated user id. @default kubeflow-userid */
  readonly userIdHeader?: string;
  /** @default '' */
  readonly userIdPrefix?: string;
  /** Path of Grafana on the gateway, for the app's metrics graphs. @default /grafana */
  readonly grafanaPrefix?: string;
  /** The cluster's DNS domain, in the Istio route's destination host. @default cluster.local */
  readonly clusterDomain?: string;
  /** @default 1 */
  readonly replicas?: number;
}

/** Upstream's full selector (kserve/models-web-app v0.15.0 config), so a Deployment installed from it can be taken over (selectors are immutable). */
const SELECTOR = {
  'app': 'kserve',
  'app.kubernetes.io/component': 'kserve-models-web-app',
  'app.kubernetes.io/name': 'kserve',
  'kustomize.component': 'kserve-models-web-app',
};
const NAME = 'kserve-models-web-app';
const PORT = 5000;
/** Where the app is served on the gateway (its APP_PREFIX). */
export const MODELS_WEB_APP_PATH = '/kserve-endpoints/';

/**
 * KServe's models web app, the central dashboard's Endpoints page: it lists, creates and
 * deletes users' InferenceServices in their namespaces (checking each request with a
 * SubjectAccessReview as the user) and shows their logs, events and metrics.
 */
export class ModelsWebApp extends Component {
  public override get release(): string {
    return MODELS_WEB_APP_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = MODELS_WEB_APP_IMAGES;
  public readonly deployment: ApiObject;
  public readonly service: ApiObject;

  constructor(scope: Platform, id: string, props: ModelsWebAppProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const ns = this.namespaceName;
    const replicas = props.replicas ?? 1;
    const problems: string[] = [];
    if (!Number.isInteger(replicas) || replicas < 1) problems.push(`replicas ${props.replicas} must be a whole number >= 1`);
    const clusterDomain = props.clusterDomain ?? 'cluster.local';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(clusterDomain)) problems.push(`clusterDomain '${clusterDomain}' is not a DNS domain; give the cluster's domain, e.g. cluster.local`);
    const userIdHeader = props.userIdHeader ?? 'kubeflow-userid';
    if (!/^[A-Za-z0-9-]+$/.test(userIdHeader)) problems.push(`userIdHeader '${userIdHeader}' is not an HTTP header name`);
    const grafana = props.grafanaPrefix ?? '/grafana';
    if (!grafana.startsWith('/')) problems.push(`grafanaPrefix '${grafana}' must be a path starting with /`);
    const gateway = props.istio === false ? undefined : props.istio?.gateway ?? 'kubeflow/kubeflow-gateway';
    if (gateway !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gateway)) {
      problems.push(`istio.gateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    }
    if (problems.length) throw new Error(`${this.node.path}: ${problems.join('; ')}`);

    this.addNamespace();
    this.require({ group: 'serving.kserve.io', kind: 'InferenceService', reason: 'the app lists, creates and deletes users\' InferenceServices', providedBy: KServe, runtimeOnly: true });

    const meta = (name: string) => ({ name, namespace: ns, labels: SELECTOR });
    new k8s.KubeServiceAccount(this, 'ServiceAccount', { metadata: meta(NAME) });
    roleObject(this, 'ClusterRole', {
      name: `${NAME}-cluster-role`,
      labels: SELECTOR,
      rules: [
        // It checks each user's request with a SubjectAccessReview before acting for them.
        Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
        Rbac.verbs('', ['namespaces', 'pods', 'pods/log', 'events'], ['get', 'list']),
        Rbac.verbs('serving.kserve.io', ['inferenceservices', 'inferenceservices/status'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']),
        // Serverless InferenceServices run as Knative Services: their status pages read them.
        Rbac.verbs('serving.knative.dev', ['services', 'services/status', 'routes', 'routes/status', 'configurations', 'configurations/status', 'revisions', 'revisions/status'], ['get', 'list']),
      ],
    });
    bindingObject(this, 'ClusterRoleBinding', { name: `${NAME}-binding`, labels: SELECTOR, roleRef: { kind: 'ClusterRole', name: `${NAME}-cluster-role` }, serviceAccounts: [{ name: NAME, namespace: ns }] });

    new k8s.KubeConfigMap(this, 'Config', {
      metadata: meta(`${NAME}-config`),
      data: {
        APP_PREFIX: MODELS_WEB_APP_PATH.replace(/\/$/, ''),
        GRAFANA_CPU_MEMORY_DB: 'db/knative-serving-revision-cpu-and-memory-usage',
        GRAFANA_HTTP_REQUESTS_DB: 'db/knative-serving-revision-http-requests',
        GRAFANA_PREFIX: grafana,
        USERID_HEADER: userIdHeader,
        USERID_PREFIX: props.userIdPrefix ?? '',
      },
    });

    const probe = (path: string) => ({ httpGet: { path, port: 'http' }, initialDelaySeconds: 0, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
    this.deployment = workloadObject(this, 'Deployment', {
      metadata: meta(NAME),
      spec: {
        replicas,
        selector: { matchLabels: SELECTOR },
        template: {
          // As upstream: the sidecar enforces the app's AuthorizationPolicy, whatever the namespace injects.
          metadata: { labels: { ...SELECTOR, ...(gateway !== undefined ? istioSidecarLabel(true) : {}) } },
          spec: {
            serviceAccountName: NAME,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [{
              name: NAME,
              image: this.image('webApp'),
              imagePullPolicy: 'IfNotPresent',
              envFrom: [{ configMapRef: { name: `${NAME}-config` } }],
              ports: [{ name: 'http', containerPort: PORT }],
              livenessProbe: probe('/healthz/liveness'),
              readinessProbe: probe('/healthz/readiness'),
              // Upstream sets none; kubeflow/manifests' README measures about 6m CPU and 259Mi.
              resources: { requests: { cpu: '10m', memory: '256Mi' }, limits: { memory: '512Mi' } },
              securityContext: restrictedContainerSecurityContext({ runAsUser: 1000 }),
            }],
          },
        },
      },
    });
    this.service = new k8s.KubeService(this, 'Service', {
      metadata: meta(NAME),
      spec: { type: 'ClusterIP', selector: SELECTOR, ports: [{ name: 'http', port: 80, targetPort: k8s.IntOrString.fromNumber(PORT), protocol: 'TCP' }] },
    });

    if (gateway !== undefined) {
      const istio = props.istio || {};
      this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the app is routed through the Istio gateway (istio: false turns this off)' });
      this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the app admits only the Istio ingress gateway (istio: false turns this off)' });
      new ApiObject(this, 'VirtualService', {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: meta(NAME),
        spec: {
          gateways: [gateway],
          hosts: ['*'],
          http: [{ match: [{ uri: { prefix: MODELS_WEB_APP_PATH } }], rewrite: { uri: '/' }, route: [{ destination: { host: `${NAME}.${ns}.svc.${clusterDomain}`, port: { number: 80 } } }] }],
        },
      });
      new ApiObject(this, 'AuthorizationPolicy', {
        apiVersion: 'security.istio.io/v1',
        kind: 'AuthorizationPolicy',
        metadata: meta(NAME),
        spec: {
          action: 'ALLOW',
          rules: [{ from: [{ source: { principals: [istio.ingressGatewayPrincipal ?? 'cluster.local/ns/istio-system/sa/istio-ingressgateway-service-account'] } }] }],
          selector: { matchLabels: SELECTOR },
        },
      });
      this.expectOfPrerequisite('istio', `sidecar injection for the models web app's pods (they ask with ${Object.keys(istioSidecarLabel(true))[0]}: "true"): the sidecar enforces its AuthorizationPolicy`);
      // The dashboard's Endpoints page: only when the app is routed.
      this.addDashboardLinks({ menu: [{ text: 'KServe Endpoints', link: MODELS_WEB_APP_PATH, icon: 'kubeflow:models' }] });
    }
    // Where the platform isolates the namespace: the gateway's namespace reaches the app (kubeflow/manifests' policy, by its component label).
    const target = { name: NAME, selectorLabels: SELECTOR };
    new NetworkPolicy(this, 'IsolationPolicy', {
      name: NAME,
      targets: [target],
      podSelector: selectorOn(target, ['app.kubernetes.io/component']),
      namespaceIsolation: true,
      ingress: [{ from: [NetworkPeer.namespace(INGRESS_GATEWAY_NAMESPACE)] }],
    });
    this.declareParityDeviations([...modelsWebAppParityDeviations(), ...isolationPolicyDeviations([NAME])]);
  }
}
