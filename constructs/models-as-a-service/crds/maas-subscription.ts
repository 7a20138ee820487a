import { conditions, GROUP, modelRefName, policyStatus, STATUS_REASONS, subjects, usageMetadata } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const subscribedModel = s.object({
  name: modelRefName().required(),
  namespace: modelRefName().required(),
  tokenRateLimits: s.array(s.object({
    limit: s.int64({ minimum: 1, maximum: 1000000000 }).required().describe('Tokens allowed per window.'),
    window: s.string({ minLength: 2, maxLength: 5, pattern: '^[1-9]\\d{0,3}(s|m|h)$' }).required().describe('Window length, e.g. 1m or 24h.'),
  }).named('TokenRateLimit'), { minItems: 1 }).required(),
  billingRate: s.object({ perToken: s.string().required() }).named('BillingRate'),
}).named('SubscribedModel');

/** maas.opendatahub.io/v1alpha1 MaaSSubscription: token quotas of a set of users on a set of models. */
export const maasSubscriptionCrd: CrdDefinition = {
  group: GROUP,
  kind: 'MaaSSubscription',
  plural: 'maassubscriptions',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'Priority', type: 'integer', jsonPath: '.spec.priority' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        owner: subjects.required().describe('Groups and users the subscription belongs to.'),
        modelRefs: s.array(subscribedModel, { minItems: 1 }).required(),
        priority: s.int32().default(0).describe('Higher wins when a user holds several subscriptions.'),
        tokenMetadata: usageMetadata,
      }).named('MaaSSubscriptionSpec').required(),
      status: s.object({
        phase: s.enum('Pending', 'Active', 'Degraded', 'Failed', 'Invalid'),
        modelRefStatuses: s.array(s.object({
          name: s.string({ maxLength: 253 }).required(),
          namespace: s.string({ maxLength: 63 }).required(),
          ready: s.boolean().required(),
          reason: s.enum(...STATUS_REASONS),
          message: s.string({ maxLength: 1024 }),
        }).named('ModelRefStatus')),
        tokenRateLimitStatuses: s.array(policyStatus('TokenRateLimitStatus')),
        conditions: conditions(),
      }).named('MaaSSubscriptionStatus'),
    }),
  }],
};
