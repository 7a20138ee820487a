/** Options shared by `mlplatform apply` and `mlplatform diff`. */
import { WaitReporter } from './waits';

/**
 * The field manager of releases before one manager per platform: every platform wrote as
 * `mlplatform`, so two platforms on one cluster could not tell their fields apart. An object
 * of this platform's ApplySet that still has an entry of it is moved to the platform's manager
 * at its next apply.
 */
export const LEGACY_FIELD_MANAGER = 'mlplatform';

/**
 * Whether a live object still has an apply entry of the legacy manager that `fieldManager`
 * (when it is not the legacy one itself) moves to itself at its next apply.
 */
export function hasLegacyManager(live: { metadata?: { managedFields?: ReadonlyArray<{ manager?: string; operation?: string; subresource?: string }> } }, fieldManager: string): boolean {
  return fieldManager !== LEGACY_FIELD_MANAGER && (live.metadata?.managedFields ?? []).some((m) => m.manager === LEGACY_FIELD_MANAGER && m.operation === 'Apply' && !m.subresource);
}

/** The field manager of every object `mlplatform apply` writes for a platform: `mlplatform-<platform>`. */
export function fieldManagerFor(platform: string): string {
  return `${LEGACY_FIELD_MANAGER}-${platform}`;
}

export interface ClusterOptions {
  /** @default fieldManagerFor(platform) */
  readonly fieldManager?: string;
  /** Where the ApplySet parent Secret lives. @default 'default' */
  readonly applySetNamespace?: string;
  /** Per wait. @default 300 s */
  readonly timeoutMs?: number;
  /** Poll interval of waits. @default 500 ms */
  readonly intervalMs?: number;
  readonly reporter?: WaitReporter;
  /** The tool version written into the ApplySet's tooling annotation. @default '0.0.0' */
  readonly version?: string;
}
