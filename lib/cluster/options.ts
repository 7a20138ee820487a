/** Options shared by `mlplatform apply` and `mlplatform diff`. */
import { WaitReporter } from './waits';

/** The field manager of every object `mlplatform apply` writes. */
export const FIELD_MANAGER = 'mlplatform';

export interface ClusterOptions {
  /** @default FIELD_MANAGER */
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
