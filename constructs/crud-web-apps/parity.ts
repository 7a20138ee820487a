import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems } from '../../lib/parity-items';

const C = DeviationCategory;

/** Differences every CRUD web app has from its upstream istio overlay at kubeflow/notebooks v1.11.0. */
function common(app: string): ParityDeviation[] {
  return [{
    fact: { kind: FactKind.CONFIGMAP, object: `${app}-parameters`, status: 'missing' },
    category: C.NOT_INSTALLED,
    reason: 'upstream\'s parameters ConfigMap only feeds kustomize vars (the prefix, user header and cookie settings); the app reads none of it at run time, and the construct sets those values on the Deployment directly.',
  }];
}

/** The Jupyter web app's differences from upstream's istio overlay, and why. */
export function jupyterWebAppParityDeviations(): ParityDeviation[] {
  return [
    ...common('jupyter-web-app'),
    {
      fact: { kind: FactKind.CONFIGMAP, object: 'jupyter-web-app-logos', status: 'missing' },
      category: C.NOT_INSTALLED,
      reason: 'the image carries the same logos (the frontend\'s src/assets/logos, built into /src/apps/default/static/assets/logos); upstream\'s ConfigMap mounts copies of them over that folder.',
    },
    {
      fact: { kind: FactKind.MOUNT, object: 'Deployment/jupyter-web-app-deployment container jupyter-web-app', item: '/src/apps/default/static/assets/logos', status: 'missing' },
      category: C.NOT_INSTALLED,
      reason: 'the logos are served from the image (see the jupyter-web-app-logos ConfigMap).',
    },
    ...itemDeviations({ kind: FactKind.RBAC, object: 'Deployment/jupyter-web-app-deployment', status: 'missing' }, [
      ...rbacItems('kubeflow.org', ['notebooks'], ['update']),
      ...rbacItems('kubeflow.org', ['notebooks/finalizers'], ['create', 'delete', 'get', 'list', 'patch', 'update']),
      ...rbacItems('kubeflow.org', ['poddefaults'], ['create', 'delete', 'get', 'patch', 'update']),
      ...rbacItems('', ['persistentvolumeclaims'], ['delete', 'get']),
      ...rbacItems('', ['pods'], ['get']),
      ...rbacItems('', ['pods/log'], ['list']),
      ...rbacItems('storage.k8s.io', ['storageclasses'], ['get', 'watch']),
    ], C.SCOPED_RBAC, 'the backend at v1.11.0 creates, gets, lists, patches and deletes Notebooks, lists PodDefaults, creates and lists claims, lists events, nodes, pods and storage classes and reads pod logs, nothing more (jupyter/backend/apps and crud_backend/api); upstream\'s ClusterRole grants the rest, finalizers and PodDefault writes included, to a ServiceAccount that acts for every user.'),
  ];
}

/** The Volumes web app's differences from upstream's istio overlay, and why. */
export function volumesWebAppParityDeviations(): ParityDeviation[] {
  return [...common('volumes-web-app')];
}

/** The TensorBoards web app's differences from upstream's istio overlay, and why. */
export function tensorboardsWebAppParityDeviations(): ParityDeviation[] {
  return [...common('tensorboards-web-app')];
}
