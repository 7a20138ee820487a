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
              // Not quantity(): that library compiles in new CRDs from Kubernetes 1.29 only. The schema's
              // pattern admits valid quantities; of those, the positive ones have no '-' and a digit 1-9.
              .rule("type(self) == int ? self > 0 : !self.startsWith('-') && self.matches('[1-9]')", 'sizeLimit must be a positive quantity')
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
