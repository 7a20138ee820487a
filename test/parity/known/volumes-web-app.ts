import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's volumes-web-app install (see ../known-defects.ts). */
export const KNOWN_VOLUMES_WEB_APP: readonly KnownDefect[] = [];
