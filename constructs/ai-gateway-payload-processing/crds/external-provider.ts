import { conditions, GROUP, phase, providerAuth } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const HOSTNAME_PATTERN = '^[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?)+$';

/**
 * inference.opendatahub.io/v1alpha1 ExternalProvider: an inference API outside the cluster
 * (OpenAI, Bedrock, Vertex...) and the credentials to reach it. The payload processor's
 * controller turns it into a ServiceEntry and DestinationRule.
 */
export const externalProviderCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ExternalProvider',
  plural: 'externalproviders',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Provider', type: 'string', jsonPath: '.spec.provider' },
      { name: 'Endpoint', type: 'string', jsonPath: '.spec.endpoint' },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        provider: s.string({ minLength: 1, maxLength: 63 }).required().describe('Provider type, e.g. openai; selects the API translation.'),
        endpoint: s.string({ minLength: 1, maxLength: 253, pattern: HOSTNAME_PATTERN }).required().describe('Fully qualified host name of the provider API.'),
        auth: providerAuth.required(),
        config: s.stringMap().describe('Provider-specific settings (region, project...).'),
      }).named('ExternalProviderSpec'),
      status: s.object({
        phase: phase(),
        conditions: conditions(),
      }).named('ExternalProviderStatus'),
    }),
  }],
};
