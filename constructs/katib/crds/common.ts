import { CrdDefinition, CrdScope, PrinterColumn, PrinterColumns } from '../../../lib/crd';
import { s } from '../../../lib/schema/dsl';

export const KATIB_GROUP = 'kubeflow.org';

/** Katib's printer columns: the last condition's type and status. */
export const TYPE: PrinterColumn = { name: 'Type', type: 'string', jsonPath: '.status.conditions[-1:].type' };
export const STATUS: PrinterColumn = { name: 'Status', type: 'string', jsonPath: '.status.conditions[-1:].status' };

/**
 * A Katib v1beta1 CRD. Upstream's CRDs are hand-written without field schemas: the whole
 * object is kept as given (x-kubernetes-preserve-unknown-fields at the root), and Katib's
 * validating webhook checks Experiments instead. We keep that: a field schema of our own
 * would prune or reject what v0.19.0's controller writes.
 */
export function katibCrd(kind: string, printerColumns: PrinterColumn[]): CrdDefinition {
  return {
    group: KATIB_GROUP,
    kind,
    plural: `${kind.toLowerCase()}s`,
    categories: ['all', 'kubeflow', 'katib'],
    scope: CrdScope.NAMESPACED,
    versions: [{
      name: 'v1beta1',
      storage: true,
      schema: s.object({}, { preserveUnknownFields: true }),
      subresources: { status: true },
      printerColumns: [...printerColumns, PrinterColumns.age()],
    }],
  };
}
