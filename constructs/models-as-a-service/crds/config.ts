import { GROUP, singleton } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

/** maas.opendatahub.io/v1alpha1 Config: cluster-wide MaaS settings, a singleton named `default`. */
export const configCrd: CrdDefinition = {
  group: GROUP,
  kind: 'Config',
  plural: 'configs',
  shortNames: ['maasconfig'],
  scope: CrdScope.CLUSTER,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [PrinterColumns.age()],
    schema: s.object({
      spec: s.object({
        limitadorScrapeInterval: s.string({ maxLength: 16, pattern: '^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$' }).default('30s').describe('How often rate-limit counters are scraped.'),
        usageLogging: s.boolean().default(false).describe('Record per-request usage logs.'),
      }).named('ConfigSpec'),
      status: s.object({}).named('ConfigStatus'),
    }).rule(...singleton('default')),
  }],
};
