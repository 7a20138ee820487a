/**
 * InferenceGraph (serving.kserve.io/v1alpha1): a router that chains, splits, ensembles or
 * switches requests between InferenceServices.
 */
import { knativeStatusFields } from './isvc-shared';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { core, plainCore } from '../../../lib/schema/core';
import { s } from '../../../lib/schema/dsl';

/** One step of a router node (InferenceStep): a service, a URL or another node. */
const inferenceStep = s.object({
  condition: s.string(),
  data: s.string(),
  dependency: s.enum('Soft', 'Hard'),
  mapPredictionsToInstances: s.boolean(),
  name: s.string(),
  nodeName: s.string(),
  serviceName: s.string(),
  serviceUrl: s.string(),
  weight: s.int64(),
}).named('InferenceStep');

/** A node of the graph (InferenceRouter). */
const inferenceRouter = s.object({
  routerType: s.enum('Sequence', 'Splitter', 'Ensemble', 'Switch').required(),
  steps: s.array(inferenceStep),
}).named('InferenceRouter');

/** Timeouts of the router server and its client calls, in seconds. */
const routerTimeouts = s.object({
  serverIdle: s.int64(),
  serverRead: s.int64(),
  serverWrite: s.int64(),
  serviceClient: s.int64(),
}).named('RouterTimeouts');

/** corev1.ResourceRequirements, expanded in place as KServe's CRD does (claims: a map list keyed by name). */
const resources = plainCore('V1ResourceRequirements');

const inferenceGraphSpec = s.object({
  affinity: core('V1Affinity'),
  maxReplicas: s.int32(),
  minReplicas: s.int32(),
  nodeName: s.string(),
  nodeSelector: s.stringMap(),
  nodes: s.map(inferenceRouter).required(),
  resources,
  routerTimeouts,
  scaleMetric: s.enum('cpu', 'memory', 'concurrency', 'rps'),
  scaleTarget: s.int32(),
  serviceAccountName: s.string(),
  timeout: s.int64(),
  tolerations: s.array(plainCore('V1Toleration')),
}).named('InferenceGraphSpec');

const inferenceGraphStatus = s.object({
  ...knativeStatusFields,
  deploymentMode: s.string(),
  url: s.string(),
}).named('InferenceGraphStatus');

export const inferenceGraphCrd: CrdDefinition = {
  group: 'serving.kserve.io',
  kind: 'InferenceGraph',
  plural: 'inferencegraphs',
  singular: 'inferencegraph',
  shortNames: ['ig'],
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
        spec: inferenceGraphSpec,
        status: inferenceGraphStatus,
      }),
    },
  ],
};
