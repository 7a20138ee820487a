import { BUNDLE_VERSION, BUNDLE_VERSION_ANNOTATION, controllerName, objectName, parentStatus, X_GROUP } from './common';
import { CrdDefinition, CrdScope } from '../../../lib/crd';
import { metav1Conditions } from '../../../lib/schema/common';
import { s } from '../../../lib/schema/dsl';

/** A controller managing an InferencePoolImport, and what it reports. */
export const importController = s.object({
  name: controllerName().required(),
  conditions: metav1Conditions({ maxItems: 8 }),
  exportingClusters: s.array(s.object({ name: objectName().required() }).named('ExportingCluster')),
  parents: s.array(parentStatus, { listType: 'atomic' }),
}).named('ImportController');

/**
 * inference.networking.x-k8s.io/v1alpha1 InferencePoolImport: a pool exported from other clusters
 * (multi-cluster, experimental). It has no spec; controllers write status only.
 */
export const inferencePoolImportCrd: CrdDefinition = {
  group: X_GROUP,
  kind: 'InferencePoolImport',
  plural: 'inferencepoolimports',
  shortNames: ['infpimp'],
  scope: CrdScope.NAMESPACED,
  annotations: { [BUNDLE_VERSION_ANNOTATION]: BUNDLE_VERSION },
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    schema: s.object({
      status: s.object({
        controllers: s.array(importController, { maxItems: 8, listType: 'map', listMapKeys: ['name'] }).required(),
      }).named('InferencePoolImportStatus'),
    }),
  }],
};
