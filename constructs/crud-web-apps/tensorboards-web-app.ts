import { CrudWebApp, CrudWebAppIsolation, CrudWebAppProps } from './crud-web-app';
import { tensorboardsWebAppParityDeviations } from './parity';
import { TENSORBOARDS_WEB_APP_IMAGES } from './versions';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { PodDefaultsWebhook } from '../admission-webhook/pod-defaults-webhook';
import { TensorboardController } from '../tensorboard-controller/tensorboard-controller';

export type TensorboardsWebAppProps = CrudWebAppProps;

/**
 * The TensorBoards web app (kubeflow/notebooks v1.11.0, components/crud-web-apps/tensorboards):
 * the dashboard's TensorBoards tab, where users create and delete Tensorboards (run by the
 * TensorBoard controller) on logs in a volume or an object store.
 */
export class TensorboardsWebApp extends CrudWebApp {
  public readonly images: Readonly<Record<string, ImageSpec>> = TENSORBOARDS_WEB_APP_IMAGES;

  constructor(scope: Platform, id: string, props: TensorboardsWebAppProps = {}) {
    super(scope, id, props);
    this.require({ group: 'tensorboard.kubeflow.org', kind: 'Tensorboard', reason: 'the web app creates and deletes users\' Tensorboards', providedBy: TensorboardController });
    this.require({ group: 'kubeflow.org', kind: 'PodDefault', reason: 'the form lists the namespace\'s PodDefaults (e.g. object store credentials)', providedBy: PodDefaultsWebhook });
    const tb = ['tensorboards', 'tensorboards/finalizers'];
    this.buildWebApp({
      app: 'tensorboards-web-app',
      isolation: CrudWebAppIsolation.GATEWAY_ON_APP_PORT,
      prefix: '/tensorboards',
      image: this.image('webApp'),
      rules: [
        Rbac.verbs('', ['namespaces'], ['get', 'list']),
        Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
        Rbac.verbs('tensorboard.kubeflow.org', tb, ['create', 'delete', 'get', 'list']),
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'delete', 'get', 'list']),
        Rbac.read('storage.k8s.io', 'storageclasses'),
        Rbac.read('kubeflow.org', 'poddefaults'),
      ],
    });
    new AggregatedClusterRole(this, 'EditRole', {
      name: 'tensorboards-web-app-kubeflow-tensorboard-ui-edit',
      aggregateTo: [KubeflowRole.EDIT],
      rules: [Rbac.verbs('tensorboard.kubeflow.org', tb, ['create', 'delete', 'get', 'list']), Rbac.read('kubeflow.org', 'poddefaults')],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'tensorboards-web-app-kubeflow-tensorboard-ui-view',
      aggregateTo: [KubeflowRole.VIEW],
      rules: [Rbac.verbs('tensorboard.kubeflow.org', tb, ['get', 'list']), Rbac.read('storage.k8s.io', 'storageclasses'), Rbac.read('kubeflow.org', 'poddefaults')],
    });
    this.addDashboardLinks({ menu: [{ text: 'TensorBoards', icon: 'assessment', link: this.linkPath }] });
    this.declareParityDeviations(tensorboardsWebAppParityDeviations());
  }
}
