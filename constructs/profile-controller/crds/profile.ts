/**
 * Profile (kubeflow.org, cluster-scoped): one tenant. The profile controller makes a
 * namespace of the same name owned by spec.owner, with the owner's RoleBinding, the
 * default-editor and default-viewer ServiceAccounts, Istio AuthorizationPolicies and the
 * resource quota of spec.resourceQuotaSpec.
 *
 * Upstream serves v1 (storage) and v1beta1 with one schema and conversion None.
 */
import { CrdDefinition, CrdScope, CrdVersion } from '../../../lib/crd';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const plugin = s.object({
  apiVersion: s.string(),
  kind: s.string().describe('Plugin kind, e.g. WorkloadIdentity or AwsIamForServiceAccount.'),
  spec: s.openObject().describe('Plugin settings; each plugin kind reads its own fields.'),
}).named('ProfilePlugin');

const profileSpec = s.object({
  owner: plainCore('RbacV1Subject').extend({}, { mapType: 'atomic' }).named('ProfileOwner')
    .describe('The user or group that owns the namespace (an rbac Subject).'),
  plugins: s.array(plugin).describe('Cloud identity plugins applied to the namespace.'),
  resourceQuotaSpec: plainCore('V1ResourceQuotaSpec').named('ProfileResourceQuotaSpec')
    .describe('Becomes the kf-resource-quota ResourceQuota of the namespace.'),
}).named('ProfileSpec');

const profileStatus = s.object({
  conditions: s.array(s.object({
    message: s.string(),
    status: s.string(),
    type: s.string(),
  }).named('ProfileCondition')),
}).named('ProfileStatus');

const schema = s.object({ spec: profileSpec, status: profileStatus });

const version = (name: string, storage: boolean): CrdVersion => ({
  name,
  served: true,
  storage,
  subresources: { status: true },
  schema,
});

export const profileCrd: CrdDefinition = {
  group: 'kubeflow.org',
  kind: 'Profile',
  plural: 'profiles',
  singular: 'profile',
  scope: CrdScope.CLUSTER,
  versions: [version('v1', true), version('v1beta1', false)],
  conversion: { strategy: 'None' },
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' },
};
