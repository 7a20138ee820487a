import { apiKeys, conditions, DNS_LABEL, GROUP, payloadProcessing, READY_REASON, READY_STATUS, singleton, telemetry } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/**
 * maas.opendatahub.io/v1alpha1 MaasTenantConfig: settings of the default tenant, one per
 * namespace, named `default-tenant`.
 */
export const maasTenantConfigCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MaasTenantConfig',
  plural: 'maastenantconfigs',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: READY_STATUS },
      { name: 'Reason', type: 'string', jsonPath: READY_REASON },
      PrinterColumns.age(),
      { name: 'InfraNamespace', type: 'string', jsonPath: '.status.infraNamespace' },
    ],
    schema: s.object({
      spec: s.object({
        apiKeys,
        payloadProcessing,
        telemetry,
      }).named('MaasTenantConfigSpec'),
      status: s.object({
        phase: s.enum('Pending', 'Active', 'Degraded', 'Failed'),
        infraNamespace: s.string({ maxLength: 63, pattern: DNS_LABEL }),
        conditions: conditions(),
      }).named('MaasTenantConfigStatus'),
    }).rule(...singleton('default-tenant')),
  }],
};
