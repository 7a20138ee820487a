import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's odh-model-controller install (see ../known-defects.ts): none. */
export const KNOWN_ODH_MODEL_CONTROLLER: readonly KnownDefect[] = [];
