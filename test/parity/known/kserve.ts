import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kserve install (see ../known-defects.ts). */
export const KNOWN_KSERVE: readonly KnownDefect[] = [];
