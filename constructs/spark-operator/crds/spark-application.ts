import { SPARK_CRD_ANNOTATIONS, SPARK_GROUP, sparkApplicationSpec } from './common';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const printerColumns: PrinterColumn[] = [
  { name: 'Suspend', type: 'boolean', jsonPath: '.spec.suspend' },
  { name: 'Status', type: 'string', jsonPath: '.status.applicationState.state' },
  { name: 'Attempts', type: 'string', jsonPath: '.status.executionAttempts' },
  { name: 'Start', type: 'string', jsonPath: '.status.lastSubmissionAttemptTime' },
  { name: 'Finish', type: 'string', jsonPath: '.status.terminationTime' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** status of a SparkApplication (ScheduledSparkApplication has its own). */
const status = s.object({
  applicationState: s.object({
    errorMessage: s.string(),
    state: s.string().required(),
  }).named('SparkApplicationState'),
  driverInfo: s.object({
    podName: s.string(),
    webUIAddress: s.string(),
    webUIIngressAddress: s.string(),
    webUIIngressName: s.string(),
    webUIPort: s.int32(),
    webUIServiceName: s.string(),
  }).named('SparkDriverInfo').required(),
  executionAttempts: s.int32(),
  executorState: s.stringMap(),
  lastSubmissionAttemptTime: s.dateTime().nullable(),
  sparkApplicationId: s.string(),
  submissionAttempts: s.int32(),
  submissionID: s.string(),
  terminationTime: s.dateTime().nullable(),
}).named('SparkApplicationStatus');

/** sparkoperator.k8s.io/v1beta2 SparkApplication: one Spark job (driver and executors). */
export const sparkApplicationCrd: CrdDefinition = {
  group: SPARK_GROUP,
  kind: 'SparkApplication',
  plural: 'sparkapplications',
  shortNames: ['sparkapp'],
  scope: CrdScope.NAMESPACED,
  annotations: SPARK_CRD_ANNOTATIONS,
  versions: [{
    name: 'v1beta2',
    storage: true,
    schema: s.object({ metadata: s.object().required(), spec: sparkApplicationSpec().required(), status }),
    subresources: { status: true },
    printerColumns,
  }],
};
