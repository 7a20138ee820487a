/**
 * Schema pieces shared by the kueue.x-k8s.io CRDs (Kueue v0.19.2). Field names, limits and
 * patterns are upstream's API facts; descriptions and CEL rules are our own.
 */
import { metav1Conditions } from '../../../lib/schema/common';
import { plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

export const GROUP = 'kueue.x-k8s.io';

/** An object name (DNS-1123 subdomain): the references between Kueue objects. */
export const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
/** A DNS-1123 label: pod set names. */
export const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
/** A qualified name (optional prefix/), as label keys and condition types. */
export const QUALIFIED_NAME = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/** A reference to another Kueue object by name. */
export const objectRef = () => s.string({ maxLength: 253, pattern: DNS_SUBDOMAIN });
/** A pod set name. */
export const podSetName = () => s.string({ maxLength: 63, pattern: DNS_LABEL });

/** Conditions: v1beta2 caps them at 16, v1beta1 does not. */
export const conditions = (v: Version) => (v === 'v1beta2' ? metav1Conditions({ maxItems: 16 }) : metav1Conditions());

export type Version = 'v1beta1' | 'v1beta2';

/** Fair sharing weight of a queue or cohort. */
export const fairSharing = () => s.object({
  weight: s.quantity().default(1).describe('Share of unused quota this node may borrow, relative to its siblings.'),
}).named('FairSharing');

/** Admission fair sharing state of a queue: usage by resource and when it was computed. */
const admissionFairSharingStatus = s.object({
  consumedResources: s.map(s.quantity()).required().describe('Decayed usage per resource.'),
  lastUpdate: s.dateTime().required(),
}).named('AdmissionFairSharingStatus');

/** status.fairSharing; with `admission` the admission fair sharing state as well. */
export const fairSharingStatus = (admission: boolean) => s.object({
  weightedShare: s.int64().required().describe('Share of the node, weighted; 0 when it uses no more than its nominal quota.'),
  ...(admission ? { admissionFairSharingStatus } : {}),
}).named(admission ? 'FairSharingStatusWithAdmission' : 'FairSharingStatus');

/** One resource quota of a flavor (spec.resourceGroups[].flavors[].resources[]). */
const resourceQuota = s.object({
  name: s.string().required().describe('Resource name, e.g. cpu, memory, nvidia.com/gpu.'),
  nominalQuota: s.quantity().required().describe('Quantity available to this queue or cohort.'),
  borrowingLimit: s.quantity().describe('How much more it may borrow from its cohort.'),
  lendingLimit: s.quantity().describe('How much of its unused quota it may lend to its cohort.'),
}).named('ResourceQuota');

const flavorQuotas = s.object({
  name: objectRef().required().describe('Name of a ResourceFlavor.'),
  resources: s.array(resourceQuota, { listType: 'map', listMapKeys: ['name'], minItems: 1, maxItems: 64 }).required(),
}).named('FlavorQuotas');

/**
 * A resource group: resources whose quota is given flavor by flavor. Each flavor lists
 * every covered resource (our rule checks the counts agree).
 */
export const resourceGroups = (v: Version) => s.array(
  s.object({
    coveredResources: s.array(s.string(), { minItems: 1, maxItems: 64, ...(v === 'v1beta2' ? { listType: 'atomic' as const } : {}) }).required(),
    flavors: s.array(flavorQuotas, { listType: 'map', listMapKeys: ['name'], minItems: 1, maxItems: 64 }).required(),
  }).rule('self.flavors.all(f, size(f.resources) == size(self.coveredResources))', 'each flavor must give a quota for every covered resource, and only for those')
    .named('ResourceGroup'),
  { listType: 'atomic', maxItems: 16 },
);

/** Usage of one resource in a flavor (with or without the borrowed part). */
const resourceUsage = (borrowed: boolean) => s.object({
  name: s.string().required(),
  total: s.quantity(),
  ...(borrowed ? { borrowed: s.quantity() } : {}),
}).named(borrowed ? 'ResourceUsage' : 'LocalQueueResourceUsage');

/** Usage by flavor: status.flavorsUsage / flavorsReservation. */
export const flavorUsage = (borrowed: boolean) => s.array(
  s.object({
    name: objectRef().required(),
    resources: s.array(resourceUsage(borrowed), { listType: 'map', listMapKeys: ['name'], maxItems: 64 }).required(),
  }).named(borrowed ? 'FlavorUsage' : 'LocalQueueFlavorUsage'),
  { listType: 'map', listMapKeys: ['name'], maxItems: 64 },
);

/** What a queue does with new and admitted workloads while stopped. */
export const stopPolicy = () => s.enum('None', 'Hold', 'HoldAndDrain').default('None');

/** A node taint (core Taint). */
export const taint = () => plainCore('V1Taint');

/** Node taints as ResourceFlavor and LocalQueue status list them. */
export const nodeTaints = () => s.array(taint(), { listType: 'atomic', maxItems: 8 });

/** Taint effects Kubernetes accepts. */
const EFFECTS = "['NoSchedule', 'PreferNoSchedule', 'NoExecute']";

/** Tolerations with the API server's toleration semantics as CEL (upstream validates them in the CRD). */
export const tolerations = (opts: { atomic: boolean }) => s.array(plainCore('V1Toleration'), { maxItems: 8, ...(opts.atomic ? { listType: 'atomic' as const } : {}) })
  .rule("self.all(t, has(t.key) && t.key != '' || has(t.operator) && t.operator == 'Exists')", "a toleration without a key must use operator 'Exists' (it tolerates every taint)")
  .rule("self.all(t, !has(t.tolerationSeconds) || has(t.effect) && t.effect == 'NoExecute')", "tolerationSeconds applies only to effect 'NoExecute'")
  .rule("self.all(t, !has(t.operator) || t.operator in ['Equal', 'Exists'])", "operator must be 'Equal' (the default) or 'Exists'")
  .rule("self.all(t, !has(t.operator) || t.operator != 'Exists' || !has(t.value) || t.value == '')", "operator 'Exists' takes no value")
  .rule(`self.all(t, !has(t.effect) || t.effect == '' || t.effect in ${EFFECTS})`, "effect must be 'NoSchedule', 'PreferNoSchedule' or 'NoExecute'");

/** A rule on a list of taints: only the effects Kubernetes knows. */
export const TAINT_EFFECT_RULE = `self.all(t, t.effect in ${EFFECTS})`;

/** A label selector (core LabelSelector). */
export const labelSelector = () => plainCore('V1LabelSelector');
