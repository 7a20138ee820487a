import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's kuberay install (see ../known-defects.ts). */
export const KNOWN_KUBERAY: readonly KnownDefect[] = [];
