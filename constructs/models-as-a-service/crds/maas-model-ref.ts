import { conditions, DNS_LABEL, GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** The kinds a MaaSModelRef can publish. */
export const MODEL_REF_KINDS = ['LLMInferenceService', 'ExternalModel'];

/**
 * maas.opendatahub.io/v1alpha1 MaaSModelRef: publishes a model (a KServe LLMInferenceService
 * or an ExternalModel in the same namespace) on the MaaS gateway.
 */
export const maasModelRefCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MaaSModelRef',
  plural: 'maasmodelrefs',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'Endpoint', type: 'string', jsonPath: '.status.endpoint' },
      { name: 'HTTPRoute', type: 'string', jsonPath: '.status.httpRouteName' },
      { name: 'Gateway', type: 'string', jsonPath: '.status.httpRouteGatewayName' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        modelRef: s.object({
          kind: s.enum(...MODEL_REF_KINDS).required(),
          name: s.string({ minLength: 1, maxLength: 253 }).required(),
        }).named('ModelRef').required(),
        endpointOverride: s.string().describe('Public URL to report instead of the discovered one.'),
        tenantRef: s.string({ maxLength: 253, pattern: DNS_LABEL }).describe('The tenant that publishes the model.'),
      }).named('MaaSModelRefSpec').required(),
      status: s.object({
        phase: s.enum('Pending', 'Ready', 'Unhealthy', 'Failed', 'Invalid'),
        endpoint: s.string(),
        httpRouteName: s.string(),
        httpRouteNamespace: s.string(),
        httpRouteGatewayName: s.string(),
        httpRouteGatewayNamespace: s.string(),
        httpRouteHostnames: s.array(s.string()),
        resolvedModelAlias: s.string(),
        resolvedTenantRef: s.string(),
        conditions: conditions(),
      }).named('MaaSModelRefStatus'),
    }),
  }],
};
