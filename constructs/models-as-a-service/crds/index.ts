import { aiTenantCrdDefinition } from './ai-tenant';
import { configCrd } from './config';
import { legacyExternalModelCrd } from './external-model';
import { maasAuthPolicyCrd } from './maas-auth-policy';
import { maasModelRefCrd } from './maas-model-ref';
import { maasSubscriptionCrd } from './maas-subscription';
import { maasTenantConfigCrd } from './maas-tenant-config';
import { tenantCrd } from './tenant';
import { CrdDefinition } from '../../../lib/crd';

export * from './common';
export * from './ai-tenant';
export * from './config';
export * from './external-model';
export * from './maas-auth-policy';
export * from './maas-model-ref';
export * from './maas-subscription';
export * from './maas-tenant-config';
export * from './tenant';

/**
 * The eight maas.opendatahub.io CRDs (AITenant with its default namespace). The two
 * inference.opendatahub.io CRDs MaaS also ships are owned by the payload processor.
 */
export const CRDS: CrdDefinition[] = [
  aiTenantCrdDefinition,
  configCrd,
  legacyExternalModelCrd,
  maasAuthPolicyCrd,
  maasModelRefCrd,
  maasSubscriptionCrd,
  maasTenantConfigCrd,
  tenantCrd,
];
