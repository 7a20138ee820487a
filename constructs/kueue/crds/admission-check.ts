/** AdmissionCheck (kueue.x-k8s.io): a check a workload must pass before it is admitted. */
import { conditions, DNS_LABEL, DNS_SUBDOMAIN, GROUP, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function version(v: Version): CrdVersion {
  const min = v === 'v1beta2' ? { minLength: 1 } : {};
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        controllerName: s.string({ ...min, ...(v === 'v1beta2' ? { maxLength: 253 } : {}) }).required()
          .rule('self == oldSelf', 'controllerName is immutable')
          .describe('The controller that runs this check; cannot change once set.'),
        parameters: s.object({
          apiGroup: s.string({ ...min, maxLength: 253, pattern: DNS_SUBDOMAIN }).required(),
          kind: s.string({ ...min, maxLength: 63, pattern: '^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$' }).required(),
          name: s.string({ ...min, maxLength: 63, pattern: DNS_LABEL }).required(),
        }).named('AdmissionCheckParametersReference').describe('An object holding parameters for the check controller.'),
        ...(v === 'v1beta1' ? { retryDelayMinutes: s.int64().default(15).describe('Minutes before a failed check is retried (deprecated).') } : {}),
      }).named('AdmissionCheckSpec'),
      status: s.object({ conditions: conditions(v) }).named('AdmissionCheckStatus'),
    }),
  };
}

export const admissionCheckCrd: CrdDefinition = {
  group: GROUP,
  kind: 'AdmissionCheck',
  plural: 'admissionchecks',
  shortNames: ['ac'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
  // The schemas differ (v1beta2 dropped retryDelayMinutes), yet upstream converts this kind
  // with strategy None: the API server only rewrites apiVersion.
  conversion: { strategy: 'None', schemasDifferBecause: 'as upstream Kueue v0.19.2: v1beta1 stays served (deprecated) for reading old objects; fields new in v1beta2 are pruned when written through v1beta1' },
};
