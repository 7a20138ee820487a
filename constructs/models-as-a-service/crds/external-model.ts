import { conditions, GROUP } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/**
 * maas.opendatahub.io/v1alpha1 ExternalModel: the legacy form of an external model. The
 * payload processor migrates these to inference.opendatahub.io ExternalModels; MaaS still
 * reads them as a fallback.
 */
export const legacyExternalModelCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ExternalModel',
  plural: 'externalmodels',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Provider', type: 'string', jsonPath: '.spec.provider' },
      { name: 'TargetModel', type: 'string', jsonPath: '.spec.targetModel' },
      { name: 'Endpoint', type: 'string', jsonPath: '.spec.endpoint' },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        provider: s.string({ minLength: 1, maxLength: 63 }).required(),
        endpoint: s.string({ minLength: 1, maxLength: 253, pattern: '^[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?)*$' }).required(),
        targetModel: s.string({ minLength: 1, maxLength: 253 }).required(),
        credentialRef: s.object({ name: s.string({ minLength: 1, maxLength: 253 }).required() }).named('CredentialReference').required(),
      }).named('LegacyExternalModelSpec').required(),
      status: s.object({
        phase: s.enum('Pending', 'Ready', 'Failed'),
        conditions: conditions(),
      }).named('LegacyExternalModelStatus'),
    }),
  }],
};
