import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's trainer install (see ../known-defects.ts). */
export const KNOWN_TRAINER: readonly KnownDefect[] = [];
