import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's tensorboard-controller install (see ../known-defects.ts). */
export const KNOWN_TENSORBOARD_CONTROLLER: readonly KnownDefect[] = [];
