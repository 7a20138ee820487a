import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { metav1Condition } from '../../../lib/schema/common';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

export const GROUP = 'nim.opendatahub.io';

/** A reference to any object (core ObjectReference, an atomic struct). */
const objectReference = () => plainCore('V1ObjectReference').named('ObjectReference');

/**
 * nim.opendatahub.io/v1 Account: an NVIDIA NIM account. The controller validates the API key,
 * then keeps the NIM model list, a pull secret and a ServingRuntime template up to date.
 */
export const accountCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Account',
  plural: 'accounts',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Account Status', type: 'string', jsonPath: '.status.conditions[?(@.type=="AccountStatus")].status' },
      { name: 'Account Check', type: 'date', jsonPath: '.status.lastAccountCheck' },
      { name: 'Validation Rate', type: 'string', jsonPath: '.spec.validationRefreshRate' },
      { name: 'Last Successful Validation', type: 'date', jsonPath: '.status.lastSuccessfulValidation' },
      { name: 'Config Rate', type: 'string', jsonPath: '.spec.nimConfigRefreshRate' },
      { name: 'Last Successful Config', type: 'date', jsonPath: '.status.lastSuccessfulConfigRefresh' },
    ],
    schema: s.object({
      spec: s.object({
        apiKeySecret: objectReference().required().describe('Secret holding the NGC API key.'),
        modelListConfig: objectReference().describe('ConfigMap restricting which NIM models are offered.'),
        validationRefreshRate: s.string({ format: 'duration' }).default('24h').describe('How often the API key is revalidated.'),
        nimConfigRefreshRate: s.string({ format: 'duration' }).default('24h').describe('How often the NIM model list is refreshed.'),
      }).named('AccountSpec'),
      status: s.object({
        nimConfig: objectReference(),
        runtimeTemplate: objectReference(),
        nimPullSecret: objectReference(),
        lastAccountCheck: s.dateTime(),
        lastSuccessfulValidation: s.dateTime(),
        lastSuccessfulConfigRefresh: s.dateTime(),
        conditions: s.array(metav1Condition()),
      }).named('AccountStatus'),
    }),
  }],
};
