import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

const GROUP = 'serving.kserve.io';

/** Where and how a model is fetched: a storage key plus parameters overriding its config. */
export const localModelStorage = s.object({
  key: s.string().describe('Key of the storage secret entry to use.'),
  parameters: s.stringMap().describe('Parameters that override those of the storage entry.'),
}).named('LocalModelStorage');

/** A reference to a (LLM)InferenceService that uses a cached model. */
const namespacedName = s.object({ name: s.string(), namespace: s.string() }).named('NamespacedName');

/** Spec shared by LocalModelCache and LocalModelNamespaceCache. */
export const localModelCacheSpec = s.object({
  sourceModelUri: s.string().required()
    .rule('self == oldSelf', 'sourceModelUri is immutable')
    .describe('Where the model is downloaded from; cannot change once set.'),
  modelSize: s.quantity().required().describe('Disk space the model needs on each node.'),
  nodeGroups: s.array(s.string(), { minItems: 1 }).required().describe('LocalModelNodeGroups to cache the model on.'),
  serviceAccountName: s.string().describe('Service account whose credentials the download job uses.'),
  storage: localModelStorage,
}).named('LocalModelCacheSpec');

/** Status shared by LocalModelCache and LocalModelNamespaceCache. */
export const localModelCacheStatus = s.object({
  copies: s.object({
    available: s.integer(),
    failed: s.integer(),
    total: s.integer(),
  }).named('ModelCopies'),
  inferenceServices: s.array(namespacedName),
  llmInferenceServices: s.array(namespacedName),
  nodeStatus: s.map(s.enum('', 'NodeDownloadPending', 'NodeDownloading', 'NodeDownloaded', 'NodeDownloadError', 'NodeNotReady')).describe('Per node: the download state of the model.'),
}).named('LocalModelCacheStatus');

const cacheSchema = s.object({ spec: localModelCacheSpec, status: localModelCacheStatus });

/** serving.kserve.io/v1alpha1 LocalModelCache: a model cached on nodes of node groups (cluster-wide). */
export const localModelCacheCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LocalModelCache',
  plural: 'localmodelcaches',
  scope: CrdScope.CLUSTER,
  versions: [{ name: 'v1alpha1', storage: true, schema: cacheSchema, subresources: { status: true } }],
};

/** serving.kserve.io/v1alpha1 LocalModelNamespaceCache: the namespaced variant of LocalModelCache. */
export const localModelNamespaceCacheCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LocalModelNamespaceCache',
  plural: 'localmodelnamespacecaches',
  scope: CrdScope.NAMESPACED,
  versions: [{ name: 'v1alpha1', storage: true, schema: cacheSchema, subresources: { status: true } }],
};

/** serving.kserve.io/v1alpha1 LocalModelNodeGroup: the nodes and volumes models are cached on (no status subresource). */
export const localModelNodeGroupCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LocalModelNodeGroup',
  plural: 'localmodelnodegroups',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    schema: s.object({
      spec: s.object({
        storageLimit: s.quantity().required().describe('Disk space all models of the group may use.'),
        persistentVolumeSpec: core('V1PersistentVolumeSpec').required(),
        persistentVolumeClaimSpec: core('V1PersistentVolumeClaimSpec').required(),
      }).named('LocalModelNodeGroupSpec'),
      status: s.object({
        used: s.quantity(),
        available: s.quantity(),
      }).named('LocalModelNodeGroupStatus'),
    }),
  }],
};

/** One model a node agent should hold. */
export const localModelInfo = s.object({
  modelName: s.string().required(),
  sourceModelUri: s.string().required(),
  namespace: s.string().describe('Set for models of a LocalModelNamespaceCache.'),
  nodeGroup: s.string(),
  serviceAccountName: s.string(),
  storage: localModelStorage,
}).named('LocalModelInfo');

/** serving.kserve.io/v1alpha1 LocalModelNode: the models one node should cache, written by the controller. */
export const localModelNodeCrd: CrdDefinition = {
  group: GROUP,
  kind: 'LocalModelNode',
  plural: 'localmodelnodes',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    schema: s.object({
      spec: s.object({ localModels: s.array(localModelInfo).required() }).named('LocalModelNodeSpec'),
      status: s.object({ modelStatus: s.map(s.enum('', 'ModelDownloadPending', 'ModelDownloading', 'ModelDownloaded', 'ModelDownloadError')).describe('Per model: its download state on this node.') }).named('LocalModelNodeStatus'),
    }),
    subresources: { status: true },
  }],
};
