import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import { CRDS } from './crds';
import { OdhNotebookController } from './odh-notebook-controller';
import { NOTEBOOK_LEADER_ELECTION_CONFIGMAP_VERBS, notebookControllerParityDeviations } from './parity';
import { NOTEBOOK_CONTROLLER_IMAGES, NOTEBOOK_CONTROLLER_VERSION } from './versions';
import { DEFAULT_WORKBENCH_IMAGES, WorkbenchImage, WorkbenchKind } from './workbench-image';
import { Notebook } from '../../imports/notebooks.kubeflow.org';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { Component, ComponentProps } from '../../lib/component';
import { Controller, ControllerMetrics, ControllerResources } from '../../lib/controller';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';

export interface NotebookCullingProps {
  /** Stop notebooks whose kernels have been idle for idleTimeMinutes. @default false */
  readonly enabled?: boolean;
  /** @default 1440 (one day) */
  readonly idleTimeMinutes?: number;
  /** How often kernels are checked. @default 1 */
  readonly checkPeriodMinutes?: number;
}

export interface NotebookControllerProps extends ComponentProps {
  /**
   * Route notebooks through Istio (the controller creates a VirtualService per notebook on
   * istioGateway); needs Istio's VirtualService kind.
   * @default true
   */
  readonly istio?: boolean;
  /** The Istio Gateway notebooks are exposed on, as namespace/name. @default kubeflow/kubeflow-gateway */
  readonly istioGateway?: string;
  /** Host of the notebooks' VirtualServices. @default * */
  readonly istioHost?: string;
  /** @default cluster.local */
  readonly clusterDomain?: string;
  /** Idle notebook culling. @default disabled */
  readonly culling?: NotebookCullingProps;
  /**
   * The workbench images the platform offers, by kind; `addNotebook` accepts only these.
   * @default DEFAULT_WORKBENCH_IMAGES (Jupyter, VS Code and RStudio images of v1.11)
   */
  readonly workbenchImages?: readonly WorkbenchImage[];
  /** Images of the platform's own workbenches, by key (usable in workbenchImages). @default {} */
  readonly extraWorkbenchImages?: Record<string, ImageSpec>;
  /**
   * Open Data Hub's notebook controller next to Kubeflow's, with its mutating and
   * validating Notebook webhooks (OpenShift kinds: Route, ImageStream, ...).
   * @default false
   */
  readonly odhWebhooks?: boolean;
  /** More than 1 turns on leader election. @default 1 */
  readonly replicas?: number;
  /** @default requests 100m/200Mi, limits 500m/512Mi */
  readonly resources?: ControllerResources;
}

export interface AddNotebookProps {
  readonly namespace: string;
  readonly name: string;
  /** One of the platform's workbench images. */
  readonly image: WorkbenchImage;
  /** @default requests 500m CPU, 1Gi memory (the spawner's defaults) */
  readonly resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  /** A PersistentVolumeClaim mounted at /home/jovyan. @default - none */
  readonly workspaceClaim?: string;
  /** @default default-editor (the account profile namespaces get) */
  readonly serviceAccountName?: string;
}

const SELECTOR = { 'app': 'notebook-controller', 'kustomize.component': 'notebook-controller' };
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Kubeflow Notebooks' controller: the Notebook CRD and the controller that runs each
 * Notebook as a StatefulSet, Service and (with Istio) VirtualService; the workbench images
 * the platform offers; the kubeflow-notebooks-admin/edit/view roles; optionally Open Data
 * Hub's notebook webhooks.
 */
export class NotebookController extends Component {
  /** The upstream release this construct models. */
  public override get release(): string {
    return NOTEBOOK_CONTROLLER_VERSION;
  }

  public readonly images: Readonly<Record<string, ImageSpec>>;
  public readonly controller: Controller;
  public readonly workbenchImages: readonly WorkbenchImage[];
  public readonly odh?: OdhNotebookController;

  constructor(scope: Platform, id: string, props: NotebookControllerProps = {}) {
    super(scope, id, props.namespace ?? 'kubeflow', props);
    const fail = (msg: string): never => {
      throw new Error(`${this.node.path}: ${msg}`);
    };
    for (const key of Object.keys(props.extraWorkbenchImages ?? {})) {
      if (key in NOTEBOOK_CONTROLLER_IMAGES) fail(`extraWorkbenchImages: '${key}' is already an image of the component; override it through the platform's images.overrides['${id}/${key}'] instead`);
    }
    this.images = { ...NOTEBOOK_CONTROLLER_IMAGES, ...(props.extraWorkbenchImages ?? {}) };
    const offered = props.workbenchImages ?? DEFAULT_WORKBENCH_IMAGES;
    if (!offered.length) fail('workbenchImages is empty: offer at least one image, or leave it unset for the defaults');
    for (const w of offered) {
      if (!(w.key in this.images)) {
        fail(`workbenchImages: '${w.key}' (${w.displayName}) is not an image of the component; add it to extraWorkbenchImages or choose one of ${Object.keys(this.images).sort().join(', ')}`);
      }
    }
    this.workbenchImages = offered;
    const culling = props.culling ?? {};
    for (const [field, value] of [['idleTimeMinutes', culling.idleTimeMinutes], ['checkPeriodMinutes', culling.checkPeriodMinutes]] as const) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1)) fail(`culling.${field} ${value} must be a whole number of minutes >= 1`);
    }
    const istio = props.istio ?? true;
    const gateway = props.istioGateway ?? 'kubeflow/kubeflow-gateway';
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(gateway)) {
      fail(`istioGateway '${gateway}' must be <namespace>/<name> of an Istio Gateway (e.g. kubeflow/kubeflow-gateway)`);
    }
    const replicas = props.replicas ?? 1;
    const ns = this.namespaceName;

    this.addNamespace();
    const [notebook] = CRDS.map((d) => this.addCrd(d));
    if (istio) {
      this.require({ group: 'networking.istio.io', kind: 'VirtualService', reason: 'the notebook controller routes each notebook through an Istio VirtualService (istio: false turns this off)' });
    }

    const config: Record<string, string> = {
      USE_ISTIO: String(istio),
      ISTIO_GATEWAY: gateway,
      ISTIO_HOST: props.istioHost ?? '*',
      CLUSTER_DOMAIN: props.clusterDomain ?? 'cluster.local',
      ENABLE_CULLING: String(culling.enabled ?? false),
      CULL_IDLE_TIME: String(culling.idleTimeMinutes ?? 1440),
      IDLENESS_CHECK_PERIOD: String(culling.checkPeriodMinutes ?? 1),
    };
    new k8s.KubeConfigMap(this, 'Config', { metadata: { name: 'notebook-controller-config', namespace: ns, labels: SELECTOR }, data: config });

    this.controller = new Controller(this, 'Controller', {
      name: 'notebook-controller-deployment',
      serviceAccountName: 'notebook-controller-service-account',
      image: this.image('controller'),
      command: ['/manager'],
      args: ['--probe-addr=:8081', ...(replicas > 1 ? ['--enable-leader-election'] : [])],
      env: Object.keys(config).map((k) => ({ name: k, valueFrom: { configMapKeyRef: { name: 'notebook-controller-config', key: k } } })),
      selectorLabels: SELECTOR,
      ports: { health: 8081 },
      // The manager serves plain HTTP metrics; upstream's auth-proxy variant puts
      // kube-rbac-proxy in front of it, bound to localhost.
      metrics: ControllerMetrics.rbacProxy({ image: this.image('kubeRbacProxy'), port: 8443, upstreamPort: 8080, args: ['--metrics-addr=127.0.0.1:8080'] }),
      runAsUser: 1000,
      replicas,
      leaderElectionId: replicas > 1 ? 'kubeflow-notebook-controller' : undefined,
      // controller-runtime v0.11.0 (the manager's, at v1.11.0) elects its leader with the
      // configmapsleases lock: a ConfigMap next to the Lease.
      namespacedRules: replicas > 1 ? [Rbac.verbs('', ['configmaps'], NOTEBOOK_LEADER_ELECTION_CONFIGMAP_VERBS)] : undefined,
      resources: props.resources,
      owns: [notebook.definition],
      rules: [
        Rbac.verbs('', ['events'], ['create', 'get', 'list', 'patch', 'watch']),
        Rbac.read('', 'pods'),
        Rbac.manage('', 'services'),
        Rbac.manage('apps', 'statefulsets'),
        ...(istio ? [Rbac.manage('networking.istio.io', 'virtualservices')] : []),
      ],
      watches: [
        { group: 'apps', resource: 'statefulsets' },
        { group: '', resource: 'services' },
        { group: '', resource: 'pods' },
        { group: '', resource: 'events' },
        ...(istio ? [{ group: 'networking.istio.io', resource: 'virtualservices' }] : []),
      ],
    });

    this.declareParityDeviations(notebookControllerParityDeviations({ leaderElection: replicas > 1, istio }));

    // User roles, aggregated into the Kubeflow roles that profile namespaces bind.
    const resources = [notebook.definition.plural, `${notebook.definition.plural}/status`];
    new AggregatedClusterRole(this, 'AdminRole', { name: 'kubeflow-notebooks-admin', aggregating: true, aggregateTo: [KubeflowRole.ADMIN] });
    new AggregatedClusterRole(this, 'EditRole', {
      name: 'kubeflow-notebooks-edit',
      aggregateTo: [KubeflowRole.EDIT, 'kubeflow-notebooks-admin'],
      rules: [{ apiGroups: [notebook.definition.group], resources, verbs: ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'patch', 'update'] }],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'kubeflow-notebooks-view',
      aggregateTo: [KubeflowRole.VIEW],
      rules: [{ apiGroups: [notebook.definition.group], resources, verbs: ['get', 'list', 'watch'] }],
    });

    if (props.odhWebhooks) {
      this.require({ group: 'route.openshift.io', kind: 'Route', reason: 'the ODH notebook controller exposes notebooks through OpenShift Routes' });
      this.require({ group: 'image.openshift.io', kind: 'ImageStream', reason: 'the ODH notebook webhook resolves workbench images from ImageStreams' });
      this.require({ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', reason: 'the ODH notebook controller routes notebooks through the Gateway API' });
      this.odh = new OdhNotebookController(this, 'Odh', {
        image: this.image('odhNotebookController'),
        kubeRbacProxyImage: this.image('kubeRbacProxy'),
        notebook: notebook.definition,
      });
    }

    this.addDashboardLinks({
      documentation: [{ desc: 'Documentation for Kubeflow Notebooks', link: 'https://www.kubeflow.org/docs/components/notebooks/', text: 'Kubeflow Notebooks Documentation' }],
    });
  }

  /** The images of one kind the platform offers (the first is the spawner's default). */
  public imagesOfKind(kind: WorkbenchKind): WorkbenchImage[] {
    return this.workbenchImages.filter((w) => w.kind === kind);
  }

  /**
   * The spawner's image choices, as the Jupyter web app's configuration spells them:
   * `image` (Jupyter), `imageGroupOne` (VS Code), `imageGroupTwo` (RStudio), each with its
   * default `value` and its `options`, resolved through the platform's image settings.
   */
  public spawnerImages(): Record<string, { value: string; options: string[] } | undefined> {
    const group = (kind: WorkbenchKind) => {
      const refs = this.imagesOfKind(kind).map((w) => this.image(w.key));
      return refs.length ? { value: refs[0], options: refs } : undefined;
    };
    return { image: group(WorkbenchKind.JUPYTER), imageGroupOne: group(WorkbenchKind.VSCODE), imageGroupTwo: group(WorkbenchKind.RSTUDIO) };
  }

  /**
   * A Notebook (kubeflow.org/v1) running one of the offered workbench images, with the
   * annotations its kind needs, as the Jupyter web app would create it.
   */
  public addNotebook(id: string, props: AddNotebookProps): Notebook {
    const where = `${this.node.path}: addNotebook('${id}')`;
    if (!this.workbenchImages.includes(props.image)) {
      throw new Error(`${where}: image '${props.image.key}' (${props.image.displayName}) is not one of the platform's workbench images; offer it in workbenchImages`);
    }
    for (const [field, value] of [['namespace', props.namespace], ['name', props.name]]) {
      if (!DNS_LABEL.test(value) || value.length > 52) throw new Error(`${where}: ${field} '${value}' must be a DNS label of at most 52 characters (the StatefulSet's pods append a suffix)`);
    }
    return new Notebook(this, id, {
      metadata: { name: props.name, namespace: props.namespace, labels: { app: props.name }, annotations: props.image.annotations(props.namespace, props.name) },
      spec: {
        template: {
          spec: {
            serviceAccountName: props.serviceAccountName ?? 'default-editor',
            containers: [{
              name: props.name,
              image: this.image(props.image.key),
              imagePullPolicy: 'IfNotPresent',
              resources: props.resources ?? { requests: { cpu: '500m', memory: '1Gi' } },
              volumeMounts: props.workspaceClaim ? [{ name: 'workspace', mountPath: '/home/jovyan' }] : undefined,
            }],
            volumes: props.workspaceClaim ? [{ name: 'workspace', persistentVolumeClaim: { claimName: props.workspaceClaim } }] : undefined,
          },
        },
      },
    });
  }
}
