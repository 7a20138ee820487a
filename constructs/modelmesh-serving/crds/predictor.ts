import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const MODEL_STATES = ['', 'Pending', 'Standby', 'Loading', 'Loaded', 'FailedToLoad'];

/** Where a predictor's model lives: a storage secret key, a PVC, or (legacy) an S3 bucket. */
const predictorStorage = s.object({
  key: s.string().describe('Key of the storage-config Secret entry that describes the storage.'),
  parameters: s.stringMap().describe('Parameters that override those of the storage entry.'),
  path: s.string().describe('Path of the model inside the storage.'),
  persistentVolumeClaim: s.object({
    claimName: s.string().required(),
    readOnly: s.boolean(),
  }).describe('A PersistentVolumeClaim holding the model.'),
  s3: s.object({
    bucket: s.string(),
    secretKey: s.string().required(),
  }).describe('Deprecated: S3 storage; use key and parameters.'),
  schemaPath: s.string().describe('Path of the model schema inside the storage.'),
}).named('PredictorStorage');

/**
 * serving.kserve.io/v1alpha1 Predictor: one model served by ModelMesh. Only ModelMesh ships
 * it (v0.12.0); unlike InferenceService it has no KServe counterpart.
 */
export const predictorCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'Predictor',
  plural: 'predictors',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [
      { name: 'Type', type: 'string', jsonPath: '.spec.modelType.name' },
      { name: 'Available', type: 'boolean', jsonPath: '.status.available' },
      { name: 'ActiveModel', type: 'string', jsonPath: '.status.activeModelState' },
      { name: 'TargetModel', type: 'string', jsonPath: '.status.targetModelState' },
      { name: 'Transition', type: 'string', jsonPath: '.status.transitionStatus' },
      PrinterColumns.age(),
    ],
    schema: s.object({
      spec: s.object({
        gpu: s.enum('required', 'preferred').describe('Whether the model needs a GPU.'),
        modelType: s.object({
          name: s.string().required(),
          version: s.string(),
        }).required().describe('The model format and its version.'),
        path: s.string().describe('Deprecated: use storage.path.'),
        protocolVersion: s.string().describe('The inference protocol the predictor is served with.'),
        runtime: s.object({ name: s.string().required() }).describe('The ServingRuntime to use (chosen by model type when unset).'),
        schemaPath: s.string().describe('Deprecated: use storage.schemaPath.'),
        serviceAccountName: s.string(),
        storage: predictorStorage,
      }).named('PredictorSpec'),
      status: s.object({
        activeModelState: s.enum(...MODEL_STATES).required().default('Pending'),
        available: s.boolean().required(),
        failedCopies: s.integer().required().default(0),
        grpcEndpoint: s.string(),
        httpEndpoint: s.string(),
        lastFailureInfo: s.object({
          location: s.string(),
          message: s.string(),
          modelId: s.string(),
          reason: s.enum('ModelLoadFailed', 'RuntimeUnhealthy', 'NoSupportingRuntime', 'RuntimeNotRecognized', 'InvalidPredictorSpec'),
          time: s.dateTime(),
        }),
        targetModelState: s.enum(...MODEL_STATES).required().default(''),
        totalCopies: s.integer().required().default(0),
        transitionStatus: s.enum('UpToDate', 'InProgress', 'BlockedByFailedLoad', 'InvalidSpec').required().default('UpToDate'),
      }).named('PredictorStatus').default({
        activeModelState: 'Pending', available: false, failedCopies: 0, targetModelState: '', totalCopies: 0, transitionStatus: 'UpToDate',
      }),
    }),
  }],
};
