import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { core } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** A storage URI form the container handles: a prefix or a regular expression. */
export const supportedUriFormat = s.object({
  prefix: s.string().describe('URI prefix, e.g. s3:// or hdfs://.'),
  regex: s.string().describe('Regular expression the URI must match.'),
}).named('SupportedUriFormat');

export const storageContainerSpec = s.object({
  container: core('V1Container').required(),
  supportedUriFormats: s.array(supportedUriFormat).required(),
  workloadType: s.string().default('initContainer').describe('How the container runs: initContainer (or localModelDownloadJob).'),
  supportsMultiModelDownload: s.boolean().default(false),
}).named('StorageContainerSpec');

/**
 * serving.kserve.io/v1alpha1 ClusterStorageContainer: a custom model download container.
 * Besides spec it has a top-level `disabled` flag; no status.
 */
export const clusterStorageContainerCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'ClusterStorageContainer',
  plural: 'clusterstoragecontainers',
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    schema: s.object({ spec: storageContainerSpec, disabled: s.boolean() }),
  }],
};
