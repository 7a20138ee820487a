import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's pvcviewer-controller install (see ../known-defects.ts). */
export const KNOWN_PVCVIEWER_CONTROLLER: readonly KnownDefect[] = [];
