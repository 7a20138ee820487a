import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const PIPELINES_GROUP = 'pipelines.kubeflow.org';

const annotations = { 'controller-gen.kubebuilder.io/version': 'v0.16.4' };

/**
 * A pipeline in the Kubernetes-native pipeline store of KFP 2.17.0 (the API server keeps
 * pipelines as custom resources instead of database rows). Data Science Pipelines ships
 * the same definition: both components declare this one object, so a platform with both
 * emits it once.
 */
export const pipelineCrd: CrdDefinition = {
  group: PIPELINES_GROUP,
  kind: 'Pipeline',
  plural: 'pipelines',
  scope: CrdScope.NAMESPACED,
  annotations,
  versions: [{
    name: 'v2beta1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        displayName: s.string().describe('Name shown in the UI (the object name is the identifier).'),
        description: s.string(),
        tags: s.stringMap().describe('Free-form labels of the pipeline.'),
      }).named('PipelineSpec'),
    }),
  }],
};

/** A condition of a PipelineVersion (no observedGeneration or transition time, as upstream's type). */
const condition = s.object({
  type: s.string({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }).required(),
  status: s.enum('True', 'False', 'Unknown').required(),
  reason: s.string().required(),
  message: s.string({ maxLength: 32768 }).required(),
}).named('SimplifiedCondition');

/** One compiled version of a Pipeline: its IR pipeline spec, validated and defaulted by the API server's webhooks. */
export const pipelineVersionCrd: CrdDefinition = {
  group: PIPELINES_GROUP,
  kind: 'PipelineVersion',
  plural: 'pipelineversions',
  scope: CrdScope.NAMESPACED,
  annotations,
  versions: [{
    name: 'v2beta1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      spec: s.object({
        pipelineName: s.string().describe('The Pipeline this version belongs to (the mutating webhook sets the owner reference).'),
        displayName: s.string(),
        description: s.string(),
        versionName: s.string({ maxLength: 253, pattern: '^[a-z0-9]([a-z0-9\\.\\-]*[a-z0-9])?$' }).describe('Version name, a DNS-1123 subdomain.'),
        codeSourceURL: s.string().describe('Where the pipeline source lives.'),
        pipelineSpecURI: s.string().describe('Where the compiled pipeline spec was loaded from.'),
        pipelineSpec: s.any().required().describe('The compiled pipeline (KFP IR), kept as given.'),
        platformSpec: s.any().describe('Platform-specific configuration of the pipeline (e.g. Kubernetes), kept as given.'),
        tags: s.stringMap(),
      }).named('PipelineVersionSpec'),
      status: s.object({ conditions: s.array(condition) }).named('PipelineVersionStatus'),
    }),
  }],
};
