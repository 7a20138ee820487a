import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's workload-variant-autoscaler install (see ../known-defects.ts): none. */
export const KNOWN_WORKLOAD_VARIANT_AUTOSCALER: readonly KnownDefect[] = [];
