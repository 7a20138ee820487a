import { conditions, resources } from './common';
import { CrdDefinition, CrdScope, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const CATALOG_GROUP = 'aihub.opendatahub.io';

/** aihub.opendatahub.io/v1alpha1 Catalog: the model catalog service and its PostgreSQL database. */
export const catalogCrd: CrdDefinition = {
  group: CATALOG_GROUP,
  kind: 'Catalog',
  plural: 'catalogs',
  scope: CrdScope.NAMESPACED,
  versions: [{
    name: 'v1alpha1',
    storage: true,
    subresources: { status: true },
    printerColumns: [PrinterColumns.age()],
    schema: s.object({
      spec: s.object({
        database: s.object({
          volume: s.object({
            sizeLimit: s.quantity()
              .rule("quantity(string(self)).isGreaterThan(quantity('0'))", 'sizeLimit must be a positive quantity')
              .describe('Size of the database volume.'),
          }).named('CatalogDatabaseVolume'),
        }).named('CatalogDatabase'),
        resources: s.object({
          catalog: resources(),
          postgres: resources(),
        }).named('CatalogResources'),
      }).named('CatalogSpec'),
      status: s.object({
        observedGeneration: s.int64(),
        conditions: conditions(),
      }).named('CatalogStatus'),
    }),
  }],
};
