import { certificateCrd } from './certificate';
import { certificateRequestCrd } from './certificate-request';
import { challengeCrd } from './challenge';
import { clusterIssuerCrd } from './cluster-issuer';
import { ACME_GROUP, CERT_MANAGER_GROUP } from './common';
import { issuerCrd } from './issuer';
import { orderCrd } from './order';
import { CrdDefinition } from '../../../lib/crd';

export { ACME_GROUP, CERT_MANAGER_GROUP, certificateCrd, certificateRequestCrd, challengeCrd, clusterIssuerCrd, issuerCrd, orderCrd };

/** cert-manager v1.19.2's six v1 CRDs. */
export const CRDS: CrdDefinition[] = [certificateRequestCrd, certificateCrd, challengeCrd, clusterIssuerCrd, issuerCrd, orderCrd];
