/**
 * PodDefault (kubeflow.org/v1alpha1): fields the PodDefault admission webhook merges into
 * every new pod of its namespace that matches spec.selector (env, volumes, sidecars,
 * tolerations...). Notebook spawners list them as "configurations".
 *
 * Upstream's generated CRD spells several core types out field by field (without the
 * defaults and list markers newer core types carry): we render them as upstream does.
 */
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** A reference to a ConfigMap or Secret to take environment from. */
const envSourceRef = s.object({ name: s.string(), optional: s.boolean() }, { mapType: 'atomic' });

const podDefaultSpec = s.object({
  desc: s.string().describe('What this PodDefault adds, shown in the notebook spawner.'),
  selector: plainCore('V1LabelSelector', {
    matchExpressions: s.array(plainCore('V1LabelSelectorRequirement', { values: s.array(s.string()) })),
  }).named('PodDefaultSelector').required().describe('Pods (by label) this PodDefault applies to.'),
  serviceAccountName: s.string(),
  automountServiceAccountToken: s.boolean(),
  env: s.array(core('V1EnvVar')),
  envFrom: s.array(plainCore('V1EnvFromSource', { configMapRef: envSourceRef, secretRef: envSourceRef }).named('PodDefaultEnvFromSource')),
  volumeMounts: s.array(plainCore('V1VolumeMount').omit('recursiveReadOnly').named('PodDefaultVolumeMount')),
  volumes: s.array(core('V1Volume')),
  initContainers: s.array(core('V1Container')),
  sidecars: s.array(core('V1Container')),
  tolerations: s.array(plainCore('V1Toleration')),
  imagePullSecrets: s.array(s.object({ name: s.string() }).named('PodDefaultImagePullSecret')),
  labels: s.stringMap(),
  annotations: s.stringMap(),
  command: s.array(s.string()),
  args: s.array(s.string()),
}).named('PodDefaultSpec');

export const podDefaultCrd: CrdDefinition = {
  group: 'kubeflow.org',
  kind: 'PodDefault',
  plural: 'poddefaults',
  singular: 'poddefault',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    served: true,
    storage: true,
    subresources: { status: true },
    schema: s.object({ spec: podDefaultSpec, status: s.object({}).named('PodDefaultStatus') }),
  }],
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.4' },
};
