import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's codeflare-operator install (see ../known-defects.ts). */
export const KNOWN_CODEFLARE_OPERATOR: readonly KnownDefect[] = [];
