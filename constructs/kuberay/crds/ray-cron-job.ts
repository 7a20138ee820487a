import { RAY_GROUP } from './common';
import { rayJobSpecV1 } from './ray-job';
import { CrdDefinition, CrdScope, PrinterColumn } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

const printerColumns: PrinterColumn[] = [
  { name: 'schedule', type: 'string', jsonPath: '.spec.schedule' },
  { name: 'timezone', type: 'string', jsonPath: '.spec.timeZone' },
  { name: 'last schedule', type: 'date', jsonPath: '.status.lastScheduleTime' },
  { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'suspend', type: 'boolean', jsonPath: '.spec.suspend' },
];

/** ray.io/v1 RayCronJob (new in KubeRay v1.7): creates RayJobs on a cron schedule. */
export const rayCronJobCrd: CrdDefinition = {
  group: RAY_GROUP,
  kind: 'RayCronJob',
  plural: 'raycronjobs',
  categories: ['all'],
  scope: CrdScope.NAMESPACED,
  annotations: { 'controller-gen.kubebuilder.io/version': 'v0.16.5' },
  versions: [
    {
      name: 'v1',
      storage: true,
      schema: s.object({
        spec: s.object({
          jobTemplate: rayJobSpecV1().required().describe('The RayJob spec each run is created from.'),
          schedule: s.string().required().describe('Cron schedule, e.g. "0 * * * *".'),
          suspend: s.boolean().describe('Whether new runs are held back.'),
          timeZone: s.string({ minLength: 1 }).describe('IANA time zone of the schedule; the controller\'s when unset.'),
        }).named('RayCronJobSpec'),
        status: s.object({ lastScheduleTime: s.dateTime() }).named('RayCronJobStatus'),
      }),
      subresources: { status: true },
      printerColumns,
    },
  ],
};
