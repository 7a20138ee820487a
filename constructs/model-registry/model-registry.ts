import { ApiObject } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { ModelRegistryMySql } from './database';
import { embedmdDatastore } from './embedmd';
import { modelRegistryParityDeviations } from './parity';
import { KUBEFLOW_MODEL_REGISTRY_IMAGES, MODEL_REGISTRY_VERSION } from './versions';
import { Component, ComponentProps } from '../../lib/component';
import { defaultPort, ExternalDatabase, externalDatabaseProblems, referenceExternalDatabaseSecrets, referenceIncludedDatabaseSecret, SecretKeyRef, secretKeyRefProblems } from '../../lib/database';
import { ImageSpec } from '../../lib/images';
import { ISTIO_INJECTION_ENABLED } from '../../lib/istio';
import { INGRESS_GATEWAY_NAMESPACE, NetworkPeer, NetworkPolicy, serviceAccountPrincipal } from '../../lib/network-policy';
import { DeviationCategory } from '../../lib/parity';
import { isolationPolicyDeviations, networkPolicyDeviation } from '../../lib/parity-items';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { Workload } from '../../lib/workload';
import { PROFILE_NAMESPACE_LABEL } from '../profile-controller/namespace-labels';

/** The MySQL server the registry includes by default. */
export interface KubeflowModelRegistryMySqlOptions {
  /**
   * The Secret key holding MySQL's root password, in the registry's namespace. `mlplatform
   * apply` generates it when the Secret is missing (one that exists is kept): no password is ever emitted.
   * @default { name: 'model-registry-db-secrets', key: 'MYSQL_ROOT_PASSWORD' } (upstream's Secret and key)
   */
  readonly rootPasswordSecret?: SecretKeyRef;
  /** Size of the data volume. @default 20Gi (UNCONFIRMED: upstream's claim size) */
  readonly storage?: string;
  /** @default - the cluster's default StorageClass */
  readonly storageClassName?: string;
}

export interface KubeflowModelRegistryProps extends ComponentProps {
  /** The included MySQL's settings. Not allowed with externalDatabase. @default the included MySQL with its defaults */
  readonly mysql?: KubeflowModelRegistryMySqlOptions;
  /** An external MySQL or PostgreSQL server instead of the included MySQL. @default - the included MySQL */
  readonly externalDatabase?: ExternalDatabase;
  /** Replicas of the registry server (stateless: its state is in the database). @default 1 */
  readonly replicas?: number;
  /** The web UI (model-registry-ui, Kubeflow deployment mode) and its dashboard link. @default true */
  readonly ui?: boolean;
  /**
   * The Istio Gateway (`<namespace>/<name>`) through which the registry is reached, as
   * upstream's options/istio and ui/overlays/istio: VirtualServices routing /api/model_registry/
   * to the server and /model-registry/ to the UI, and upstream's AuthorizationPolicy admitting
   * requests to the server. `false`: none of them.
   * @default 'kubeflow/kubeflow-gateway'
   */
  readonly istioGateway?: string | false;
}

export const MODEL_REGISTRY_SERVER_PORT = 8080;
const UI_PORT = 8080;
const QUANTITY = /^[0-9]+(\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;

/**
 * The Kubeflow model registry (kubeflow/model-registry, embedmd datastore): the REST server
 * (model-registry-deployment, ServiceAccount model-registry-server, Service
 * model-registry-service on 8080 `http-api`) over the included MySQL or an external
 * MySQL/PostgreSQL, and the UI in Kubeflow mode with its route and dashboard link. No CRDs
 * and no webhooks: the registry ships none. Distinct from the Open Data Hub operator variant
 * (ModelRegistryOperator), whose operator deploys registries from ModelRegistry resources.
 */
export class KubeflowModelRegistry extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return MODEL_REGISTRY_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>> = KUBEFLOW_MODEL_REGISTRY_IMAGES;
  public readonly server: Workload;
  public readonly mysql?: ModelRegistryMySql;
  public readonly ui?: Workload;

  constructor(scope: Platform, id: string, props: KubeflowModelRegistryProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    this.validate(props);
    const ui = props.ui ?? true;
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    if (ui) {
      // Upstream's Kubeflow dashboard configuration lists the registry under a Models section.
      this.addDashboardLinks({
        menu: [{ text: 'Models', icon: 'assignment', items: [{ text: 'Model Registry', link: '/model-registry/' }] }],
        documentation: [{ desc: 'Documentation for the Kubeflow model registry', link: 'https://www.kubeflow.org/docs/components/model-registry/', text: 'Model Registry Documentation' }],
      });
    }
    // Behind Istio the UI's AuthorizationPolicy needs its sidecar, which upstream's UI pod
    // gets from the namespace (kubeflow/manifests labels the kubeflow namespace so).
    this.addNamespace(ui && gateway !== false ? { ...ISTIO_INJECTION_ENABLED } : {});

    let database: ExternalDatabase;
    if (props.externalDatabase) {
      database = props.externalDatabase;
      referenceExternalDatabaseSecrets(this, database, 'the model registry\'s database');
    } else {
      const rootPassword = props.mysql?.rootPasswordSecret ?? { name: 'model-registry-db-secrets', key: 'MYSQL_ROOT_PASSWORD' };
      referenceIncludedDatabaseSecret(this, rootPassword, 'the model registry\'s MySQL');
      this.mysql = new ModelRegistryMySql(this, 'Mysql', {
        image: this.image('mysql'),
        rootPassword,
        storage: props.mysql?.storage ?? '20Gi',
        storageClassName: props.mysql?.storageClassName,
      });
      database = this.mysql.connection;
    }
    const datastore = embedmdDatastore(database);

    const serverSelector = { component: 'model-registry-server' };
    this.server = new Workload(this, 'Server', {
      name: 'model-registry-deployment',
      serviceAccountName: 'model-registry-server',
      containerName: 'rest-container',
      image: this.image('server'),
      selectorLabels: serverSelector,
      replicas: props.replicas,
      command: ['/model-registry', 'proxy'],
      args: ['--hostname=0.0.0.0', `--port=${MODEL_REGISTRY_SERVER_PORT}`, ...datastore.args],
      env: datastore.env,
      ports: [{ name: 'http-api', containerPort: MODEL_REGISTRY_SERVER_PORT }],
      // The Service carries upstream's labels and annotations (the UI finds registries by them), so it is emitted below.
      service: false,
      // The embedmd server's health endpoints: /readyz/isDirty fails while the schema
      // migration is dirty (liveness), /readyz/health also until the API is served (readiness).
      // Upstream's probes at v0.3.7: liveness counts only once the startup probe has passed
      // (up to 40 s after start).
      startupProbe: { httpGet: { path: '/readyz/isDirty', port: 'http-api' }, initialDelaySeconds: 10, periodSeconds: 5, timeoutSeconds: 5, failureThreshold: 6 },
      livenessProbe: { httpGet: { path: '/readyz/isDirty', port: 'http-api' }, initialDelaySeconds: 30, periodSeconds: 10, timeoutSeconds: 5 },
      readinessProbe: { httpGet: { path: '/readyz/health', port: 'http-api' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 5 },
      resources: { requests: { cpu: '100m', memory: '256Mi' } },
      // The database is outside the mesh (upstream's overlays/db excludes its port from the sidecar).
      podAnnotations: { 'traffic.sidecar.istio.io/excludeOutboundPorts': String(database.port ?? defaultPort(database.engine)) },
      // As upstream: the sidecar enforces the server's AuthorizationPolicy, whatever the namespace injects.
      istioSidecar: true,
    });
    new k8s.KubeService(this, 'ServerService', {
      metadata: {
        name: 'model-registry-service',
        namespace: this.namespaceName,
        labels: {
          'app': 'model-registry-service',
          'app.kubernetes.io/component': 'model-registry',
          'app.kubernetes.io/instance': 'model-registry-service',
          'app.kubernetes.io/name': 'model-registry-service',
          'app.kubernetes.io/part-of': 'model-registry',
          'component': 'model-registry',
        },
        annotations: { displayName: 'Kubeflow Model Registry', description: 'The Kubeflow model registry' },
      },
      spec: {
        type: 'ClusterIP',
        selector: serverSelector,
        ports: [{ name: 'http-api', port: MODEL_REGISTRY_SERVER_PORT, targetPort: k8s.IntOrString.fromString('http-api'), protocol: 'TCP', appProtocol: 'http' }],
      },
    });

    if (ui) {
      this.ui = new Workload(this, 'Ui', {
        name: 'model-registry-ui',
        image: this.image('ui'),
        selectorLabels: { app: 'model-registry-ui' },
        args: ['--deployment-mode=kubeflow', `--port=${UI_PORT}`],
        ports: [{ name: 'http', containerPort: UI_PORT }],
        service: { name: 'model-registry-ui-service', ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
        livenessProbe: { httpGet: { path: '/healthcheck', port: 'http' }, initialDelaySeconds: 30, periodSeconds: 30, timeoutSeconds: 15 },
        readinessProbe: { httpGet: { path: '/healthcheck', port: 'http' }, initialDelaySeconds: 15, periodSeconds: 30, timeoutSeconds: 15 },
        resources: { requests: { cpu: '500m', memory: '2Gi' }, limits: { cpu: '1000m', memory: '2Gi' } },
        // Upstream's three ClusterRoles of the UI: it finds registries by their Services, reads
        // who may use them from ClusterRoleBindings, and checks users with SubjectAccessReviews.
        rules: [
          Rbac.read('', 'services'),
          Rbac.read('rbac.authorization.k8s.io', 'clusterrolebindings'),
          Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
        ],
      });
    }
    if (gateway !== false) this.addIstio(gateway, serverSelector, ui);
    // Where the platform isolates the namespace (kubeflow/manifests' model-registry and
    // model-registry-ui policies): tenant namespaces and the gateway's reach the REST API,
    // the gateway's namespace and the namespace's own pods the UI.
    const gatewayNs = NetworkPeer.namespace(INGRESS_GATEWAY_NAMESPACE);
    new NetworkPolicy(this, 'ServerIsolationPolicy', {
      name: 'model-registry',
      targets: [this.server],
      namespaceIsolation: true,
      ingress: [{ from: [NetworkPeer.namespacesLabelled(PROFILE_NAMESPACE_LABEL), gatewayNs], ports: ['http-api'] }],
    });
    this.declareParityDeviations([
      ...isolationPolicyDeviations(['model-registry', ...(this.ui ? ['model-registry-ui'] : [])]),
      networkPolicyDeviation('model-catalog', 'missing', DeviationCategory.NOT_INSTALLED,
        'kubeflow/manifests\' policy for the model catalog server (component=model-catalog-server), which the construct does not install.'),
    ]);
    if (this.ui) {
      new NetworkPolicy(this, 'UiIsolationPolicy', { name: 'model-registry-ui', targets: [this.ui], namespaceIsolation: true, ingress: [{ from: [gatewayNs, NetworkPeer.podsInOwnNamespace()] }] });
    }
    this.declareParityDeviations(modelRegistryParityDeviations({
      serverArgs: [`--port=${MODEL_REGISTRY_SERVER_PORT}`, ...datastore.args],
      includedMySql: !!this.mysql,
    }));
  }

  private addIstio(gateway: string, serverSelector: Record<string, string>, ui: boolean): void {
    const ns = this.namespaceName;
    this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the model registry is routed through the Istio gateway (istioGateway: false turns this off)' });
    this.require({ group: 'security.istio.io', kind: 'AuthorizationPolicy', reason: 'the model registry server admits requests through an Istio AuthorizationPolicy (istioGateway: false turns this off)' });
    new ApiObject(this, 'ServerVirtualService', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'model-registry', namespace: ns, labels: serverSelector },
      spec: {
        gateways: [gateway],
        hosts: ['*'],
        http: [{
          match: [{ uri: { prefix: '/api/model_registry/' } }],
          route: [{ destination: { host: `model-registry-service.${ns}.svc.cluster.local`, port: { number: MODEL_REGISTRY_SERVER_PORT } } }],
        }],
      },
    });
    // Upstream's policy: every request may reach the server (the registry has no
    // authorization of its own; Kubeflow's namespaces deny by default otherwise).
    new ApiObject(this, 'ServerAuthorizationPolicy', {
      apiVersion: 'security.istio.io/v1beta1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'model-registry-service', namespace: ns, labels: serverSelector },
      spec: { action: 'ALLOW', selector: { matchLabels: serverSelector }, rules: [{}] },
    });
    if (!ui) return;
    new ApiObject(this, 'UiVirtualService', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'model-registry-ui', namespace: ns, labels: { app: 'model-registry-ui' } },
      spec: {
        gateways: [gateway],
        hosts: ['*'],
        http: [{
          headers: { request: { add: { 'x-forwarded-prefix': '/model-registry' } } },
          match: [{ uri: { prefix: '/model-registry/' } }],
          rewrite: { uri: '/' },
          route: [{ destination: { host: `model-registry-ui-service.${ns}.svc.cluster.local`, port: { number: 80 } } }],
        }],
      },
    });
    // Upstream's options/ui/overlays/istio: only the ingress gateway may call the UI (which
    // takes the user from the gateway's header), enforced by the UI pod's sidecar.
    new ApiObject(this, 'UiAuthorizationPolicy', {
      apiVersion: 'security.istio.io/v1beta1',
      kind: 'AuthorizationPolicy',
      metadata: { name: 'model-registry-ui', namespace: ns, labels: { app: 'model-registry-ui' } },
      spec: {
        action: 'ALLOW',
        selector: { matchLabels: { app: 'model-registry-ui' } },
        rules: [{ from: [{ source: { principals: [serviceAccountPrincipal('istio-system', 'istio-ingressgateway-service-account')] } }] }],
      },
    });
  }

  private validate(props: KubeflowModelRegistryProps): void {
    const where = this.node.path;
    if (props.externalDatabase && props.mysql) {
      throw new Error(`${where}: both mysql and externalDatabase are set; set mysql to configure the included MySQL, or externalDatabase to use your own server, not both`);
    }
    const problems = props.externalDatabase
      ? externalDatabaseProblems('externalDatabase', props.externalDatabase)
      : props.mysql?.rootPasswordSecret ? secretKeyRefProblems('mysql.rootPasswordSecret', props.mysql.rootPasswordSecret) : [];
    if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
    if (props.mysql?.storage !== undefined && !QUANTITY.test(props.mysql.storage)) {
      throw new Error(`${where}: mysql.storage '${props.mysql.storage}' is not a quantity; give a size such as 20Gi`);
    }
    if (props.replicas !== undefined && (!Number.isInteger(props.replicas) || props.replicas < 1)) {
      throw new Error(`${where}: replicas ${props.replicas} is not allowed; set a whole number >= 1`);
    }
    const gw = props.istioGateway;
    if (gw !== undefined && gw !== false && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gw)) {
      throw new Error(`${where}: istioGateway '${gw}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway), or false for no route`);
    }
  }
}
