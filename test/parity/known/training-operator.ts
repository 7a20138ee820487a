import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's training-operator install (see ../known-defects.ts). */
export const KNOWN_TRAINING_OPERATOR: readonly KnownDefect[] = [];
