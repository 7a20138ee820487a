import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's notebook-controller install (see ../known-defects.ts). */
export const KNOWN_NOTEBOOK_CONTROLLER: readonly KnownDefect[] = [];
