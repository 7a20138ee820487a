import { conditions, GROUP, modelRefName, policyStatus, subjects, usageMetadata } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** A MaaSModelRef by name and namespace. */
export const modelReference = s.object({
  name: modelRefName().required(),
  namespace: modelRefName().required(),
}).named('ModelReference');

/** maas.opendatahub.io/v1alpha1 MaaSAuthPolicy: who may call which models (becomes Kuadrant AuthPolicies). */
export const maasAuthPolicyCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MaaSAuthPolicy',
  plural: 'maasauthpolicies',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      PrinterColumns.age(),
      { name: 'AuthPolicies', type: 'string', jsonPath: '.status.authPolicies[*].name' },
    ],
    schema: s.object({
      spec: s.object({
        modelRefs: s.array(modelReference, { minItems: 1 }).required(),
        subjects: subjects
          .rule('(has(self.groups) && size(self.groups) > 0) || (has(self.users) && size(self.users) > 0)', 'subjects must name at least one group or user')
          .required(),
        meteringMetadata: usageMetadata,
      }).named('MaaSAuthPolicySpec').required(),
      status: s.object({
        phase: s.enum('Pending', 'Active', 'Degraded', 'Failed', 'Invalid'),
        authPolicies: s.array(policyStatus('AuthPolicyRefStatus', { modelNamespace: modelRefName().required() })),
        conditions: conditions(),
      }).named('MaaSAuthPolicyStatus'),
    }),
  }],
};
