import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's models-as-a-service install (see ../known-defects.ts): none. */
export const KNOWN_MODELS_AS_A_SERVICE: readonly KnownDefect[] = [];
