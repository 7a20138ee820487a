import { conditions, GROUP, localName, phase, providerAuth } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** One provider that serves the model, with the route to it and its share of traffic. */
export const externalProviderRef = s.object({
  ref: s.object({ name: localName().required() }).named('ExternalProviderObjectRef').required().describe('The ExternalProvider (same namespace).'),
  targetModel: s.string({ minLength: 1, maxLength: 253 }).required().describe('Model name the provider knows the model by.'),
  apiFormat: s.string({ minLength: 1, maxLength: 63 }).required().describe('Request format the provider speaks, e.g. openai-chat.'),
  path: s.string({ minLength: 1, maxLength: 512, pattern: '^/.*' }).required().describe('Request path on the provider endpoint.'),
  auth: providerAuth.describe('Overrides the provider credentials for this model.'),
  config: s.stringMap().describe('Per-model provider settings.'),
  weight: s.integer({ minimum: 1, maximum: 100 }).default(1).describe('Relative share of requests sent to this provider.'),
}).named('ExternalProviderRef');

/**
 * inference.opendatahub.io/v1alpha1 ExternalModel: a model served by one or more external
 * providers, published on the AI gateway under `modelName` through an HTTPRoute.
 */
export const externalModelCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ExternalModel',
  plural: 'externalmodels',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        modelName: s.string({ maxLength: 253 }).describe('Name clients request; defaults to the object name.'),
        externalProviderRefs: s.array(externalProviderRef, { minItems: 1, maxItems: 64 }).required(),
      }).named('ExternalModelSpec'),
      status: s.object({
        phase: phase(),
        httpRouteName: s.string().describe('The HTTPRoute the controller created on the gateway.'),
        conditions: conditions(),
      }).named('ExternalModelStatus'),
    }),
  }],
};
