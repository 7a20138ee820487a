import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's model-registry-operator install (see ../known-defects.ts): none. */
export const KNOWN_MODEL_REGISTRY_OPERATOR: readonly KnownDefect[] = [];
