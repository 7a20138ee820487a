import { SPARK_CRD_ANNOTATIONS, SPARK_GROUP, sparkApplicationSpec } from './common';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const printerColumns: PrinterColumn[] = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
  { name: 'TimeZone', type: 'string', jsonPath: '.spec.timeZone' },
  // A string column upstream, though the field is a boolean.
  { name: 'Suspend', type: 'string', jsonPath: '.spec.suspend' },
  { name: 'Last Run', type: 'date', jsonPath: '.status.lastRun' },
  { name: 'Last Run Name', type: 'string', jsonPath: '.status.lastRunName' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** sparkoperator.k8s.io/v1beta2 ScheduledSparkApplication: SparkApplications on a cron schedule. */
export const scheduledSparkApplicationCrd: CrdDefinition = {
  group: SPARK_GROUP,
  kind: 'ScheduledSparkApplication',
  plural: 'scheduledsparkapplications',
  shortNames: ['scheduledsparkapp'],
  scope: CrdScope.NAMESPACED,
  annotations: SPARK_CRD_ANNOTATIONS,
  versions: [{
    name: 'v1beta2',
    storage: true,
    schema: s.object({
      metadata: s.object().required(),
      spec: s.object({
        concurrencyPolicy: s.string().describe('Allow, Forbid or Replace: what to do when a run is due while the last one runs.'),
        failedRunHistoryLimit: s.int32(),
        schedule: s.string().required().describe('Cron schedule of the runs.'),
        successfulRunHistoryLimit: s.int32(),
        suspend: s.boolean(),
        template: sparkApplicationSpec().required(),
        timeZone: s.string(),
      }).named('ScheduledSparkApplicationSpec').required(),
      status: s.object({
        lastRun: s.dateTime().nullable(),
        lastRunName: s.string(),
        nextRun: s.dateTime().nullable(),
        pastFailedRunNames: s.array(s.string()),
        pastSuccessfulRunNames: s.array(s.string()),
        reason: s.string(),
        scheduleState: s.string(),
      }).named('ScheduledSparkApplicationStatus'),
    }),
    subresources: { status: true },
    printerColumns,
  }],
};
