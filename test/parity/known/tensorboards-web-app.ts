import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's tensorboards-web-app install (see ../known-defects.ts). */
export const KNOWN_TENSORBOARDS_WEB_APP: readonly KnownDefect[] = [];
