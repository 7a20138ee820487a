import { certManagerCrd, CERT_MANAGER_GROUP, READY, READY_MESSAGE } from './common';
import { issuerSpec, issuerStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** cert-manager.io/v1 Issuer: a certificate authority (self-signed, CA, ACME, Vault...) for one namespace. */
export const issuerCrd = certManagerCrd({
  group: CERT_MANAGER_GROUP,
  kind: 'Issuer',
  plural: 'issuers',
  scope: CrdScope.NAMESPACED,
  shortNames: ['iss'],
  categories: ['cert-manager'],
  printerColumns: [READY, READY_MESSAGE],
  spec: issuerSpec,
  status: issuerStatus,
});
