import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's model-registry install (see ../known-defects.ts). */
export const KNOWN_MODEL_REGISTRY: readonly KnownDefect[] = [];
