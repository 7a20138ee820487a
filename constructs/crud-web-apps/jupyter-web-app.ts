import { Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import * as YAML from 'yaml';
import { CrudWebApp, CrudWebAppIsolation, CrudWebAppProps } from './crud-web-app';
import { jupyterWebAppParityDeviations } from './parity';
import { JUPYTER_WEB_APP_IMAGES } from './versions';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { PodDefaultsWebhook } from '../admission-webhook/pod-defaults-webhook';
import { NotebookController } from '../notebook-controller/notebook-controller';

/** The spawner form's defaults (what a new notebook gets unless the user changes it). */
export interface JupyterSpawnerProps {
  /** CPU request of a new notebook (the limit is 1.2 times it). @default '0.5' */
  readonly cpu?: string;
  /** Memory request of a new notebook (the limit is 1.2 times it). @default '1.0Gi' */
  readonly memory?: string;
  /** Size of a new notebook's workspace volume. @default 5Gi */
  readonly workspaceSize?: string;
  /** Let users type an image that is not offered. @default true */
  readonly allowCustomImage?: boolean;
}

export interface JupyterWebAppProps extends CrudWebAppProps {
  /** The spawner form's defaults; its images are the notebook controller's workbench images. @default upstream's defaults */
  readonly spawner?: JupyterSpawnerProps;
}

const QUANTITY = /^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/;
const CONFIG = 'jupyter-web-app-config';
const CONFIG_KEY = 'spawner_ui_config.yaml';
/** The accelerators the spawner offers, by the resource name their device plugin registers. */
const GPU_VENDORS = [
  { limitsKey: 'nvidia.com/gpu', uiName: 'NVIDIA' },
  { limitsKey: 'amd.com/gpu', uiName: 'AMD' },
  { limitsKey: 'habana.ai/gaudi', uiName: 'Intel Gaudi' },
];

/**
 * The Jupyter web app (kubeflow/notebooks v1.11.0, components/crud-web-apps/jupyter): the
 * dashboard's Notebooks tab, where users create, start, stop and delete Notebooks in their
 * namespaces. Its spawner form offers the notebook controller's workbench images.
 */
export class JupyterWebApp extends CrudWebApp {
  public readonly images: Readonly<Record<string, ImageSpec>> = JUPYTER_WEB_APP_IMAGES;
  public readonly spawnerConfig: k8s.KubeConfigMap;
  private readonly spawner: JupyterSpawnerProps;

  constructor(scope: Platform, id: string, props: JupyterWebAppProps = {}) {
    super(scope, id, props);
    const sp = this.spawner = props.spawner ?? {};
    for (const [field, value] of [['cpu', sp.cpu], ['memory', sp.memory], ['workspaceSize', sp.workspaceSize]] as const) {
      if (value !== undefined && !QUANTITY.test(value)) throw new Error(`${this.node.path}: spawner.${field} '${value}' is not a quantity; give e.g. ${field === 'cpu' ? '0.5' : '1Gi'}`);
    }
    this.require({ group: 'kubeflow.org', kind: 'Notebook', reason: 'the web app creates and manages users\' Notebooks', providedBy: NotebookController });
    this.require({ group: 'kubeflow.org', kind: 'PodDefault', reason: 'the spawner form lists the namespace\'s PodDefaults as configurations', providedBy: PodDefaultsWebhook });

    this.spawnerConfig = new k8s.KubeConfigMap(this, 'SpawnerConfig', {
      metadata: { name: CONFIG, namespace: this.namespaceName, labels: { 'app': 'jupyter-web-app', 'kustomize.component': 'jupyter-web-app' } },
      data: { [CONFIG_KEY]: Lazy.any({ produce: () => YAML.stringify(this.spawnerDocument()) }) as unknown as string },
    });
    this.buildWebApp({
      app: 'jupyter-web-app',
      isolation: CrudWebAppIsolation.GATEWAY_AND_NAMESPACE,
      prefix: '/jupyter',
      image: this.image('webApp'),
      env: [{ name: 'UI', value: 'default' }],
      // The app acts for users (after a SubjectAccessReview) in every namespace: the calls its
      // backend makes at v1.11.0 (jupyter/backend/apps and the common crud_backend), a subset of
      // upstream's ClusterRole (parity.ts lists the rest).
      rules: [
        Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
        Rbac.verbs('kubeflow.org', ['notebooks'], ['create', 'delete', 'get', 'list', 'patch']),
        Rbac.verbs('kubeflow.org', ['poddefaults'], ['list']),
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'list']),
        Rbac.verbs('', ['events', 'nodes', 'pods'], ['list']),
        Rbac.verbs('', ['pods/log'], ['get']),
        Rbac.verbs('storage.k8s.io', ['storageclasses'], ['list']),
      ],
      volumes: [{ name: 'config-volume', configMap: { name: CONFIG } }],
      volumeMounts: [{ name: 'config-volume', mountPath: '/etc/config' }],
    });

    // User roles, aggregated into the Kubeflow roles that profile namespaces bind (upstream's names).
    new AggregatedClusterRole(this, 'EditRole', {
      name: 'jupyter-web-app-kubeflow-notebook-ui-edit',
      aggregateTo: [KubeflowRole.EDIT],
      rules: [Rbac.verbs('kubeflow.org', ['notebooks', 'notebooks/finalizers', 'poddefaults'], ['create', 'delete', 'get', 'list'])],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'jupyter-web-app-kubeflow-notebook-ui-view',
      aggregateTo: [KubeflowRole.VIEW],
      rules: [Rbac.verbs('kubeflow.org', ['notebooks', 'notebooks/finalizers', 'poddefaults'], ['get', 'list']), Rbac.read('storage.k8s.io', 'storageclasses')],
    });

    this.addDashboardLinks({
      menu: [{ text: 'Notebooks', icon: 'book', link: this.linkPath }],
      quick: [{ desc: 'Kubeflow Notebooks', link: `${this.linkPath}new`, text: 'Create a new Notebook' }],
    });
    this.declareParityDeviations(jupyterWebAppParityDeviations());
  }

  /** The spawner configuration the app reads (spawnerFormDefaults), its images from the notebook controller. */
  public spawnerDocument(): Record<string, unknown> {
    const sp = this.spawner;
    const nc = this.platform.components.find((c): c is NotebookController => c instanceof NotebookController);
    const groups = nc ? nc.spawnerImages() : {};
    const group = (k: string) => groups[k] ?? { value: '', options: [] };
    const editable = <T>(value: T) => ({ readOnly: false, value });
    return {
      spawnerFormDefaults: {
        allowCustomImage: sp.allowCustomImage ?? true,
        hideRegistry: true,
        hideTag: false,
        imagePullPolicy: editable('IfNotPresent'),
        image: group('image'),
        imageGroupOne: group('imageGroupOne'),
        imageGroupTwo: group('imageGroupTwo'),
        cpu: { ...editable(sp.cpu ?? '0.5'), limitFactor: '1.2' },
        memory: { ...editable(sp.memory ?? '1.0Gi'), limitFactor: '1.2' },
        gpus: editable({ vendor: '', vendors: GPU_VENDORS, num: 'none' }),
        workspaceVolume: editable({
          mount: '/home/jovyan',
          newPvc: {
            metadata: { name: '{notebook-name}-workspace' },
            spec: { resources: { requests: { storage: sp.workspaceSize ?? '5Gi' } }, accessModes: ['ReadWriteOnce'] },
          },
        }),
        dataVolumes: editable([]),
        affinityConfig: { ...editable(''), options: [] },
        tolerationGroup: { ...editable(''), options: [] },
        shm: editable(true),
        configurations: editable([]),
        environment: editable({}),
      },
    };
  }
}
