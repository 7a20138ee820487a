/**
 * TrainedModel (serving.kserve.io/v1alpha1): one model loaded into a multi-model
 * InferenceService.
 */
import { addressable, knativeStatusFields } from './isvc-shared';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const trainedModelSpec = s.object({
  inferenceService: s.string().required(),
  model: s.object({
    framework: s.string().required(),
    memory: s.quantity().required(),
    storageUri: s.string().required(),
  }).named('TrainedModelModelSpec').required(),
}).named('TrainedModelSpec');

const trainedModelStatus = s.object({
  ...knativeStatusFields,
  address: addressable,
  url: s.string(),
}).named('TrainedModelStatus');

export const trainedModelCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'TrainedModel',
  plural: 'trainedmodels',
  singular: 'trainedmodel',
  shortNames: ['tm'],
  scope: CrdScope.NAMESPACED,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      subresources: { status: true },
      printerColumns: [
        PrinterColumns.url(),
        PrinterColumns.ready(),
        PrinterColumns.age(),
      ],
      schema: s.object({
        spec: trainedModelSpec,
        status: trainedModelStatus,
      }),
    },
  ],
};
