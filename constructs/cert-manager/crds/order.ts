import { ACME_GROUP, certManagerCrd } from './common';
import { orderSpec, orderStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** acme.cert-manager.io/v1 Order: an ACME order for one CertificateRequest. */
export const orderCrd = certManagerCrd({
  group: ACME_GROUP,
  kind: 'Order',
  plural: 'orders',
  scope: CrdScope.NAMESPACED,
  categories: ['cert-manager', 'cert-manager-acme'],
  printerColumns: [
    { name: 'State', type: 'string', jsonPath: '.status.state' },
    { name: 'Issuer', type: 'string', jsonPath: '.spec.issuerRef.name', priority: 1 },
    { name: 'Reason', type: 'string', jsonPath: '.status.reason', priority: 1 },
  ],
  spec: orderSpec,
  status: orderStatus,
});
