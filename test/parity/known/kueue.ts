import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kueue install (see ../known-defects.ts). */
export const KNOWN_KUEUE: readonly KnownDefect[] = [];
