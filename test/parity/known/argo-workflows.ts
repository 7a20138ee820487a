import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's argo-workflows install (see ../known-defects.ts). */
export const KNOWN_ARGO_WORKFLOWS: readonly KnownDefect[] = [];
