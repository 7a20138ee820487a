/** Cohort (kueue.x-k8s.io): a node of the tree of queues that lend and borrow quota. */
import { fairSharing, fairSharingStatus, GROUP, objectRef, resourceGroups, Version } from './common';
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

function version(v: Version): CrdVersion {
  return {
    name: v,
    storage: v === 'v1beta2',
    deprecated: v === 'v1beta1' || undefined,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        fairSharing: fairSharing(),
        parentName: objectRef().describe('The parent cohort; unset for a root.'),
        resourceGroups: resourceGroups(v),
      }).named(v === 'v1beta1' ? 'CohortSpecV1beta1' : 'CohortSpec'),
      status: s.object({ fairSharing: fairSharingStatus(v === 'v1beta1') }).named(v === 'v1beta1' ? 'CohortStatusV1beta1' : 'CohortStatus'),
    }),
  };
}

export const cohortCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Cohort',
  plural: 'cohorts',
  shortNames: ['co'],
  scope: CrdScope.CLUSTER,
  versions: [version('v1beta1'), version('v1beta2')],
  conversion: { strategy: 'Webhook', path: '/convert', conversionReviewVersions: ['v1'] },
};
