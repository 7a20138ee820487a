import { conditions, DNS_LABEL, gatewayName, GROUP, oidc, READY_STATUS } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** The namespace MaaS accepts AITenants in (maas-controller --aitenant-namespace). */
export const DEFAULT_AITENANT_NAMESPACE = 'ai-tenants';

/**
 * maas.opendatahub.io/v1alpha1 AITenant: a tenant of the AI gateway, with its own namespace,
 * gateway, OIDC issuer and administrators. The namespace AITenants are accepted in (the
 * controller's --aitenant-namespace) is not a CRD rule: at the root of a custom resource, CEL
 * sees only metadata.name and metadata.generateName, so a rule on metadata.namespace does not
 * compile (upstream has none either).
 */
export function aiTenantCrd(): CrdDefinition {
  return {
    group: GROUP,
    kind: 'AITenant',
    plural: 'aitenants',
    shortNames: ['ait'],
    scope: CrdScope.NAMESPACED,
    versions: [{
      name: 'v1alpha1',
      storage: true,
      subresources: { status: true },
      printerColumns: [
        { name: 'Ready', type: 'string', jsonPath: READY_STATUS },
        { name: 'Tenant Namespace', type: 'string', jsonPath: '.status.tenantNamespace' },
        { name: 'Gateway', type: 'string', jsonPath: '.status.gatewayRef.name' },
        PrinterColumns.age(),
      ],
      schema: s.object({
        spec: s.object({
          gateway: s.object({ name: gatewayName() }).named('AITenantGateway').describe('Gateway to publish on; empty for a generated one.'),
          oidc: oidc.describe('External identity provider of the tenant.'),
          rbac: s.object({
            admins: s.array(s.object({
              kind: s.enum('User', 'Group', 'ServiceAccount').required(),
              name: s.string({ minLength: 1, maxLength: 253 }).required(),
              namespace: s.string({ maxLength: 63 }).describe('ServiceAccount namespace.'),
            }).named('AITenantAdmin'), { maxItems: 128 }),
          }).named('AITenantRBAC'),
        }).named('AITenantSpec'),
        status: s.object({
          phase: s.enum('Pending', 'Active', 'Failed', 'Terminating'),
          tenantNamespace: s.string(),
          gatewayRef: s.object({
            name: gatewayName().default('maas-default-gateway'),
            namespace: gatewayName().default('openshift-ingress'),
          }).named('AITenantGatewayRef'),
          conditions: conditions(),
        }).named('AITenantStatus'),
      })
        // The tenant name prefixes generated namespaces and objects: a short DNS label.
        .rule(`self.metadata.name.size() <= 41 && self.metadata.name.matches('${DNS_LABEL}')`, 'name must be a DNS-1123 label of at most 41 characters'),
    }],
  };
}

export const aiTenantCrdDefinition = aiTenantCrd();
