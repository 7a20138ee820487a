/** ProvisioningRequestConfig (kueue.x-k8s.io): how the provisioning admission check asks the cluster autoscaler for capacity. */
import { DNS_SUBDOMAIN, GROUP, QUALIFIED_NAME, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function version(v: Version): CrdVersion {
  const legacy = v === 'v1beta1';
  const selector = s.object({
    key: s.string({ minLength: 1, maxLength: 317, pattern: QUALIFIED_NAME }).required(),
    valueFromProvisioningClassDetail: s.string({ minLength: 1, maxLength: 32768 }).required(),
  }).named('PodSetUpdateNodeSelector');
  return {
    name: v,
    storage: !legacy,
    deprecated: legacy || undefined,
    schema: s.object({
      spec: s.object({
        managedResources: s.array(s.string(), { listType: 'set', maxItems: 100 }),
        parameters: s.map(s.string({ maxLength: 255 }), { maxProperties: 100 }),
        podSetMergePolicy: s.enum('IdenticalPodTemplates', 'IdenticalWorkloadSchedulingRequirements'),
        podSetUpdates: s.object({
          nodeSelector: s.array(selector, legacy ? { maxItems: 8 } : { listType: 'map', listMapKeys: ['key'], maxItems: 8 }),
        }).named('ProvisioningRequestPodSetUpdates'),
        provisioningClassName: s.string({ ...(legacy ? {} : { minLength: 1 }), maxLength: 253, pattern: DNS_SUBDOMAIN }).required(),
        retryStrategy: s.object({
          backoffBaseSeconds: s.int32().default(60),
          backoffLimitCount: s.int32().default(3),
          backoffMaxSeconds: s.int32().default(1800),
        }).named('ProvisioningRequestRetryStrategy').default({ backoffBaseSeconds: 60, backoffLimitCount: 3, backoffMaxSeconds: 1800 }),
      }).named('ProvisioningRequestConfigSpec'),
    }),
  };
}

export const provisioningRequestConfigCrd: CrdDefinition = {
  group: GROUP,
  kind: 'ProvisioningRequestConfig',
  plural: 'provisioningrequestconfigs',
  shortNames: ['prc'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'None', schemasDifferBecause: 'as upstream Kueue v0.19.2: v1beta1 stays served (deprecated) for reading old objects; fields new in v1beta2 are pruned when written through v1beta1' },
};
