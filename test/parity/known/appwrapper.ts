import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's appwrapper install (see ../known-defects.ts). */
export const KNOWN_APPWRAPPER: readonly KnownDefect[] = [];
