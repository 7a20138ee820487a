/**
 * InferenceService (serving.kserve.io/v1beta1): a model server with an optional explainer,
 * transformer and canary predictors.
 */
import { addressable, explainerSpec, knativeStatusFields, predictorSpec, transformerSpec } from './isvc-shared';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** The main predictor: `model.modelFormat` is optional here. */
const predictor = predictorSpec({ modelFormatRequired: false, typeName: 'PredictorSpec', modelTypeName: 'ModelSpec' });

/** A canary predictor: `model.modelFormat` is required here. */
const canaryPredictor = predictorSpec({ modelFormatRequired: true, typeName: 'CanaryPredictorSpec', modelTypeName: 'CanaryModelSpec' });

const canarySpec = s.object({
  predictor: canaryPredictor.required(),
  trafficPercent: s.int32({ minimum: 0, maximum: 100 }).required(),
}).named('CanarySpec');

const inferenceServiceSpec = s.object({
  canary: s.array(canarySpec, { listType: 'atomic' }),
  explainer: explainerSpec,
  predictor: predictor.required(),
  transformer: transformerSpec,
}).named('InferenceServiceSpec');

// ----- status -----------------------------------------------------------------------------

const modelState = ['', 'Pending', 'Standby', 'Loading', 'Loaded', 'FailedToLoad'];

/** The state of the model behind a predictor (ModelStatus). */
const modelStatus = s.object({
  copies: s.object({
    failedCopies: s.integer().default(0).required(),
    totalCopies: s.integer(),
  }).named('ModelCopies'),
  lastFailureInfo: s.object({
    exitCode: s.int32(),
    location: s.string(),
    message: s.string(),
    modelRevisionName: s.string(),
    reason: s.enum('ModelLoadFailed', 'RuntimeUnhealthy', 'RuntimeDisabled', 'NoSupportingRuntime', 'RuntimeNotRecognized', 'InvalidPredictorSpec'),
    time: s.dateTime(),
  }).named('FailureInfo'),
  states: s.object({
    activeModelState: s.enum(...modelState).default('Pending').required(),
    targetModelState: s.enum(...modelState).default(''),
  }).named('ModelRevisionStates'),
  transitionStatus: s.enum('', 'UpToDate', 'InProgress', 'BlockedByFailedLoad', 'InvalidSpec').default('UpToDate').required(),
}).named('ModelStatus');

/** A Knative traffic target of a component. */
const trafficTarget = s.object({
  configurationName: s.string(),
  latestRevision: s.boolean(),
  percent: s.int64(),
  revisionName: s.string(),
  tag: s.string(),
  url: s.string(),
}).named('TrafficTarget');

/** The status of one component (ComponentStatusSpec), keyed by component name. */
const componentStatus = s.object({
  address: addressable,
  grpcUrl: s.string(),
  latestCreatedRevision: s.string(),
  latestReadyRevision: s.string(),
  latestRolledoutRevision: s.string(),
  previousRolledoutRevision: s.string(),
  restUrl: s.string(),
  traffic: s.array(trafficTarget),
  url: s.string(),
}).named('ComponentStatusSpec');

const canaryStatus = s.object({
  modelStatus,
  name: s.string().required(),
  ready: s.boolean().required(),
  trafficPercent: s.int32().required(),
}).named('CanaryStatus');

const inferenceServiceStatus = s.object({
  ...knativeStatusFields,
  address: addressable,
  canaryStatuses: s.array(canaryStatus, { listType: 'atomic' }),
  clusterServingRuntimeName: s.string(),
  components: s.map(componentStatus),
  deploymentMode: s.string(),
  modelStatus,
  servingRuntimeName: s.string(),
  url: s.string(),
}, { preserveUnknownFields: true }).named('InferenceServiceStatus');

const predictorTraffic = '.status.components.predictor.traffic';

export const inferenceServiceCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'InferenceService',
  plural: 'inferenceservices',
  singular: 'inferenceservice',
  shortNames: ['isvc'],
  scope: CrdScope.NAMESPACED,
  versions: [
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      subresources: { status: true },
      printerColumns: [
        PrinterColumns.url(),
        PrinterColumns.ready(),
        { name: 'Prev', type: 'integer', jsonPath: `${predictorTraffic}[?(@.tag=='prev')].percent` },
        { name: 'Latest', type: 'integer', jsonPath: `${predictorTraffic}[?(@.latestRevision==true)].percent` },
        { name: 'PrevRolledoutRevision', type: 'string', jsonPath: `${predictorTraffic}[?(@.tag=='prev')].revisionName` },
        { name: 'LatestReadyRevision', type: 'string', jsonPath: `${predictorTraffic}[?(@.latestRevision==true)].revisionName` },
        PrinterColumns.age(),
      ],
      schema: s.object({
        spec: inferenceServiceSpec,
        status: inferenceServiceStatus,
      }),
    },
  ],
};
