import { certManagerCrd, CERT_MANAGER_GROUP, READY, READY_MESSAGE } from './common';
import { issuerSpec, issuerStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** cert-manager.io/v1 ClusterIssuer: an Issuer that Certificates of every namespace may use. */
export const clusterIssuerCrd = certManagerCrd({
  group: CERT_MANAGER_GROUP,
  kind: 'ClusterIssuer',
  plural: 'clusterissuers',
  scope: CrdScope.CLUSTER,
  shortNames: ['ciss'],
  categories: ['cert-manager'],
  printerColumns: [READY, READY_MESSAGE],
  spec: issuerSpec,
  status: issuerStatus,
});
