import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's katib install (see ../known-defects.ts). */
export const KNOWN_KATIB: readonly KnownDefect[] = [];
