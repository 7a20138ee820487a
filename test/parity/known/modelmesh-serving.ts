import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's modelmesh-serving install (see ../known-defects.ts): none. */
export const KNOWN_MODELMESH_SERVING: readonly KnownDefect[] = [];
