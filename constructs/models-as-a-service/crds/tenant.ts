import { apiKeys, conditions, gatewayRef, GROUP, oidc, payloadProcessing, READY_REASON, READY_STATUS, singleton, telemetry } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/**
 * maas.opendatahub.io/v1alpha1 Tenant: the legacy form of MaasTenantConfig, kept so that an
 * existing `default-tenant` can be migrated.
 */
export const tenantCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Tenant',
  plural: 'tenants',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: READY_STATUS },
      { name: 'Reason', type: 'string', jsonPath: READY_REASON },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        apiKeys,
        externalOIDC: oidc,
        gatewayRef,
        payloadProcessing,
        telemetry,
      }).named('TenantSpec'),
      status: s.object({
        phase: s.enum('Pending', 'Active', 'Degraded', 'Failed'),
        conditions: conditions(),
      }).named('TenantStatus'),
    })
      // Unconfirmed: the inventory records one root-level rule on Tenant without its text;
      // as its successor MaasTenantConfig, we take it to be the default-tenant singleton rule.
      .rule(...singleton('default-tenant')),
  }],
};
