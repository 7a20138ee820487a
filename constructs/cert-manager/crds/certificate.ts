import { certManagerCrd, CERT_MANAGER_GROUP, READY, READY_MESSAGE } from './common';
import { certificateSpec, certificateStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** cert-manager.io/v1 Certificate: a key pair and signed certificate kept up to date in a Secret. */
export const certificateCrd = certManagerCrd({
  group: CERT_MANAGER_GROUP,
  kind: 'Certificate',
  plural: 'certificates',
  scope: CrdScope.NAMESPACED,
  shortNames: ['cert', 'certs'],
  categories: ['cert-manager'],
  printerColumns: [
    READY,
    { name: 'Secret', type: 'string', jsonPath: '.spec.secretName' },
    { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
    READY_MESSAGE,
  ],
  spec: certificateSpec,
  status: certificateStatus,
});
