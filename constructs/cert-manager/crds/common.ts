import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const CERT_MANAGER_GROUP = 'cert-manager.io';
export const ACME_GROUP = 'acme.cert-manager.io';

export const READY: PrinterColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type == "Ready")].status' };
export const READY_MESSAGE: PrinterColumn = { name: 'Status', type: 'string', jsonPath: '.status.conditions[?(@.type == "Ready")].message', priority: 1 };

/**
 * A cert-manager v1 CRD. The field schemas of spec and status are not modelled: we could
 * not confirm every field of v1.19.2's generated schemas in the time available, so both
 * keep whatever they are given (x-kubernetes-preserve-unknown-fields). Nothing is pruned;
 * cert-manager's own validating webhook checks the fields.
 */
export function certManagerCrd(o: {
  group: string; kind: string; plural: string; scope: CrdScope; shortNames?: string[]; categories: string[]; printerColumns: PrinterColumn[];
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
        spec: s.openObject().describe('The desired state (fields not modelled: see the component README).'),
        status: s.openObject(),
      }),
      subresources: { status: true },
      printerColumns: [...o.printerColumns, PrinterColumns.age()],
    }],
  };
}
