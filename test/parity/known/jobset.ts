import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's jobset install (see ../known-defects.ts). */
export const KNOWN_JOBSET: readonly KnownDefect[] = [];
