import { DeviationCategory, FactKind, ParityDeviation } from '../../lib/parity';
import { itemDeviations, rbacItems, valueDeviation } from '../../lib/parity-items';

const C = DeviationCategory;
const DEPLOYMENT = 'Deployment/pvcviewer-controller-manager';

/** The PVC viewer controller's differences from upstream's base at kubeflow/notebooks v1.11.0, and why. */
export function pvcViewerControllerParityDeviations(): ParityDeviation[] {
  return [
    {
      fact: { kind: FactKind.CONVERSION, object: 'pvcviewers.kubeflow.org', status: 'missing' },
      category: C.NOT_INSTALLED,
      reason: 'PVCViewer has one version, so the API server never converts; the manager (controller-runtime v0.17.3) registers /convert only for convertible types, so upstream\'s conversion stanza names a path nobody serves.',
    },
    {
      fact: { kind: FactKind.MOUNT, object: `${DEPLOYMENT} container manager`, item: '/tmp/k8s-webhook-server/serving-certs', status: 'differs', upstream: 'secret:webhook-server-cert' },
      category: C.PLATFORM_INTEGRATION,
      reason: 'the serving certificate\'s Secret is named after the component (pvcviewer-webhook-server-cert): upstream\'s generic webhook-server-cert in the kubeflow namespace, shared by many components, is one any other kubebuilder scaffold would also claim.',
    },
    valueDeviation({ kind: FactKind.NETWORK_POLICY, object: 'NetworkPolicy/pvcviewer-webhook' }, 'app=pvcviewer (Ingress)', C.HARDENING,
      'the policy selects the controller\'s pods by both of its selector labels: the viewer pods the controller makes at run time are not in the output, so a selector by app alone could not be checked to leave them out (MLP060).'),
    ...itemDeviations({ kind: FactKind.RBAC, object: DEPLOYMENT, status: 'missing' }, rbacItems('', ['configmaps'], ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']), C.SCOPED_RBAC,
      'leader election at controller-runtime v0.17.3 locks a Lease only; the manager reads no ConfigMap (upstream\'s leader-election Role still carries the ConfigMap rules of older scaffolds).'),
  ];
}
