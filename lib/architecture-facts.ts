/**
 * The data of an architecture comparison (lib/architecture-compare.ts), apart so that
 * lib/platform.ts can hold a platform's declarations without importing the comparison: an
 * architecture document's facts, and the classes and declarations of differences from it.
 */

/** The facts of an architecture document, as the generator script writes them for tests. */
export interface ArchitectureFacts {
  /** Totals the document states in its text, where it states them. */
  readonly stated: { readonly crds?: number; readonly webhooks?: number };
  readonly crdOwners: Array<{ readonly owner: string; readonly crds: string[]; readonly count: number }>;
  readonly dependencies: Array<{ readonly from: string; readonly to: string; readonly type: string }>;
  readonly webhookCounts: Array<{ readonly component: string; readonly count: number }>;
  /** Named webhooks: the cross-component table (with the target component) and the external table. */
  readonly webhooks: ArchitectureFactWebhook[];
}

export interface ArchitectureFactWebhook {
  readonly table: 'cross-component' | 'external';
  readonly name: string;
  readonly type: string;
  readonly owner: string;
  readonly path?: string;
  readonly failurePolicy?: string;
  /** The component the document says the webhook's Service belongs to (cross-component table). */
  readonly targetComponent?: string;
}

/**
 * How a difference from the architecture is explained:
 * - missing-component: the component is not part of the platform (or the construct lacks the part)
 * - optional: an optional part not enabled by default (`setting` names what enables it)
 * - repository-artefact: the document counts something the component's repository holds that no install deploys
 * - defect: ours is wrong; to be fixed
 */
export const DIFFERENCE_CLASSES = ['missing-component', 'optional', 'repository-artefact', 'defect'] as const;
export type DifferenceClass = (typeof DIFFERENCE_CLASSES)[number];

/** The tables compared row by row. */
export type ComparedTable = 'crd' | 'dependency' | 'webhook' | 'webhook-count';

/** One declared difference. `key` is the row's key as `compareArchitecture` prints it. */
export interface ArchitectureDeclaration {
  readonly table: ComparedTable;
  readonly key: string;
  readonly class: DifferenceClass;
  readonly reason: string;
  /** For class optional: the setting that enables it. */
  readonly setting?: string;
}

/** A component name of the document mapped to the platform's components. */
export interface ComponentNameMapping {
  readonly architecture: string;
  readonly ours: string[];
  readonly reason: string;
}

/** What a platform declares about an architecture document that describes it. */
export interface ArchitectureDeclarations {
  readonly componentNames: readonly ComponentNameMapping[];
  readonly differences: readonly ArchitectureDeclaration[];
}
