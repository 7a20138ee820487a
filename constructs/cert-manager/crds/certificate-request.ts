import { certManagerCrd, CERT_MANAGER_GROUP, READY, READY_MESSAGE } from './common';
import { certificateRequestSpec, certificateRequestStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** cert-manager.io/v1 CertificateRequest: one signing request (a CSR) to an issuer. */
export const certificateRequestCrd = certManagerCrd({
  group: CERT_MANAGER_GROUP,
  kind: 'CertificateRequest',
  plural: 'certificaterequests',
  scope: CrdScope.NAMESPACED,
  shortNames: ['cr', 'crs'],
  categories: ['cert-manager'],
  printerColumns: [
    { name: 'Approved', type: 'string', jsonPath: '.status.conditions[?(@.type == "Approved")].status' },
    { name: 'Denied', type: 'string', jsonPath: '.status.conditions[?(@.type == "Denied")].status' },
    READY,
    { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name' },
    { name: 'Requester', type: 'string', jsonPath: '.spec.username' },
    READY_MESSAGE,
  ],
  spec: certificateRequestSpec,
  status: certificateRequestStatus,
});
