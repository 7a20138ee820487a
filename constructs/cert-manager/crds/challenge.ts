import { ACME_GROUP, certManagerCrd } from './common';
import { challengeSpec, challengeStatus } from './schemas';
import { CrdScope } from '../../../lib/crd';

/** acme.cert-manager.io/v1 Challenge: one ACME HTTP-01 or DNS-01 challenge of an Order. */
export const challengeCrd = certManagerCrd({
  group: ACME_GROUP,
  kind: 'Challenge',
  plural: 'challenges',
  scope: CrdScope.NAMESPACED,
  categories: ['cert-manager', 'cert-manager-acme'],
  printerColumns: [
    { name: 'State', type: 'string', jsonPath: '.status.state' },
    { name: 'Domain', type: 'string', jsonPath: '.spec.dnsName' },
    { name: 'Reason', type: 'string', jsonPath: '.status.reason', priority: 1 },
  ],
  spec: challengeSpec,
  status: challengeStatus,
});
