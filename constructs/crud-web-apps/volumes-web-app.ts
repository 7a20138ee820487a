import { Lazy } from 'cdk8s';
import * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
import * as YAML from 'yaml';
import { CrudWebApp, CrudWebAppIsolation, CrudWebAppProps } from './crud-web-app';
import { volumesWebAppParityDeviations } from './parity';
import { VOLUMES_WEB_APP_IMAGES } from './versions';
import { AggregatedClusterRole, KubeflowRole } from '../../lib/aggregation';
import { ImageSpec } from '../../lib/images';
import type { Platform } from '../../lib/platform';
import { Rbac } from '../../lib/rbac';
import { PvcViewerController } from '../pvcviewer-controller/pvcviewer-controller';

export interface VolumesWebAppProps extends CrudWebAppProps {
  /**
   * The ServiceAccount the volume viewer (file browser) pods run as in users' namespaces.
   * @default default-editor (the account profile namespaces get)
   */
  readonly viewerServiceAccount?: string;
}

const VIEWER_SPEC = 'volumes-web-app-viewer-spec';
const VIEWER_KEY = 'viewer-spec.yaml';
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The Volumes web app (kubeflow/notebooks v1.11.0, components/crud-web-apps/volumes): the
 * dashboard's Volumes tab, where users create, browse and delete PersistentVolumeClaims
 * in their namespaces. Browsing starts a PVCViewer (a file browser on the claim), which the
 * PVC viewer controller runs.
 */
export class VolumesWebApp extends CrudWebApp {
  public readonly images: Readonly<Record<string, ImageSpec>> = VOLUMES_WEB_APP_IMAGES;
  public readonly viewerSpec: k8s.KubeConfigMap;

  constructor(scope: Platform, id: string, props: VolumesWebAppProps = {}) {
    super(scope, id, props);
    const viewerSa = props.viewerServiceAccount ?? 'default-editor';
    if (!DNS_LABEL.test(viewerSa)) throw new Error(`${this.node.path}: viewerServiceAccount '${viewerSa}' is not a ServiceAccount name; give a DNS label, e.g. default-editor`);
    this.require({ group: 'kubeflow.org', kind: 'PVCViewer', reason: 'the web app starts a PVCViewer to browse a volume', providedBy: PvcViewerController });

    this.viewerSpec = new k8s.KubeConfigMap(this, 'ViewerSpec', {
      metadata: { name: VIEWER_SPEC, namespace: this.namespaceName, labels: { 'app': 'volumes-web-app', 'kustomize.component': 'volumes-web-app' } },
      data: { [VIEWER_KEY]: Lazy.any({ produce: () => YAML.stringify(volumeViewerSpec(viewerSa)) }) as unknown as string },
    });
    this.buildWebApp({
      app: 'volumes-web-app',
      isolation: CrudWebAppIsolation.GATEWAY_AND_NAMESPACE,
      prefix: '/volumes',
      image: this.image('webApp'),
      // The viewer spec names the image as $VOLUME_VIEWER_IMAGE, which the app expands from its environment.
      env: [{ name: 'VOLUME_VIEWER_IMAGE', value: this.image('volumeViewer') }],
      rules: [
        Rbac.verbs('', ['namespaces', 'pods'], ['get', 'list']),
        Rbac.verbs('authorization.k8s.io', ['subjectaccessreviews'], ['create']),
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
        Rbac.read('storage.k8s.io', 'storageclasses'),
        Rbac.verbs('', ['events'], ['list']),
        Rbac.verbs('kubeflow.org', ['notebooks'], ['list']),
        Rbac.verbs('kubeflow.org', ['pvcviewers'], ['create', 'delete', 'get', 'list']),
      ],
      volumes: [{ name: 'viewer-spec', configMap: { name: VIEWER_SPEC } }],
      volumeMounts: [{ name: 'viewer-spec', mountPath: `/etc/config/${VIEWER_KEY}`, subPath: VIEWER_KEY }],
    });

    new AggregatedClusterRole(this, 'EditRole', {
      name: 'volumes-web-app-kubeflow-volume-ui-edit',
      aggregateTo: [KubeflowRole.EDIT],
      rules: [
        Rbac.verbs('', ['persistentvolumeclaims'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']),
        Rbac.verbs('kubeflow.org', ['pvcviewers'], ['create', 'delete', 'get', 'list']),
      ],
    });
    new AggregatedClusterRole(this, 'ViewRole', {
      name: 'volumes-web-app-kubeflow-volume-ui-view',
      aggregateTo: [KubeflowRole.VIEW],
      rules: [Rbac.read('', 'persistentvolumeclaims'), Rbac.read('storage.k8s.io', 'storageclasses'), Rbac.verbs('kubeflow.org', ['pvcviewers'], ['get', 'list'])],
    });

    this.addDashboardLinks({ menu: [{ text: 'Volumes', icon: 'device:storage', link: this.linkPath }] });
    this.declareParityDeviations(volumesWebAppParityDeviations());
  }
}

/**
 * The PVCViewer the app creates to browse a claim: a file browser on port 8080 with the
 * claim at /srv, routed at /pvcviewers/<namespace>/<name>/. The app expands $NAME,
 * $NAMESPACE and its environment's variables ($VOLUME_VIEWER_IMAGE) when it creates one.
 */
export function volumeViewerSpec(serviceAccountName: string): Record<string, unknown> {
  return {
    pvc: '$NAME',
    podSpec: {
      serviceAccountName,
      containers: [{
        name: 'main',
        image: '$VOLUME_VIEWER_IMAGE',
        env: [
          { name: 'FB_ADDRESS', value: '0.0.0.0' },
          { name: 'FB_PORT', value: '8080' },
          { name: 'FB_DATABASE', value: '/tmp/filebrowser.db' },
          { name: 'FB_NOAUTH', value: 'true' },
          { name: 'FB_BASEURL', value: '/pvcviewers/$NAMESPACE/$NAME/' },
        ],
        readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 2, periodSeconds: 10 },
        volumeMounts: [{ name: 'viewer-volume', mountPath: '/srv' }],
        workingDir: '/srv',
        securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      }],
      volumes: [{ name: 'viewer-volume', persistentVolumeClaim: { claimName: '$NAME' } }],
    },
    networking: { targetPort: 8080, basePrefix: '/pvcviewers', rewrite: '/', timeout: '30s' },
    rwoScheduling: true,
  };
}
