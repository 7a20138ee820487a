import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { ObjectSchema, s } from '../../../lib/schema/dsl';

export const CERT_MANAGER_GROUP = 'cert-manager.io';
export const ACME_GROUP = 'acme.cert-manager.io';

export const READY: PrinterColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type == "Ready")].status' };
export const READY_MESSAGE: PrinterColumn = { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type == "Ready")].message', priority: 1 };

/** A cert-manager v1 CRD with the schemas of its spec and status (see schemas.ts). */
export function certManagerCrd(o: {
  group: string;
  kind: string;
  plural: string;
  scope: CrdScope;
  shortNames?: string[];
  categories: string[];
  printerColumns: PrinterColumn[];
  spec: ObjectSchema;
  status: ObjectSchema;
}): CrdDefinition {
  return {
    group: o.group,
    kind: o.kind,
    plural: o.plural,
    shortNames: o.shortNames,
    categories: o.categories,
    scope: o.scope,
    versions: [{
      name: 'v1',
      storage: true,
      schema: s.object({
        spec: o.spec.required(),
        status: o.status,
      }),
      subresources: { status: true },
      printerColumns: [...o.printerColumns, PrinterColumns.age()],
    }],
  };
}
